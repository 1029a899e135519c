import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_KEYS_PER_ACCOUNT } from '../../src/domain/limits.js';
import { type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';
import { onEveryStore, type StoreSuite } from '../support/stores.js';

/**
 * The per-account cap on live API keys holds under concurrency: many creates from one session at
 * once, spread over two nodes sharing the store, leave exactly the cap, and every other create is a
 * 409 naming it. Signed in through a real OpenID provider, on SQLite and on PostgreSQL.
 */
const RACING = 80;

const suite: StoreSuite = (store, env, skip) => {
  describe(`API key cap under racing creates (${store})`, () => {
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
      const common = { ...provider.serverEnv(), ...extra };
      node = await startServer(common, { port });
      peer = await startServer({ ...common, DATA_DIR: node.dataDir }, { port: peerPort });
    });
    after(async () => {
      await peer?.close();
      await node?.close();
      await provider?.stop();
    });

    test(`${RACING} concurrent creates from one session leave exactly ${MAX_KEYS_PER_ACCOUNT} live keys`, async (t) => {
      if (!node || !peer) return void t.skip(skip());
      const cookie = await provider.sessionCookie(node.baseUrl, 'alice');
      const servers = [node, peer];
      const answers = await Promise.all(
        Array.from({ length: RACING }, async (_, i) => {
          const server = servers[i % 2]!;
          const res = await fetch(`${server.baseUrl}/api/account/keys`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie, origin: server.baseUrl },
            body: JSON.stringify({ name: `key ${i}` }),
          });
          return { status: res.status, body: (await res.json()) as { code?: string; error?: string } };
        }),
      );
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 201).length, MAX_KEYS_PER_ACCOUNT, statuses.join(' '));
      const refused = answers.filter((a) => a.status !== 201);
      assert.equal(refused.length, RACING - MAX_KEYS_PER_ACCOUNT);
      for (const { status, body } of refused) {
        assert.equal(status, 409, JSON.stringify(body));
        assert.equal(body.code, 'conflict');
        assert.match(body.error ?? '', new RegExp(`at most ${MAX_KEYS_PER_ACCOUNT} keys`));
      }
      const listed = (await (await fetch(`${peer.baseUrl}/api/account/keys`, { headers: { cookie } })).json()) as {
        keys?: unknown[];
      };
      const keys = Array.isArray(listed) ? listed : (listed.keys ?? []);
      assert.equal(keys.length, MAX_KEYS_PER_ACCOUNT);

      // Revoking one makes room for exactly one more.
      const first = keys[0] as { id: string };
      const revoked = await fetch(`${node.baseUrl}/api/account/keys/${first.id}`, {
        method: 'DELETE',
        headers: { cookie, origin: node.baseUrl },
      });
      assert.equal(revoked.status, 204);
      const again = await Promise.all(
        [node, peer, node].map((server) =>
          fetch(`${server.baseUrl}/api/account/keys`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie, origin: server.baseUrl },
            body: JSON.stringify({ name: 'replacement' }),
          }).then((r) => r.status),
        ),
      );
      assert.deepEqual(
        again.sort((a, b) => a - b),
        [201, 409, 409],
      );
    });
  });
};

onEveryStore(suite);
