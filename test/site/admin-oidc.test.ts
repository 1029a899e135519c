import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createEmpty } from '../support/api.js';
import { type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort } from '../support/server.js';
import { type DriverPage, eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { signInAtProvider } from './scenes.js';

/**
 * The console with sign-in (test/support/oidc.ts: a real oidc-provider on loopback): `root`, an admin
 * by the provider's group claim, signs in from the console's own "Sign in" and uses it without any
 * token (the session cookie; a take-down passes the guard's same-origin rule); `alice`, signed in
 * but no admin, is refused with a 403 the page words plainly.
 */
eachEngine('admin console signed in by OIDC', [chromium], (engine) => {
  let oidc: OidcFixture | undefined;
  let folderId = '';
  const site = useSite(engine, async () => {
    const port = await freePort();
    oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
    return { env: { ...oidc.serverEnv(), RATE_LIMIT_SITE: '100000' }, port };
  });
  after(() => oidc?.stop());

  async function signInFromConsole(page: DriverPage, login: string): Promise<void> {
    if (!folderId) folderId = (await createEmpty(site.url, { title: 'Signed-in test', mode: 'share' })).folderId;
    await page.goto(`${site.url}/admin`);
    await page.click('#admin-sign-in-link');
    await signInAtProvider(page, login);
    await page.waitForUrl(new RegExp(`^${site.url}/admin$`));
  }

  test('the admin by claim signs in and takes a folder down with no token', async () => {
    const page = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    await signInFromConsole(page, 'root');
    const row = `tr[data-folder="${folderId}"]`;
    await page.waitFor(row);
    assert.equal(await page.count('#admin-forget'), 0, 'no token to forget');
    assert.equal(await page.evaluate(`sessionStorage.getItem('webfolder:admin-token')`), null);
    await page.screenshot('admin-folders-oidc-desktop-light-en');
    await page.click(`${row} button[data-action="take-down"]`);
    await page.select('#take-down-reason-choice', 'abuse');
    await page.click('#take-down-confirm');
    await page.waitUntil(`document.querySelector('${row}')?.textContent.includes('Taken down')`);
    const info = await fetch(`${site.url}/api/site/folders/${folderId}/take-down`);
    assert.equal(((await info.json()) as { reason: string }).reason, 'abuse');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a signed-in account that is no admin is refused (403) and told so', async () => {
    const page = await site.browser.page({ phone: true });
    await signInFromConsole(page, 'alice');
    await page.waitUntil(`document.getElementById('admin-token-error')?.textContent.includes('not an admin')`);
    assert.equal(await page.count('#admin-folders'), 0);
    // The API, asked with the page's own session (its cookie is HttpOnly: the page's fetch carries it).
    assert.equal(await page.evaluate(`fetch('/api/admin/stats').then((r) => r.status)`), 403);
    await page.screenshot('admin-not-admin-phone-light-en');
    await page.close();
  });
});
