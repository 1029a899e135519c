import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createEmpty } from '../support/api.js';
import { fillProviderLogin, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';
import { launch, SKIP, watch } from './browser.js';

/**
 * The console on a site that lives under a path (`WEB_URL=http://host/wf`, BASE_URL at the host's
 * root): the session cookie is scoped to `/wf`, so the console must call the admin API under the
 * site's path, where the browser sends it. `root`, an admin by the provider's group claim, signs in
 * from the console, lists the folders and takes one down with no token; the cookie stays on `/wf`,
 * and the token still works at BASE_URL's `/api/admin` for scripts.
 */
describe('admin console signed in on a site under a path', { skip: SKIP }, () => {
  const ADMIN_TOKEN = 'a-break-glass-token-of-enough-length-0123456789';
  let oidc: OidcFixture;
  let server: RunningServer;
  let browser: Browser;
  let site = '';
  let folderId = '';
  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    site = `${base}/wf`;
    oidc = await startOidcProvider({ redirectUris: [`${site}/auth/callback`] });
    server = await startServer(
      { ...oidc.serverEnv(), BASE_URL: base, WEB_URL: site, ADMIN_TOKEN, RATE_LIMIT_SITE: '100000' },
      { port },
    );
    browser = await launch();
    folderId = (await createEmpty(server.baseUrl, { title: 'Under a path', mode: 'share' })).folderId;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await oidc?.stop();
  });

  test('the admin signs in, lists the folders and takes one down, all by the session', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${site}/admin`);
    await page.locator('#admin-sign-in-link').click();
    await fillProviderLogin(page, 'root');
    await page.waitForURL(`${site}/admin`);
    const session = (await context.cookies()).find((c) => c.name === 'wf_session');
    assert.equal(session?.path, '/wf', 'the session stays on the site path');

    await page.locator(`tr[data-folder="${folderId}"]`).waitFor();
    assert.equal(await page.locator('#admin-forget').count(), 0, 'no token to forget');
    await page.locator(`tr[data-folder="${folderId}"] button[data-action="take-down"]`).click();
    await page.locator('#take-down-reason-choice').selectOption('abuse');
    await page.locator('#take-down-confirm').click();
    await page.locator(`tr[data-folder="${folderId}"]`, { hasText: 'Taken down' }).waitFor();
    const info = await fetch(`${site}/api/site/folders/${folderId}/take-down`);
    assert.equal(((await info.json()) as { reason: string }).reason, 'abuse');
    assert.deepEqual(problems, []);

    // The token and scripts keep BASE_URL's /api/admin; the cookie alone is refused there as ever.
    const cookie = `wf_session=${session?.value}`;
    const byToken = await fetch(`${server.baseUrl}/api/admin/stats`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(byToken.status, 200);
    const bySession = await fetch(`${site}/api/admin/stats`, { headers: { cookie } });
    assert.equal(bySession.status, 200);
    for (const tab of ['audit', 'accounts'])
      assert.equal((await fetch(`${site}/api/admin/${tab}`, { headers: { cookie } })).status, 200, tab);
    assert.equal((await fetch(`${site}/api/admin/stats`)).status, 401, 'no credential, no admin');
    const foreign = await fetch(`${site}/api/admin/folders/${folderId}/take-down`, {
      method: 'POST',
      headers: { cookie, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'other' }),
    });
    assert.equal(foreign.status, 403, 'the cross-site guard holds under the path too');
    assert.equal((await fetch(`${site}/wf/api/admin/stats`, { headers: { cookie } })).status, 404);
    await context.close();
  });
});
