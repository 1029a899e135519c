import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newApiKey, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';

/**
 * Sign-in on an instance whose site lives under a path (`WEB_URL=http://host/wf`), through the real
 * OpenID provider: the sign-in, account and key routes are at `/wf/auth/…` and `/wf/api/account…`,
 * once, not under the path twice.
 */
let provider: OidcFixture;
let node: RunningServer;
let site: string;

before(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  site = `${base}/wf`;
  provider = await startOidcProvider({ redirectUris: [`${site}/auth/callback`] });
  node = await startServer({ ...provider.serverEnv(), BASE_URL: base, WEB_URL: site }, { port });
});
after(async () => {
  await node?.close();
  await provider?.stop();
});

test('a person signs in, sees the account, makes and lists a key and signs out, all under the site path', async () => {
  const login = await provider.loginOverHttp(site, 'alice', '/me');
  assert.equal(login.status, 303, login.body);
  assert.equal(login.location, `${site}/me`);
  const line = login.setCookies.find((l) => l.startsWith('wf_session='));
  assert.match(line ?? '', /Path=\/wf/);
  const cookie = `wf_session=${login.cookies.get('wf_session')}`;

  const account = await fetch(`${site}/api/account`, { headers: { cookie } });
  assert.equal(account.status, 200);
  assert.equal(((await account.json()) as { account: { email: string } }).account.email, 'alice@example.com');
  await newApiKey(site, cookie, 'under a path', node.baseUrl);
  const listed = await fetch(`${site}/api/account/keys`, { headers: { cookie } });
  assert.match(await listed.text(), /under a path/);
  const mine = await fetch(`${site}/api/account/folders`, { headers: { cookie } });
  assert.equal(mine.status, 200);

  for (const twice of [
    '/wf/wf/auth/login',
    '/wf/wf/api/account',
    '/wf/wf/api/account/keys',
    '/wf/wf/api/account/folders',
  ])
    assert.equal((await fetch(`${node.baseUrl}${twice}`, { redirect: 'manual' })).status, 404, twice);

  const out = await fetch(`${site}/auth/logout`, { method: 'POST', headers: { cookie, origin: node.baseUrl } });
  assert.equal(out.status, 204);
  const after = await fetch(`${site}/api/account`, { headers: { cookie } });
  assert.equal(((await after.json()) as { account: unknown }).account, null);
});
