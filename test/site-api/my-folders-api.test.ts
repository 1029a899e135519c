import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { hashToken, newId } from '../../src/domain/ids.js';
import { type RunningServer, startServer } from '../support/server.js';
import { onEveryStore } from '../support/stores.js';
import { token } from './owner-support.js';

/**
 * "My folders" over HTTP on a real server: `GET /api/account/folders` and the site's owner
 * routes authorised by the account, on SQLite and PostgreSQL. Sessions and API keys are made with the
 * account store's own methods as set-up (the sign-in flow itself is tested with a real OIDC provider
 * in test/site/my-folders.test.ts and sign-in's suites); every request under test is a real one.
 */
const ADMIN_TOKEN = randomBytes(33).toString('base64url');

interface Who {
  session?: string;
  apiKey?: string;
  owner?: string;
  origin?: string;
  admin?: boolean;
}

onEveryStore((storeName, env, skip) => {
  describe(`My folders API on ${storeName}`, () => {
    let server: RunningServer;
    let site: string;
    const sessions: Record<string, string> = {};
    const keys: Record<string, string> = {};
    const accounts: Record<string, string> = {};

    before(async () => {
      const extra = await env();
      if (!extra) return;
      server = await startServer({ MAX_EXPIRES_HOURS: '48', ADMIN_TOKEN, ...extra });
      site = server.baseUrl;
      const store = server.server.services.store.accounts;
      const now = Date.now();
      for (const name of ['alice', 'bob']) {
        const account = await store.signIn({
          newId: newId(),
          issuer: 'https://idp.example',
          subject: `${name}-subject`,
          email: `${name}@example.org`,
          name,
          admin: false,
          now,
        });
        accounts[name] = account.id;
        sessions[name] = randomBytes(32).toString('base64url');
        await store.createSession({
          idHash: hashToken(sessions[name]!),
          accountId: account.id,
          createdAt: now,
          expiresAt: now + 3_600_000,
        });
        keys[name] = `wfk_${randomBytes(32).toString('base64url')}`;
        await store.createApiKey({
          id: newId(),
          accountId: account.id,
          name: 'test',
          hash: hashToken(keys[name]!),
          createdAt: now,
        });
      }
    });
    after(() => server?.close());

    async function call(method: string, path: string, who: Who = {}, body?: unknown) {
      const headers: Record<string, string> = {};
      if (who.session) headers.cookie = `wf_session=${who.session}`;
      if (who.apiKey) headers.authorization = `Bearer ${who.apiKey}`;
      if (who.admin) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
      if (who.owner) headers['x-owner-token'] = who.owner;
      if (who.origin) headers.origin = who.origin;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${site}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON field by field
      let json: any = null;
      try {
        json = JSON.parse(text);
      } catch {
        /* empty */
      }
      return { status: res.status, json, text };
    }
    const refused = (
      res: { status: number; json: { code?: string } | null; text: string },
      status: number,
      code: string,
      what: string,
    ) => {
      assert.equal(res.status, status, `${what}: ${res.text}`);
      assert.equal(res.json?.code, code, `${what}: ${res.text}`);
    };

    test('the account lists what it made on the site and with its API key; nobody else does', async (t) => {
      if (skip()) return t.skip(skip());
      const owner = token();
      const made = await call(
        'POST',
        '/api/site/folders',
        { session: sessions.alice, owner, origin: site },
        {
          mode: 'share',
          ske: 'c2tl',
          title: 'Quarterly report',
          maxDownloads: 3,
        },
      );
      assert.equal(made.status, 201, made.text);
      const byKey = await call('POST', '/v2/folders', { apiKey: keys.alice }, { title: 'From a script' });
      assert.equal(byKey.status, 200, byKey.text);
      const anonymous = await call('POST', '/api/site/folders', { owner: token() }, { mode: 'send', ske: 'c2tl' });
      assert.equal(anonymous.status, 201, anonymous.text);

      const mine = await call('GET', '/api/account/folders', { session: sessions.alice });
      assert.equal(mine.status, 200, mine.text);
      const ids = mine.json.folders.map((f: { folderId: string }) => f.folderId);
      assert.deepEqual(ids, [byKey.json.folderId, made.json.folderId], 'newest first, only the account’s');
      const report = mine.json.folders[1];
      assert.equal(report.title, 'Quarterly report');
      assert.equal(report.mode, 'share');
      assert.equal(report.state, 'empty');
      assert.equal(report.maxDownloads, 3);
      assert.equal(report.fileCount, 0);
      assert.equal(report.folderUrl, `${site}/f/${made.json.folderId}`);
      assert.ok(!report.folderUrl.includes('#'));
      assert.equal(mine.json.nextCursor, null);
      // The same list by API key; another account's list is its own (empty).
      const byApiKey = await call('GET', '/api/account/folders?sort=expiry', { apiKey: keys.alice });
      assert.deepEqual(byApiKey.json.folders.map((f: { folderId: string }) => f.folderId).sort(), [...ids].sort());
      assert.deepEqual((await call('GET', '/api/account/folders', { session: sessions.bob })).json.folders, []);
      // Pages of one: the cursor continues the same order.
      const first = await call('GET', '/api/account/folders?limit=1', { session: sessions.alice });
      assert.deepEqual(
        first.json.folders.map((f: { folderId: string }) => f.folderId),
        [ids[0]],
      );
      assert.equal(typeof first.json.nextCursor, 'string');
      const second = await call('GET', `/api/account/folders?limit=1&cursor=${first.json.nextCursor}`, {
        session: sessions.alice,
      });
      assert.deepEqual(
        second.json.folders.map((f: { folderId: string }) => f.folderId),
        [ids[1]],
      );
      assert.equal(second.json.nextCursor, null);
    });

    test('signed out and bad queries are clear 4xx answers', async (t) => {
      if (skip()) return t.skip(skip());
      refused(await call('GET', '/api/account/folders'), 401, 'sign_in_required', 'anonymous');
      refused(
        await call('GET', '/api/account/folders', { session: 'not-a-session' }),
        401,
        'sign_in_required',
        'unknown session',
      );
      for (const query of [
        'sort=oldest',
        'limit=0',
        'limit=101',
        'limit=x',
        'cursor=garbage',
        'sort=newest&sort=expiry',
      ])
        refused(
          await call('GET', `/api/account/folders?${query}`, { session: sessions.alice }),
          400,
          'invalid_request',
          query,
        );
    });

    test('owner controls by account: the account that made it, by session or key; refused to others', async (t) => {
      if (skip()) return t.skip(skip());
      const owner = token();
      const made = await call(
        'POST',
        '/api/site/folders',
        { session: sessions.alice, owner, origin: site },
        { mode: 'send', ske: 'c2tl' },
      );
      const folder = `/api/site/folders/${made.json.folderId}`;
      const strangers: [string, Who][] = [
        ['another account', { session: sessions.bob, origin: site }],
        ["another account's API key", { apiKey: keys.bob }],
        ['anonymous', {}],
        ['the account from another origin', { session: sessions.alice, origin: 'https://evil.example' }],
      ];
      for (const [who, as] of strangers) {
        refused(await call('PATCH', folder, as, { maxDownloads: 1 }), 403, 'forbidden', `${who}: settings`);
        refused(await call('DELETE', `${folder}/notifications`, as), 403, 'forbidden', `${who}: notifications`);
        refused(await call('DELETE', folder, as), 403, 'forbidden', `${who}: delete`);
      }
      const expiresAt = Date.now() + 5 * 3_600_000;
      const changed = await call(
        'PATCH',
        folder,
        { session: sessions.alice, origin: site },
        { expiresAt, maxDownloads: 2 },
      );
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.expiresAt, expiresAt);
      assert.equal(changed.json.maxDownloads, 2);
      assert.equal((await call('GET', `${folder}/notifications`, { apiKey: keys.alice })).status, 200);
      assert.equal((await call('GET', `${folder}/activity`, { session: sessions.alice })).status, 200);
      // The note needs the folder key: the account is refused, the owner token is not.
      refused(
        await call('PATCH', folder, { session: sessions.alice, origin: site }, { note: 'bm90ZQ' }),
        403,
        'forbidden',
        'note by account',
      );
      const noted = await call('PATCH', folder, { owner }, { note: 'bm90ZQ' });
      assert.equal(noted.status, 200, noted.text);
      assert.equal(noted.json.isOwner, true);
      const listed = await call('GET', '/api/account/folders', { session: sessions.alice });
      const row = listed.json.folders.find((f: { folderId: string }) => f.folderId === made.json.folderId);
      assert.equal(row.maxDownloads, 2);
      assert.equal(row.expiresAt, expiresAt);
      // Deleted by the account's API key: gone from the list and from the site.
      assert.equal((await call('DELETE', folder, { apiKey: keys.alice })).status, 204);
      assert.equal((await call('GET', folder)).status, 404);
      const after = await call('GET', '/api/account/folders', { session: sessions.alice });
      assert.ok(!after.json.folders.some((f: { folderId: string }) => f.folderId === made.json.folderId));
    });

    test('a folder the operator took down is listed as taken down, and takes no change', async (t) => {
      if (skip()) return t.skip(skip());
      const made = await call(
        'POST',
        '/api/site/folders',
        { session: sessions.bob, owner: token(), origin: site },
        {
          mode: 'send',
          ske: 'c2tl',
          title: 'Taken down',
        },
      );
      const id = made.json.folderId;
      const down = await call('POST', `/api/admin/folders/${id}/take-down`, { admin: true }, { reason: 'terms' });
      assert.equal(down.status, 200, down.text);
      const listed = await call('GET', '/api/account/folders', { session: sessions.bob });
      const row = listed.json.folders.find((f: { folderId: string }) => f.folderId === id);
      assert.equal(row?.state, 'taken-down', listed.text);
      refused(
        await call('PATCH', `/api/site/folders/${id}`, { apiKey: keys.bob }, { maxDownloads: 1 }),
        404,
        'taken_down',
        'change',
      );
    });
  });
});
