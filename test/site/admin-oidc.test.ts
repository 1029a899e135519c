import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createEmpty } from '../support/api.js';
import { fillProviderLogin, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';
import { launch, SKIP, screenshot, watch } from './browser.js';

/**
 * The console with sign-in (test/support/oidc.ts: a real oidc-provider on loopback): `root`, an admin
 * by the provider's group claim, signs in from the console's own "Sign in" and uses it without any
 * token (the session cookie; a take-down passes the guard's same-origin rule); `alice`, signed in
 * but no admin, is refused with a 403 the page words plainly.
 */
describe('admin console signed in by OIDC', { skip: SKIP }, () => {
  let oidc: OidcFixture;
  let server: RunningServer;
  let browser: Browser;
  let folderId = '';
  before(async () => {
    const port = await freePort();
    oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
    server = await startServer({ ...oidc.serverEnv(), RATE_LIMIT_SITE: '100000' }, { port });
    browser = await launch();
    folderId = (await createEmpty(server.baseUrl, { title: 'Signed-in test', mode: 'share' })).folderId;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await oidc?.stop();
  });

  async function signInFromConsole(page: Page, login: string): Promise<void> {
    await page.goto(`${server.baseUrl}/admin`);
    await page.locator('#admin-sign-in-link').click();
    await fillProviderLogin(page, login);
    await page.waitForURL(`${server.baseUrl}/admin`);
  }

  test('the admin by claim signs in and takes a folder down with no token', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watch(page);
    await signInFromConsole(page, 'root');
    await page.locator(`tr[data-folder="${folderId}"]`).waitFor();
    assert.equal(await page.locator('#admin-forget').count(), 0, 'no token to forget');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('webfolder:admin-token')), null);
    await screenshot(page, 'admin-folders-oidc-desktop-light-en');
    await page.locator(`tr[data-folder="${folderId}"] button[data-action="take-down"]`).click();
    await page.locator('#take-down-reason-choice').selectOption('abuse');
    await page.locator('#take-down-confirm').click();
    await page.locator(`tr[data-folder="${folderId}"]`, { hasText: 'Taken down' }).waitFor();
    const info = await fetch(`${server.baseUrl}/api/site/folders/${folderId}/take-down`);
    assert.equal(((await info.json()) as { reason: string }).reason, 'abuse');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a signed-in account that is no admin is refused (403) and told so', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await signInFromConsole(page, 'alice');
    await page.locator('#admin-token-error', { hasText: 'not an admin' }).waitFor();
    assert.equal(await page.locator('#admin-folders').count(), 0);
    const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await fetch(`${server.baseUrl}/api/admin/stats`, { headers: { cookie: cookies } });
    assert.equal(res.status, 403);
    await screenshot(page, 'admin-not-admin-phone-light-en');
    await context.close();
  });
});
