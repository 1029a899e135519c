import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashToken } from '../../src/domain/ids.js';
import { type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';
import { onEveryStore, type StoreSuite } from '../support/stores.js';

/**
 * Sign-in through a real OpenID provider (test/support/oidc.ts) over plain HTTP, sessions, sign-out
 * and API keys, on SQLite and PostgreSQL, with a second node on the same store: a session and a key
 * made on one node hold on the other, and a sign-out or a revocation on one holds on both.
 */
interface Account {
  account: null | { id: string; email: string | null; name: string | null; admin: boolean; via: string };
  signInAvailable: boolean;
  createPolicy: string;
}

const suite: StoreSuite = (store, env, skip) => {
  describe(`sign-in (${store})`, () => {
    let provider: OidcFixture;
    let node: RunningServer | null = null;
    let peer: RunningServer | null = null;
    before(async () => {
      const extra = await env();
      if (!extra) return;
      const port = await freePort();
      const peerPort = await freePort();
      provider = await startOidcProvider({
        redirectUris: [`http://127.0.0.1:${port}/auth/callback`, `http://127.0.0.1:${peerPort}/auth/callback`],
      });
      const common = { ...provider.serverEnv(), ADMIN_EMAILS: 'Bob@Example.com,boss@example.com', ...extra };
      node = await startServer(common, { port });
      // The second node shares the store (PostgreSQL, or the same SQLite file in one DATA_DIR).
      peer = await startServer({ ...common, DATA_DIR: node.dataDir }, { port: peerPort });
    });
    after(async () => {
      await peer?.close();
      await node?.close();
      await provider?.stop();
    });

    const account = async (server: RunningServer, headers: Record<string, string>) => {
      const response = await fetch(`${server.baseUrl}/api/account`, { headers });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      return (await response.json()) as Account;
    };
    const sessionOf = (login: { cookies: Map<string, string> }) => login.cookies.get('wf_session') ?? '';

    test('a person signs in: a secure session cookie, the account on both nodes; sign-out ends it on both', async (t) => {
      if (!node || !peer) return void t.skip(skip());
      assert.deepEqual(await account(node, {}), { signInAvailable: true, createPolicy: 'anyone', account: null });
      const login = await provider.loginOverHttp(node.baseUrl, 'alice');
      assert.equal(login.status, 303);
      assert.equal(login.location, `${node.baseUrl}/`);
      const session = sessionOf(login);
      assert.match(session, /^[A-Za-z0-9_-]{43}$/);
      const line = login.setCookies.find((l) => l.startsWith('wf_session='))!;
      assert.match(line, /HttpOnly/i);
      assert.match(line, /SameSite=Lax/i);
      assert.match(line, /Path=\//);
      assert.match(line, /Max-Age=604800/);
      assert.doesNotMatch(line, /Secure/i, 'plain http: no Secure');
      assert.equal(login.cookies.get('wf_login'), '', 'the pending sign-in cookie is cleared');
      // The store keeps only the hash of the session id.
      assert.equal(await node.server.services.store.accounts.sessionAccount(session, Date.now()), null);
      assert.notEqual(await node.server.services.store.accounts.sessionAccount(hashToken(session), Date.now()), null);

      const cookie = { cookie: `wf_session=${session}` };
      const here = await account(node, cookie);
      assert.equal(here.account?.email, 'alice@example.com');
      assert.equal(here.account?.name, 'Alice Example');
      assert.equal(here.account?.admin, false);
      assert.equal(here.account?.via, 'session');
      assert.deepEqual(await account(peer, cookie), here, 'the other node knows the session');

      const out = await fetch(`${peer.baseUrl}/auth/logout`, {
        method: 'POST',
        headers: { ...cookie, origin: peer.baseUrl },
      });
      assert.equal(out.status, 204);
      assert.match(out.headers.getSetCookie().join('\n'), /wf_session=;/);
      assert.equal((await account(node, cookie)).account, null, 'signed out on the first node too');
      const entries = await node.server.services.store.audit.list({}, { limit: 50 });
      const actions = entries.map((e) => e.action);
      assert.ok(actions.includes('account.sign-in') && actions.includes('account.sign-out'), String(actions));
    });

    test('admins: by the provider claim, and by ADMIN_EMAILS (case-insensitive)', async (t) => {
      if (!node) return void t.skip(skip());
      const root = await provider.loginOverHttp(node.baseUrl, 'root');
      assert.equal((await account(node, { cookie: `wf_session=${sessionOf(root)}` })).account?.admin, true);
      const bob = await provider.loginOverHttp(node.baseUrl, 'bob');
      assert.equal((await account(node, { cookie: `wf_session=${sessionOf(bob)}` })).account?.admin, true);
    });

    test('an e-mail the provider does not say is verified names no admin, and is not kept', async (t) => {
      if (!node) return void t.skip(skip());
      // The provider sends boss@example.com (listed in ADMIN_EMAILS) with no email_verified claim at all.
      const mallory = await provider.loginOverHttp(node.baseUrl, 'mallory');
      assert.equal(mallory.status, 303);
      const seen = (await account(node, { cookie: `wf_session=${sessionOf(mallory)}` })).account;
      assert.equal(seen?.name, 'Mallory Typed', 'signed in');
      assert.equal(seen?.admin, false);
      assert.equal(seen?.email, null);
      const admin = await fetch(`${node.baseUrl}/api/admin/stats`, {
        headers: { cookie: `wf_session=${sessionOf(mallory)}` },
      });
      assert.equal(admin.status, 403);
    });

    test('a person the claim rule refuses gets no session and is told so', async (t) => {
      if (!node) return void t.skip(skip());
      const eve = await provider.loginOverHttp(node.baseUrl, 'eve');
      assert.equal(eve.status, 303);
      assert.equal(eve.location, `${node.baseUrl}/?signin=refused`);
      assert.equal(eve.cookies.get('wf_session'), undefined);
    });

    test('the return path is kept when it is on this site, and dropped when it is not', async (t) => {
      if (!node) return void t.skip(skip());
      const me = await provider.loginOverHttp(`${node.baseUrl}`, 'alice', '/me');
      assert.equal(me.location, `${node.baseUrl}/me`);
      for (const away of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
        const login = await provider.loginOverHttp(`${node.baseUrl}`, 'alice', away);
        assert.equal(login.location, `${node.baseUrl}/`, away);
      }
    });

    test('a planted pending sign-in cannot send the browser away or into a header: the callback checks it again', async (t) => {
      if (!node) return void t.skip(skip());
      const plant = (returnTo: string) => (value: string) => {
        const pending = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, string>;
        return Buffer.from(JSON.stringify({ ...pending, returnTo })).toString('base64url');
      };
      const audit = node.server.services.store.audit;
      for (const away of [
        '//evil.example/',
        'https://evil.example/',
        '/\\evil.example',
        '/x\r\nSet-Cookie: a=b',
        '/ok\n',
      ]) {
        const before = (await audit.list({}, { limit: 500 })).length;
        const login = await provider.loginOverHttp(node.baseUrl, 'alice', '/me', { plantPending: plant(away) });
        assert.equal(login.status, 303, away);
        assert.equal(login.location, `${node.baseUrl}/`, `${JSON.stringify(away)}: home, not away`);
        assert.ok(!login.setCookies.some((l) => l.startsWith('a=')), away);
        assert.match(sessionOf(login), /^[A-Za-z0-9_-]{43}$/, 'signed in all the same');
        assert.equal((await audit.list({}, { limit: 500 })).length, before + 1, 'one sign-in entry, no failure');
      }
    });

    test('a callback without its pending sign-in, or with a forged state, makes no session', async (t) => {
      if (!node) return void t.skip(skip());
      const bare = await fetch(`${node.baseUrl}/auth/callback?code=x&state=y`, { redirect: 'manual' });
      assert.equal(bare.status, 303);
      assert.equal(bare.headers.get('location'), '/?signin=expired');
      const pending = Buffer.from(
        JSON.stringify({ verifier: 'v'.repeat(43), state: 'expected', nonce: 'n', returnTo: '/' }),
      ).toString('base64url');
      const forged = await fetch(`${node.baseUrl}/auth/callback?code=x&state=other`, {
        redirect: 'manual',
        headers: { cookie: `wf_login=${pending}` },
      });
      assert.equal(forged.headers.get('location'), '/?signin=failed');
      assert.doesNotMatch(forged.headers.getSetCookie().join('\n'), /wf_session=[^;]/);
      const cancelled = await fetch(`${node.baseUrl}/auth/callback?error=access_denied&state=expected`, {
        redirect: 'manual',
        headers: { cookie: `wf_login=${pending}` },
      });
      assert.equal(cancelled.headers.get('location'), '/?signin=cancelled');
    });

    test('API keys: made once from a session, listed without the key, used on both nodes, revoked everywhere', async (t) => {
      if (!node || !peer) return void t.skip(skip());
      const login = await provider.loginOverHttp(node.baseUrl, 'alice');
      const cookie = `wf_session=${sessionOf(login)}`;
      const json = { 'content-type': 'application/json', cookie, origin: node.baseUrl };
      const made = await fetch(`${node.baseUrl}/api/account/keys`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'build server' }),
      });
      assert.equal(made.status, 201);
      const { apiKey, key } = (await made.json()) as { apiKey: string; key: { id: string; name: string } };
      assert.match(apiKey, /^wfk_[A-Za-z0-9_-]{43}$/);
      assert.equal(key.name, 'build server');
      const listed = await (await fetch(`${peer.baseUrl}/api/account/keys`, { headers: { cookie } })).text();
      assert.ok(listed.includes('build server') && !listed.includes(apiKey.slice(4)), listed);

      const bearer = { authorization: `Bearer ${apiKey}` };
      const viaKey = await account(peer, bearer);
      assert.equal(viaKey.account?.via, 'api-key');
      assert.equal(viaKey.account?.email, 'alice@example.com');
      // A key cannot manage keys: it is not read there, so it is no one.
      const mint = await fetch(`${node.baseUrl}/api/account/keys`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'successor' }),
      });
      assert.equal(mint.status, 401);
      assert.equal(((await mint.json()) as { code: string }).code, 'sign_in_required');
      // A folder made with the key is the account's.
      const created = await fetch(`${node.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: '{}',
      });
      const { folderId } = (await created.json()) as { folderId: string };
      assert.equal((await node.server.services.store.getFolder(folderId))?.accountId, viaKey.account?.id);
      const used = (await node.server.services.store.accounts.listApiKeys(viaKey.account!.id))[0];
      assert.ok(used?.lastUsedAt, 'last use recorded');

      // Another site's page cannot revoke it with the cookie.
      const foreign = await fetch(`${node.baseUrl}/api/account/keys/${key.id}`, {
        method: 'DELETE',
        headers: { cookie, origin: 'https://evil.example' },
      });
      assert.equal(foreign.status, 403);
      const revoked = await fetch(`${peer.baseUrl}/api/account/keys/${key.id}`, {
        method: 'DELETE',
        headers: { cookie, origin: peer.baseUrl },
      });
      assert.equal(revoked.status, 204);
      const refused = await fetch(`${node.baseUrl}/api/account`, { headers: bearer });
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { code: string }).code, 'api_key_invalid');
      const again = await fetch(`${node.baseUrl}/api/account/keys/${key.id}`, {
        method: 'DELETE',
        headers: { cookie, origin: node.baseUrl },
      });
      assert.equal(again.status, 404);
    });

    test('key management needs a session: anonymous is 401 sign_in_required; a blank name is 400', async (t) => {
      if (!node) return void t.skip(skip());
      const anonymous = await fetch(`${node.baseUrl}/api/account/keys`);
      assert.equal(anonymous.status, 401);
      assert.equal(((await anonymous.json()) as { code: string }).code, 'sign_in_required');
      const login = await provider.loginOverHttp(node.baseUrl, 'alice');
      const blank = await fetch(`${node.baseUrl}/api/account/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `wf_session=${sessionOf(login)}`, origin: node.baseUrl },
        body: JSON.stringify({ name: '   ' }),
      });
      assert.equal(blank.status, 400);
      assert.equal(((await blank.json()) as { code: string }).code, 'invalid_request');
    });
  });
};

onEveryStore(suite);
