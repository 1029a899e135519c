import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { startServer } from '../support/server.js';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  createFolder,
  launch,
  NOT_BUILT,
  newContext,
  SKIP,
  screenshot,
  watch,
} from './browser.js';

/**
 * The installable app (src/domain/web-app-manifest.ts, web/src/workers/app-shell.ts): Chromium
 * finds nothing in the way of installing it (its own installability check), the manifest carries
 * the instance's name, and with the server gone the page still opens from the service worker's
 * cache and says it is offline; that cache holds the shell and assets only, never a folder's
 * address, data or key. Chromium only: Firefox installs no web apps, and WebKit's home-screen
 * apps are iOS's (docs/site.md, "Install as an app").
 */
const NAME = 'Acme Files Europe';

describe('site: installable, and the app shell offline', { skip: SKIP || NOT_BUILT || false }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launch();
  });
  after(() => browser?.close());

  test('the manifest names the instance; Chromium sees an installable app', async () => {
    const server = await startServer({ SITE_NAME: NAME });
    try {
      const res = await fetch(`${server.baseUrl}/app.webmanifest`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/manifest\+json/);
      const manifest = (await res.json()) as Record<string, unknown>;
      assert.equal(manifest.name, NAME);
      assert.equal(manifest.short_name, 'Acme Files …');
      assert.equal(manifest.start_url, '/');
      assert.equal(manifest.display, 'standalone');
      const icon = await fetch(`${server.baseUrl}/icon.svg`);
      assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
      assert.match(await icon.text(), /^<svg /);

      // A profile of its own: Chromium installs nothing from an incognito context (every newContext).
      const profile = await mkdtemp(join(tmpdir(), 'webfolder-install-'));
      const ctx = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        args: [...CHROMIUM_ARGS],
      });
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      const problems = watch(page);
      await page.goto(`${server.baseUrl}/`);
      await page.locator('#new-title').waitFor();
      const cdp = await ctx.newCDPSession(page);
      const got = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      assert.equal(got.url, `${server.baseUrl}/app.webmanifest`);
      assert.deepEqual(got.errors, []);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const installable = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      assert.deepEqual(installable.installabilityErrors, []);
      assert.deepEqual(problems, []);
      await ctx.close();
      await rm(profile, { recursive: true, force: true });
    } finally {
      await server.close();
    }
  });

  test('offline: the kept shell opens and says so; no folder is kept', async () => {
    const server = await startServer();
    const ctx = await newContext(browser);
    try {
      const folder = await createFolder(server.baseUrl, 'send', 'Kept nowhere');
      const page = await ctx.newPage();
      await page.goto(`${server.baseUrl}/`);
      await page.locator('#new-title').waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // A folder page under the worker: its page, folder info and file list go through it.
      await page.goto(folder.folderUrl);
      await page.locator('#role').waitFor({ state: 'attached' });
      assert.equal(await page.locator('#offline').count(), 0, 'no notice while online');
      const kept = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys())
          for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
        return urls;
      });
      const base = `${server.baseUrl}/`;
      assert.ok(kept.includes(base), `the shell is kept: ${kept.join(', ')}`);
      for (const url of kept) {
        assert.ok(url === base || url.startsWith(`${base}assets/`), `only the shell and its assets: ${url}`);
        assert.ok(!url.includes(folder.folderId) && !url.includes('#'), url);
      }

      // The server is gone and the device offline: the folder's address opens the kept shell.
      await server.close();
      await ctx.setOffline(true);
      await page.goto(folder.folderUrl);
      await page.locator('#offline').waitFor();
      await page.goto(`${server.baseUrl}/`);
      await page.locator('#new-title').waitFor();
      assert.match(await page.locator('#offline').innerText(), /^You are offline/);
      await screenshot(page, 'app-offline');
      await ctx.setOffline(false);
      await page.locator('#offline').waitFor({ state: 'detached' });
    } finally {
      await ctx.close();
      await server.close().catch(() => undefined);
    }
  });
});
