import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { hashToken, newId } from '../../src/domain/ids.js';
import { chunkBody, chunkUrl, createDirect, createEmpty, getJson, postJson, putChunk } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';
import { onEveryStore, type StoreSuite } from '../support/stores.js';

/**
 * The admin API (src/http/routes/admin.ts) on a real server, on SQLite and on a real PostgreSQL:
 * refused without the admin token, the list's search, sort and paging, the detail, the figures, the
 * take-down (and that nothing of a taken-down folder is served any more) and the admin delete.
 */
const TOKEN = 'admin-token-for-the-admin-api-test-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

interface ListAnswer {
  folders: { folderId: string; title: string; bytes: number; files: number; state: string; takeDown: unknown }[];
  total: number;
  limit: number;
  offset: number;
}

const suite: StoreSuite = (store, env, skip) => {
  describe(`admin API (${store})`, () => {
    let srv: RunningServer | null = null;
    let base = '';
    const admin = async <T>(path: string, init: RequestInit = {}) => {
      const res = await fetch(`${base}/api/admin${path}`, {
        ...init,
        headers: { ...AUTH, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
    };
    let small = '';
    let big = '';
    let empty = '';
    let bigFile: Awaited<ReturnType<typeof createDirect>>['files'][number] | undefined;
    before(async () => {
      const extra = await env();
      if (!extra) return;
      srv = await startServer({ ADMIN_TOKEN: TOKEN, RATE_LIMIT_SITE: '100000', CHUNK_SIZE_MIB: '5', ...extra });
      base = srv.baseUrl;
      small = (await createDirect(base, [1000], { title: 'Quarterly REPORT 100%' })).folderId;
      const made = await createDirect(base, [300_000, 200_000], { title: 'Holiday photos' });
      big = made.folderId;
      bigFile = made.files[0];
      empty = (await createEmpty(base, { title: 'Waiting for files' })).folderId;
    });
    after(async () => srv?.close());

    test('every admin route refuses a caller without the token: 401 {error, code}, nothing read', async (t) => {
      if (!srv) return void t.skip(skip());
      const routes: [string, string][] = [
        ['GET', '/folders'],
        ['GET', `/folders/${small}`],
        ['POST', `/folders/${small}/take-down`],
        ['DELETE', `/folders/${small}`],
        ['GET', '/stats'],
      ];
      for (const [method, path] of routes) {
        for (const headers of [{}, { authorization: `Bearer ${TOKEN}0` }] as Record<string, string>[]) {
          const res = await fetch(`${base}/api/admin${path}`, {
            method,
            headers: { ...headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
            ...(method === 'POST' ? { body: JSON.stringify({ reason: 'abuse' }) } : {}),
          });
          assert.equal(res.status, 401, `${method} ${path}`);
          const body = (await res.json()) as { error: string; code: string };
          assert.equal(body.code, 'forbidden');
          assert.match(body.error, /ADMIN_TOKEN/);
        }
      }
      assert.equal((await admin<ListAnswer>('/folders')).body.total, 3, 'nothing was taken down or deleted');
    });

    test('an admin account (API key) is an admin; a plain account is 403; its folders name it as creator', async (t) => {
      if (!srv) return void t.skip(skip());
      const { store } = srv.server.services;
      const key = async (email: string, admin: boolean) => {
        const now = Date.now();
        const account = await store.accounts.signIn({
          newId: newId(),
          issuer: 'https://idp.example',
          subject: email,
          email,
          name: null,
          admin,
          now,
        });
        const secret = `wfk_${randomBytes(32).toString('base64url')}`;
        await store.accounts.createApiKey({
          id: newId(),
          accountId: account.id,
          name: 'test',
          hash: hashToken(secret),
          createdAt: now,
        });
        return { account, secret };
      };
      const boss = await key('boss@example.org', true);
      const plain = await key('plain@example.org', false);
      const asBoss = await fetch(`${base}/api/admin/stats`, { headers: { authorization: `Bearer ${boss.secret}` } });
      assert.equal(asBoss.status, 200);
      assert.equal(((await asBoss.json()) as { accounts: number }).accounts, 2);
      const asPlain = await fetch(`${base}/api/admin/stats`, { headers: { authorization: `Bearer ${plain.secret}` } });
      assert.equal(asPlain.status, 403);
      assert.equal(((await asPlain.json()) as { code: string }).code, 'forbidden');
      // A folder the plain account makes names it in the console.
      const made = await postJson<{ folderId: string }>(
        `${base}/v2/folders`,
        { title: 'made by plain' },
        {
          authorization: `Bearer ${plain.secret}`,
        },
      );
      assert.equal(made.status, 200);
      const listed = await admin<{ folders: { creator: unknown }[] }>(`/folders?q=${made.body.folderId}`);
      assert.deepEqual(listed.body.folders[0]!.creator, { accountId: plain.account.id, email: 'plain@example.org' });
      // Through a key, a take-down is recorded under the account.
      const down = await fetch(`${base}/api/admin/folders/${made.body.folderId}/take-down`, {
        method: 'POST',
        headers: { authorization: `Bearer ${boss.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'terms' }),
      });
      assert.equal(down.status, 200);
      const audit = await admin<{
        entries: { folderId: string; actor: { accountId: string }; detail: { via: string } }[];
      }>('/audit?action=folder.take-down');
      const entry = audit.body.entries.find((e) => e.folderId === made.body.folderId)!;
      assert.equal(entry.actor.accountId, boss.account.id);
      assert.equal(entry.detail.via, 'account');
      assert.equal(
        (await fetch(`${base}/api/admin/folders/${made.body.folderId}`, { method: 'DELETE', headers: AUTH })).status,
        204,
      );
    });

    test('the list: every folder with its figures; search by title or id; sort; paging', async (t) => {
      if (!srv) return void t.skip(skip());
      const all = await admin<ListAnswer>('/folders');
      assert.equal(all.status, 200);
      assert.equal(all.headers.get('cache-control'), 'no-store');
      assert.equal(all.body.total, 3);
      assert.deepEqual(
        all.body.folders.map((f) => f.folderId),
        [empty, big, small],
        'newest first by default',
      );
      const holiday = all.body.folders.find((f) => f.folderId === big)!;
      assert.equal(holiday.bytes, 500_000);
      assert.equal(holiday.files, 2);
      assert.equal(holiday.state, 'active');
      assert.equal(all.body.folders.find((f) => f.folderId === empty)!.state, 'empty-ownerless');

      const search = async (q: string) =>
        (await admin<ListAnswer>(`/folders?q=${encodeURIComponent(q)}`)).body.folders.map((f) => f.folderId);
      assert.deepEqual(await search('report'), [small], 'case-insensitive title search');
      assert.deepEqual(await search('100%'), [small], 'LIKE characters are literal');
      assert.deepEqual(await search('_'), [], 'an underscore matches only an underscore');
      assert.deepEqual(await search(big), [big], 'an id finds its folder');
      assert.deepEqual(await search('nothing like it'), []);

      const bySize = await admin<ListAnswer>('/folders?sort=size&order=asc');
      assert.deepEqual(
        bySize.body.folders.map((f) => f.folderId),
        [empty, small, big],
      );
      const page = await admin<ListAnswer>('/folders?sort=size&order=desc&limit=1&offset=1');
      assert.deepEqual(
        page.body.folders.map((f) => f.folderId),
        [small],
      );
      assert.equal(page.body.total, 3);
      for (const sort of ['expiry', 'downloads', 'created'])
        assert.equal((await admin<ListAnswer>(`/folders?sort=${sort}`)).body.folders.length, 3, sort);
    });

    test('bad queries and bodies are 400 {error, code}', async (t) => {
      if (!srv) return void t.skip(skip());
      for (const q of ['sort=name', 'order=up', 'limit=0', 'limit=201', 'offset=-1', 'sort=size&sort=created'])
        assert.equal((await admin(`/folders?${q}`)).status, 400, q);
      assert.equal((await admin('/folders/not-an-id')).status, 400);
      assert.equal((await admin('/folders/AAAAAAAAAAAAAAAA')).status, 404);
      for (const body of [
        {},
        { reason: 'because' },
        { reason: 'abuse', extra: 1 },
        { reason: 'abuse', note: 'x'.repeat(501) },
      ]) {
        const res = await admin<{ code: string }>(`/folders/${small}/take-down`, {
          method: 'POST',
          body: JSON.stringify(body),
        });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'invalid_request');
      }
    });

    test('detail and figures: sizes and counts, never a file name', async (t) => {
      if (!srv) return void t.skip(skip());
      const detail = await admin<{ folder: { title: string }; files: Record<string, unknown>[] }>(`/folders/${big}`);
      assert.equal(detail.status, 200);
      assert.equal(detail.body.folder.title, 'Holiday photos');
      assert.deepEqual(
        detail.body.files.map((f) => f.size),
        [300_000, 200_000],
      );
      assert.ok(detail.body.files.every((f) => !('filename' in f)));
      const stats = await admin<Record<string, unknown>>('/stats');
      assert.equal(stats.status, 200);
      assert.equal(stats.body.folders, 3);
      assert.equal(stats.body.files, 3);
      assert.equal(stats.body.bytes, 501_000);
      assert.equal(stats.body.store, store === 'SQLite' ? 'sqlite' : 'postgresql');
      assert.equal(stats.body.blobs, 'local');
      assert.ok((stats.body.disk as { freeBytes: number }).freeBytes > 0, 'the local disk is known');
    });

    test('a take-down: nothing of the folder is served; visitors read why; the v2 answers keep their statuses', async (t) => {
      if (!srv) return void t.skip(skip());
      const file = bigFile!;
      const one = await putChunk(
        chunkUrl(file.uploadUrls, 1),
        file.uploadUrls.headers,
        chunkBody(300_000, file.chunkSize, 1),
      );
      assert.equal(one.status, 200, 'uploads work before');
      const down = await admin<{ reason: string; note: string | null; at: number }>(`/folders/${big}/take-down`, {
        method: 'POST',
        body: JSON.stringify({ reason: 'copyright', note: '  Notice #42 from the rights holder  ' }),
      });
      assert.equal(down.status, 200, JSON.stringify(down.body));
      assert.equal(down.body.reason, 'copyright');
      assert.equal(down.body.note, 'Notice #42 from the rights holder');

      const refusals = [
        await getJson(`${base}/api/site/folders/${big}`),
        await getJson(`${base}/api/site/folders/${big}/files`),
        await getJson(`${base}/api/site/folders/${big}/files/${file.fileId}/chunks/1`),
        await postJson(`${base}/api/site/folders/${big}/files/${file.fileId}/downloads`),
        await getJson(`${base}/v2/folders/${big}/files/${file.fileId}/upload-status`),
        await putChunk(chunkUrl(file.uploadUrls, 1), file.uploadUrls.headers, chunkBody(300_000, file.chunkSize, 1)),
      ];
      for (const [i, r] of refusals.entries()) {
        assert.equal(r.status, 404, `refusal ${i}`);
        assert.equal((r.body as { code: string }).code, 'taken_down', `refusal ${i}`);
      }
      const page = await fetch(`${base}/f/${big}`);
      assert.equal(page.status, 404, 'the page is served (it says why), as a 404');
      const notice = await getJson<{ reason: string; note: string }>(`${base}/api/site/folders/${big}/take-down`);
      assert.equal(notice.status, 200);
      assert.deepEqual(notice.body, {
        reason: 'copyright',
        note: 'Notice #42 from the rights holder',
        at: down.body.at,
      });
      assert.equal(
        (await getJson(`${base}/api/site/folders/${small}/take-down`)).status,
        404,
        'only taken-down folders',
      );

      type Audit = {
        entries: { action: string; folderId: string; actor: { kind: string }; detail: Record<string, unknown> }[];
      };
      const audit = await admin<Audit>('/audit?action=folder.take-down');
      assert.equal(audit.status, 200);
      const mine = audit.body.entries.filter((e) => e.folderId === big);
      assert.equal(mine.length, 1);
      assert.equal(mine[0]!.actor.kind, 'anonymous', 'the token names no one');
      assert.deepEqual(mine[0]!.detail, {
        reason: 'copyright',
        note: 'Notice #42 from the rights holder',
        via: 'admin-token',
      });

      const listed = await admin<ListAnswer>(`/folders?q=${big}`);
      assert.equal(listed.body.folders[0]!.state, 'taken-down');
      assert.equal((await admin<{ takenDown: number }>('/stats')).body.takenDown, 1);
      // The other folders are untouched.
      assert.equal(
        (
          await getJson(
            `${base}/v2/folders/${small}/files/${(await admin<{ files: { fileId: string }[] }>(`/folders/${small}`)).body.files[0]!.fileId}/upload-status`,
          )
        ).status,
        200,
      );
    });

    test('an admin delete removes the folder, its bytes and its record', async (t) => {
      if (!srv) return void t.skip(skip());
      const res = await fetch(`${base}/api/admin/folders/${big}`, { method: 'DELETE', headers: AUTH });
      assert.equal(res.status, 204);
      assert.equal((await admin(`/folders/${big}`)).status, 404);
      assert.equal((await fetch(`${base}/api/admin/folders/${big}`, { method: 'DELETE', headers: AUTH })).status, 404);
      assert.equal(await srv.server.services.store.getFolder(big), null);
      assert.equal((await srv.server.services.blobs.listChunks({ folderId: big, fileId: bigFile!.fileId })).size, 0);
      const audit = await admin<{ entries: { folderId: string; detail: Record<string, unknown> }[] }>(
        '/audit?action=folder.delete',
      );
      assert.deepEqual(
        audit.body.entries.filter((e) => e.folderId === big).map((e) => [e.folderId, e.detail]),
        [[big, { by: 'admin', via: 'admin-token' }]],
      );
      const stats = await admin<{ folders: number; takenDown: number }>('/stats');
      assert.equal(stats.body.folders, 2);
      assert.equal(stats.body.takenDown, 0);
    });
  });
};

onEveryStore(suite);
