import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { MANIFEST_FILE } from '../../src/release/build-manifest.js';
import { CHROMIUM, CHROMIUM_ARGS, engineSkip } from '../site/browser.js';
import { FIREFOX } from '../site/firefox.js';
import { type AlteringProxy, startAlteringProxy } from '../support/altering-proxy.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * Subresource Integrity in real browsers: the page through a proxy that alters its main script on
 * the way. Unaltered, the script runs (it points the header's link at the site's base and draws the
 * footer with the release and its manifest's hash); altered, Chromium and Firefox refuse to run it.
 * A module script runs before the load event, so "loaded and the link still ./" means it never ran.
 */
const built = existsSync(MANIFEST_FILE) ? null : 'no site manifest (npm run build)';
const chromiumSkip = engineSkip(
  'Chromium',
  'TEST_REQUIRE_CHROMIUM',
  existsSync(CHROMIUM) ? built : `no Chromium at ${CHROMIUM}`,
);
const firefoxSkip = engineSkip(
  'Firefox',
  'TEST_REQUIRE_FIREFOX',
  existsSync(FIREFOX) ? built : `no Firefox at ${FIREFOX}`,
);

/** What one page load showed: the header link's href (set by the script) and the footer's release text. */
interface Loaded {
  readonly homeHref: string | null;
  readonly release: string | null;
}

const inPage = () => ({
  homeHref: document.getElementById('home-link')?.getAttribute('href') ?? null,
  release: document.getElementById('release-link')?.textContent ?? null,
});

interface Engine {
  /** Loads `url` in a fresh context until its load event (and the footer, when asked), and reads the page. */
  open(url: string, waitForFooter: boolean): Promise<Loaded>;
  close(): Promise<void>;
}

async function chromiumEngine(): Promise<Engine> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  return {
    async open(url, waitForFooter) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      if (waitForFooter) await page.waitForSelector('#release-link');
      const loaded = await page.evaluate(inPage);
      await context.close();
      return loaded;
    },
    close: () => browser.close(),
  };
}

async function firefoxEngine(): Promise<Engine> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  return {
    async open(url, waitForFooter) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      if (waitForFooter) await page.waitForSelector('#release-link');
      const loaded = await page.evaluate(inPage);
      await context.close();
      return loaded;
    },
    close: () => browser.close(),
  };
}

for (const [name, skip, make] of [
  ['Chromium', chromiumSkip, chromiumEngine],
  ['Firefox', firefoxSkip, firefoxEngine],
] as const) {
  describe(`Subresource Integrity in ${name}`, { skip }, () => {
    let server: RunningServer;
    let proxy: AlteringProxy;
    let engine: Engine;
    let main: string;
    let manifestHash: string;
    before(async () => {
      const manifest = JSON.parse(await readFile(MANIFEST_FILE, 'utf8')) as { files: { path: string; kind: string }[] };
      main = manifest.files.find((f) => f.kind === 'script' && /^\/assets\/index-.*\.js$/.test(f.path))!.path;
      manifestHash = createHash('sha256')
        .update(await readFile(MANIFEST_FILE))
        .digest('hex');
      proxy = await startAlteringProxy((path) => path === main);
      server = await startServer({ BASE_URL: proxy.url });
      const address = server.server.app.server.address();
      assert.ok(address && typeof address === 'object');
      proxy.upstream = `http://127.0.0.1:${address.port}`;
      engine = await make();
    });
    after(async () => {
      await engine?.close();
      await proxy?.close();
      await server?.close();
    });

    test('the unaltered script runs, and the footer shows the release and its manifest hash', async () => {
      proxy.alter = () => null;
      const loaded = await engine.open(`${proxy.url}/`, true);
      assert.equal(loaded.homeHref, '/');
      assert.match(loaded.release ?? '', /^webfolder \S+ · sha256 [0-9a-f]{16}$/);
      assert.ok(loaded.release!.endsWith(manifestHash.slice(0, 16)), loaded.release!);
    });

    test('a script altered on the way is refused', async () => {
      proxy.altered.length = 0;
      proxy.alter = (body) => Buffer.concat([body, Buffer.from(';document.title="altered";')]);
      const loaded = await engine.open(`${proxy.url}/`, false);
      assert.deepEqual(proxy.altered, [main], 'the browser fetched the script through the proxy');
      assert.equal(loaded.homeHref, './', 'the script did not run');
      assert.equal(loaded.release, null);
    });
  });
}
