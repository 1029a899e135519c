import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Builder, By, Capabilities, until, type WebDriver, type WebElement } from 'selenium-webdriver';
import { SITE_BUILD_DIR } from '../../src/http/routes/site.js';
import { freePort } from '../support/server.js';
import { which } from '../support/which.js';
import { SCREENSHOTS } from './browser.js';
import { downloadDir } from './download-dir.js';

/**
 * The site in WebKit: Debian's WebKitGTK (the engine of Safari) driven over W3C WebDriver by
 * WebKitWebDriver and selenium-webdriver, its MiniBrowser shown on an Xvfb display (WebKitGTK has no
 * headless mode). A folder filled by the client library is opened in WebKit, which decrypts the names
 * and downloads a file and the zip of all through the page's buttons into its download directory;
 * the bytes on disk are compared with the originals, and the download path the page took (service
 * worker or in-memory Blob) is read from `#download-status[data-download-path]`.
 *
 * This module starts WebKit for the WebKit test files (test/site/webkit*.test.ts); scripts/test.sh
 * runs those files one after another, on their own before the rest of the suite (see there).
 *
 * Needs WebKitWebDriver (package webkit2gtk-driver), the MiniBrowser (libwebkit2gtk-4.1-0) and Xvfb
 * (xvfb); `WEBKIT_DRIVER_PATH` and `WEBKIT_BROWSER_PATH` override where they are looked for. Without
 * them the suite skips, except when TEST_REQUIRE_WEBKIT=1 (set by scripts/ci/11-webkit.sh), where it
 * fails, so that CI never passes by skipping.
 */
export const MIB = 1024 * 1024;

function findBrowser(): string | null {
  if (process.env.WEBKIT_BROWSER_PATH) return process.env.WEBKIT_BROWSER_PATH;
  for (const lib of [
    '/usr/lib/x86_64-linux-gnu',
    '/usr/lib/aarch64-linux-gnu',
    '/usr/lib64',
    '/usr/lib',
    '/usr/libexec',
  ]) {
    for (const api of ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0']) {
      const path = join(lib, api, 'MiniBrowser');
      if (existsSync(path)) return path;
    }
  }
  return null;
}

const DRIVER = process.env.WEBKIT_DRIVER_PATH || which('WebKitWebDriver');
const BROWSER = findBrowser();
const XVFB = which('Xvfb');
const NOT_BUILT = existsSync(join(SITE_BUILD_DIR, 'index.html')) ? null : 'the site is not built (npm run build:web)';
export const MISSING =
  (!DRIVER || !existsSync(DRIVER)
    ? `WebKitWebDriver not found (${DRIVER ?? 'not on PATH'}): apt-get install -y webkit2gtk-driver, or set WEBKIT_DRIVER_PATH`
    : null) ??
  (!BROWSER || !existsSync(BROWSER)
    ? `WebKitGTK MiniBrowser not found (${BROWSER ?? 'no libwebkit2gtk'}): apt-get install -y webkit2gtk-driver, or set WEBKIT_BROWSER_PATH`
    : null) ??
  (!XVFB ? 'Xvfb not found: apt-get install -y xvfb (WebKitGTK needs a display)' : null) ??
  NOT_BUILT;
const REQUIRED = process.env.TEST_REQUIRE_WEBKIT === '1';
export const SKIP: string | false = MISSING && !REQUIRED ? MISSING : false;
if (SKIP) process.stderr.write(`test/site/webkit: skipping WebKit tests: ${SKIP}\n`);

if (MISSING && REQUIRED) {
  test('WebKit is required (TEST_REQUIRE_WEBKIT=1)', () => {
    assert.fail(`${MISSING} (TEST_REQUIRE_WEBKIT=1)`);
  });
}

/** An Xvfb on a display number it picks itself (-displayfd), so parallel runs never collide. */
async function startXvfb(): Promise<{ display: string; child: ChildProcess }> {
  const child = spawn(XVFB!, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start within 20 s: ${log}`)), 20_000);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${log}`));
    });
  });
  return { display, child };
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export interface WebKit {
  readonly url: string;
  readonly downloads: string;
  readonly version: () => Promise<string>;
  /** A new browser (a fresh MiniBrowser process and ephemeral session); `args` are MiniBrowser options. */
  session(args?: string[]): Promise<WebDriver>;
  /** Empties the download directory. */
  clearDownloads(): Promise<void>;
  /** Waits until `name` is in the download directory with `size` bytes and no partial file remains. */
  downloaded(name: string, size: number): Promise<Buffer>;
  /** Waits until the zip `name` is complete in the download directory; returns its checked listing. */
  downloadedZip(name: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * WebKitWebDriver on a free loopback port, its browsers on a fresh Xvfb, with HOME and the XDG
 * directories in a temporary directory: WebKitGTK saves downloads in the XDG download directory
 * (glib reads it from $XDG_CONFIG_HOME/user-dirs.dirs), so that is where the test finds them.
 */
export async function startWebKit(root: string): Promise<WebKit> {
  const home = join(root, 'home');
  const downloads = join(root, 'downloads');
  const dir = downloadDir(downloads);
  const config = join(home, '.config');
  await mkdir(config, { recursive: true });
  await mkdir(downloads, { recursive: true });
  await writeFile(join(config, 'user-dirs.dirs'), `XDG_DOWNLOAD_DIR="${downloads}"\n`);
  const xvfb = await startXvfb();
  const port = await freePort();
  let log = '';
  const driver = spawn(DRIVER!, [`--port=${port}`, '--host=local'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DISPLAY: xvfb.display,
      WAYLAND_DISPLAY: '',
      HOME: home,
      XDG_CONFIG_HOME: config,
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_DOWNLOAD_DIR: downloads, // for tools that read the variable; glib reads user-dirs.dirs
      GDK_BACKEND: 'x11',
      // No GPU here: software rendering, and no DMA-BUF renderer probing.
      LIBGL_ALWAYS_SOFTWARE: '1',
      WEBKIT_DISABLE_DMABUF_RENDERER: '1',
    },
  });
  driver.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  driver.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${url}/status`)
      .then(async (r) => r.ok && ((await r.json()) as { value?: { ready?: boolean } }).value?.ready === true)
      .catch(() => false);
    if (ready) break;
    if (driver.exitCode !== null || Date.now() > deadline) {
      await stopChild(driver);
      await stopChild(xvfb.child);
      throw new Error(`WebKitWebDriver did not become ready: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Should the test process end without `close()` (a timeout kills it), take the driver and display
  // along; a MiniBrowser left behind exits when its display goes.
  const leftovers = () => {
    driver.kill('SIGTERM');
    xvfb.child.kill('SIGTERM');
  };
  process.once('exit', leftovers);
  const sessions = new Set<WebDriver>();
  return {
    url,
    downloads,
    version: async () =>
      execFileSync(BROWSER!, ['--version'], { env: { ...process.env, DISPLAY: xvfb.display } })
        .toString()
        .trim(),
    async session(args = []) {
      const caps = new Capabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: BROWSER, args: ['--automation', ...args] },
      });
      const session = await new Builder().usingServer(url).withCapabilities(caps).build();
      sessions.add(session);
      const quit = session.quit.bind(session);
      session.quit = async () => {
        sessions.delete(session);
        await quit();
      };
      return session;
    },
    downloaded: dir.file,
    clearDownloads: dir.clear,
    // Its size is not known here in advance: wait for an archive that checks.
    downloadedZip: (name) => dir.when(name, zipListing),
    async close() {
      for (const s of [...sessions]) await s.quit().catch(() => {});
      await stopChild(driver);
      await stopChild(xvfb.child);
      process.removeListener('exit', leftovers);
    },
  };
}

export function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/** The entries of a zip, each checked against its CRC by Python's zipfile: name, size, sha256. */
export function zipListing(path: string): string[] {
  return execFileSync(
    'python3',
    [
      '-c',
      'import sys,zipfile,hashlib\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nfor i in z.infolist(): print(i.filename, i.file_size, hashlib.sha256(z.read(i)).hexdigest())',
      path,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
    .toString()
    .trim()
    .split('\n')
    .sort();
}

export async function waitFor(driver: WebDriver, css: string, timeoutMs = 30_000) {
  return driver.wait(until.elementLocated(By.css(css)), timeoutMs, `waiting for ${css}`);
}

/** Clicks a download button and returns the download path the page reports ('service-worker' or 'memory'). */
export async function clickDownload(driver: WebDriver, button: WebElement): Promise<string> {
  await button.click();
  const status = await waitFor(driver, '#download-status[data-download-path]', 60_000);
  const error = await driver.findElements(By.css('#download-status .error'));
  if (error.length) assert.fail(`the page reports: ${await error[0]!.getText()}`);
  return (await status.getAttribute('data-download-path')) ?? '';
}

/**
 * A screenshot kept as a CI artifact: artifacts/screenshots/webkit-<name>.png, the page's viewport as
 * WebDriver takes it (WebDriver has no full-page screenshot).
 */
export async function shot(driver: WebDriver, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `webkit-${name}.png`);
  await writeFile(path, Buffer.from(await driver.takeScreenshot(), 'base64'));
  return path;
}
