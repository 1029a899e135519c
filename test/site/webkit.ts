import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Builder, Capabilities, type WebDriver } from 'selenium-webdriver';
import { freePort } from '../support/server.js';
import { which } from '../support/which.js';
import { startXvfb, stopChild, XVFB } from '../support/xvfb.js';
import { engineSkip, NOT_BUILT, SCREENSHOTS } from './browser.js';

/**
 * The site in WebKit: Debian's WebKitGTK (the engine of Safari) driven over W3C WebDriver by
 * WebKitWebDriver and selenium-webdriver, its MiniBrowser shown on an Xvfb display (WebKitGTK has no
 * headless mode). Downloads land in the XDG download directory, where the driver's WebKit adapter
 * (driver-webkit.ts) reads them.
 *
 * This module starts WebKit for the WebKit test files (test/site/webkit*.test.ts); scripts/test.sh
 * runs those files one after another, on their own before the rest of the suite (see there).
 *
 * Needs WebKitWebDriver (package webkit2gtk-driver), the MiniBrowser (libwebkit2gtk-4.1-0) and Xvfb
 * (xvfb); `WEBKIT_DRIVER_PATH` and `WEBKIT_BROWSER_PATH` override where they are looked for. Without
 * them the suite skips, except when TEST_REQUIRE_WEBKIT=1 (set by scripts/ci/11-webkit.sh), where it
 * fails, so that CI never passes by skipping.
 */
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
export const MISSING =
  (!DRIVER || !existsSync(DRIVER)
    ? `WebKitWebDriver not found (${DRIVER ?? 'not on PATH'}): apt-get install -y webkit2gtk-driver, or set WEBKIT_DRIVER_PATH`
    : null) ??
  (!BROWSER || !existsSync(BROWSER)
    ? `WebKitGTK MiniBrowser not found (${BROWSER ?? 'no libwebkit2gtk'}): apt-get install -y webkit2gtk-driver, or set WEBKIT_BROWSER_PATH`
    : null) ??
  (!XVFB ? 'Xvfb not found: apt-get install -y xvfb (WebKitGTK needs a display)' : null) ??
  NOT_BUILT;
export const SKIP = engineSkip('WebKit', 'TEST_REQUIRE_WEBKIT', MISSING);

export interface WebKit {
  readonly downloads: string;
  /** A new browser (a fresh MiniBrowser process and ephemeral session); `args` are MiniBrowser options. */
  session(args?: string[]): Promise<WebDriver>;
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
      await xvfb.close();
      throw new Error(`WebKitWebDriver did not become ready: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Should the test process end without `close()` (a timeout kills it), take the driver along (the
  // display goes by itself); a MiniBrowser left behind exits when its display goes.
  const leftovers = () => driver.kill('SIGTERM');
  process.once('exit', leftovers);
  const sessions = new Set<WebDriver>();
  return {
    downloads,
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
    async close() {
      for (const s of [...sessions]) await s.quit().catch(() => {});
      await stopChild(driver);
      await xvfb.close();
      process.removeListener('exit', leftovers);
    },
  };
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
