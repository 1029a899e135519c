import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { SITE_BUILD_DIR } from '../../src/http/routes/site.js';
import { type RunningServer, useServer } from '../support/server.js';
import { isUnavailable, type S3Service, startS3 } from '../support/services.js';

/**
 * A real Chromium for the site's end-to-end tests (Debian's package, driven by playwright-core).
 * `CHROMIUM_PATH` (set by scripts/ci/10-chromium.sh) or /usr/bin/chromium; when neither exists the
 * suites skip with a message saying how to get it, except when TEST_REQUIRE_CHROMIUM=1 (set by that
 * script), where every file that needs Chromium fails, so that CI never passes by skipping.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SKIP = existsSync(CHROMIUM)
  ? false
  : `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`;
if (SKIP && process.env.TEST_REQUIRE_CHROMIUM === '1') throw new Error(`${SKIP} (TEST_REQUIRE_CHROMIUM=1)`);
if (SKIP) process.stderr.write(`test/site: skipping browser tests: ${SKIP}\n`);

/** Why no browser suite can run yet (the site is not built), or null. */
export const NOT_BUILT = existsSync(join(SITE_BUILD_DIR, 'index.html'))
  ? null
  : 'the site is not built (npm run build:web)';

/**
 * Why an engine's suites skip (`missing`: why the engine cannot run here, or null), or false. Under
 * `<variable>=1` (set by the CI script that installs the engine) a missing engine is a failing test
 * instead, so that CI never passes by skipping.
 */
export function engineSkip(engine: string, variable: string, missing: string | null): string | false {
  const required = process.env[variable] === '1';
  if (missing && required) {
    test(`${engine} is required (${variable}=1)`, () => {
      assert.fail(`${missing} (${variable}=1)`);
    });
  }
  const skip = missing && !required ? missing : false;
  if (skip) process.stderr.write(`test/site: skipping ${engine} tests: ${skip}\n`);
  return skip;
}

const ROOT = new URL('../../', import.meta.url).pathname;
export const SCREENSHOTS = join(ROOT, 'artifacts', 'screenshots');

/** Chromium's flags for every test and benchmark (playwright here, the DevTools driver in test/support/chromium-cdp.ts). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}

export async function newContext(browser: Browser, phone = false): Promise<BrowserContext> {
  return browser.newContext({
    acceptDownloads: true,
    ...(phone
      ? { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1100, height: 900 } }),
  });
}

/** Collects page errors and CSP violations, so a test can assert there were none. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) problems.push(`csp: ${m.text()}`);
  });
  return problems;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export async function createFolder(
  baseUrl: string,
  mode: string,
  title = `Test ${mode}`,
): Promise<{ folderId: string; folderUrl: string }> {
  const res = await fetch(`${baseUrl}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, title }),
  });
  if (!res.ok) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { folderId: string; folderUrl: string };
}

/** Deterministic pseudo-random bytes (xorshift), so a failure can be reproduced. */
export function bytes(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

export async function writeTemp(dir: string, name: string, content: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** Clicks a download button and returns the saved file's bytes. */
export async function downloadBytes(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; content: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), click()]);
  const failure = await download.failure();
  if (failure) throw new Error(`download failed: ${failure}`);
  const path = await download.path();
  return { name: download.suggestedFilename(), content: await readFile(path) };
}

export interface BrowserFixture {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A temporary directory for files to upload, removed after the suite. */
  readonly dir: string;
}

/**
 * Registers the before/after hooks of a browser suite: a real server (5 MiB chunks, so that small
 * test files span several chunks), a Chromium, and a temporary directory. Call inside `describe`;
 * read the fields inside tests.
 */
export function useBrowserFixture(env: Record<string, string> = {}): BrowserFixture {
  const served = useServer({ CHUNK_SIZE_MIB: '5', ...env }, { prefix: 'webfolder-site-', open: () => launch() });
  return {
    server: served,
    get browser() {
      return served.opened;
    },
    get dir() {
      return served.dir;
    },
  };
}

/** The S3 backend (the tests' RADOS Gateway, or TEST_S3_ENDPOINT) of a Chromium suite. */
export interface S3BrowserSuite {
  /** false, or why the suite skips (no Chromium, no S3): pass it to `describe`. */
  readonly skip: string | boolean;
  /** The service; read only when the suite runs. */
  readonly storage: S3Service;
}

/**
 * Starts S3 for a Chromium suite, at the file's top level (before `describe`). Without Chromium there
 * is nothing to run: S3 is stopped at once.
 */
export async function s3ForBrowser(): Promise<S3BrowserSuite> {
  const s3 = await startS3();
  if (SKIP && !isUnavailable(s3)) await s3.stop();
  return { skip: SKIP || (isUnavailable(s3) ? s3.skip : false), storage: s3 as S3Service };
}

/**
 * The browser fixture on the S3 backend, in a fresh bucket (`env` added to the server's, e.g. another
 * S3_ENDPOINT); S3 stops after the suite, once the fixture's own hooks have closed the server. Call
 * inside `describe`.
 */
export function useS3BrowserFixture(
  suite: S3BrowserSuite,
  env: Record<string, string> = {},
): BrowserFixture & { readonly bucket: string } {
  const bucket = suite.skip ? '' : suite.storage.freshBucket();
  const fixture = useBrowserFixture(suite.skip ? {} : { ...suite.storage.env(bucket), ...env });
  after(async () => {
    if (!suite.skip) await suite.storage.stop();
  });
  return Object.assign(fixture, { bucket });
}
