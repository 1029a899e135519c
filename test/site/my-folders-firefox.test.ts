import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { fillProviderLogin, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer, tempDir } from '../support/server.js';
import { type Firefox, launchFirefox, MISSING, SKIP, shot } from './firefox.js';

/**
 * "My folders" (issue 26) in Firefox ESR (over WebDriver BiDi, test/site/firefox.ts), signed in
 * through a real OpenID provider on loopback: a folder made on the home page is listed at /me, its
 * download limit set and the folder deleted from there, each with effect on the server.
 */
let oidc: OidcFixture;
let server: RunningServer;
let firefox: Firefox;
let root: string;

before(async () => {
  if (MISSING) return;
  const port = await freePort();
  oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
  server = await startServer(oidc.serverEnv(), { port });
  root = await tempDir('webfolder-me-firefox-');
  firefox = await launchFirefox(root);
});
after(async () => {
  await firefox?.close();
  await server?.close();
  await oidc?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('My folders in Firefox', { skip: SKIP }, () => {
  test('a signed-in person lists the folder made on the home page, limits it and deletes it', async () => {
    const base = server.baseUrl;
    const page = await firefox.page();
    await page.goto(`${base}/auth/login?return=${encodeURIComponent('/')}`);
    await fillProviderLogin(page, 'alice');
    await page.waitForSelector('#new-title');
    await page.select('#new-mode', 'send');
    await page.type('#new-title', 'Made in Firefox');
    await Promise.all([page.waitForNavigation().catch(() => undefined), page.click('button[type=submit]')]);
    await page.waitForSelector('#role[data-role="owner"]', { timeout: 60_000 });
    const folderId = /\/f\/([A-Za-z0-9_-]{16})/.exec(page.url())![1]!;

    await page.goto(`${base}/me`);
    await page.waitForSelector(`li[data-folder="${folderId}"]`);
    assert.equal(await page.$eval(`li[data-folder="${folderId}"] h2`, (e) => e.textContent), 'Made in Firefox');
    await page.click(`#me-${folderId}-manage summary`);
    await page.type(`#me-${folderId}-limit`, '3');
    await page.click(`#me-${folderId}-set-limit`);
    await page.waitForSelector(`#me-${folderId}-status .notice.ok`);
    const info = await fetch(`${base}/api/site/folders/${folderId}`);
    assert.equal(((await info.json()) as { maxDownloads: number }).maxDownloads, 3);
    await shot(page, 'me-list');

    page.on('dialog', (dialog) => void dialog.accept());
    await page.click(`#me-${folderId}-delete`);
    await page.waitForSelector('#me-empty');
    assert.equal((await fetch(`${base}/api/site/folders/${folderId}`)).status, 404);
  });
});
