import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { hashAddress } from '../../src/app/audit.js';
import { SigningKeys } from '../../src/app/signing-keys.js';
import { call, token } from '../site-api/owner-support.js';
import { createDirect, createEmpty, postJson } from '../support/api.js';
import { newApiKey, startOidcProvider } from '../support/oidc.js';
import { until } from '../support/poll.js';
import { freePort, type RunningServer, spawnServer, startServer, tempDir } from '../support/server.js';
import { onEveryStore } from '../support/stores.js';

/**
 * The audit log: one entry for each action that took effect, through the real routes, on
 * SQLite and PostgreSQL; the admin listing's filters and cursor paging; the JSON-lines export; the
 * client address kept only as a keyed hash, and only when the operator enabled it.
 */
const ADMIN_TOKEN = 'audit-test-admin-token-0123456789abcdef';
const SECRET = 'audit-test-signing-secret-0123456789abcdef';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface Entry {
  id: string;
  at: string;
  action: string;
  actor: { kind: string; accountId: string | null };
  folderId: string | null;
  clientHash: string | null;
  detail: Record<string, unknown>;
}

async function audit(srv: RunningServer, query = '') {
  const res = await fetch(`${srv.baseUrl}/api/admin/audit${query}`, { headers: admin });
  const body = (await res.json()) as { entries: Entry[]; nextCursor: string | null; code?: string };
  return { status: res.status, body };
}

/** Does each recorded action once, answering the ids it made. */
async function actions(srv: RunningServer) {
  const empty = await createEmpty(srv.baseUrl, { title: 'audit empty' });
  const direct = await createDirect(srv.baseUrl, [10], { title: 'audit direct' });
  const api = `${srv.baseUrl}/api/site`;
  const owner = token();
  const site = await call(api, 'POST', '/folders', { owner, body: { mode: 'share', ske: 'ske-value' } });
  assert.equal(site.status, 201, site.text);
  const folderId = site.json.folderId as string;
  const settings = await call(api, 'PATCH', `/folders/${folderId}`, { owner, body: { maxDownloads: 3 } });
  assert.equal(settings.status, 200, settings.text);
  const files = await call(api, 'POST', `/folders/${folderId}/files`, {
    owner,
    body: { files: [{ filename: 'a', filesize: 5 }] },
  });
  assert.equal(files.status, 200, files.text);
  const fileId = files.json.files[0].fileId as string;
  assert.equal((await call(api, 'DELETE', `/folders/${folderId}/files/${fileId}`, { owner })).status, 204);
  assert.equal((await call(api, 'DELETE', `/folders/${folderId}`, { owner })).status, 204);
  // The console's actions (recorded by the admin API), by the break-glass token.
  const takeDown = await fetch(`${srv.baseUrl}/api/admin/folders/${empty.folderId}/take-down`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'abuse' }),
  });
  assert.equal(takeDown.status, 200, await takeDown.text());
  const removed = await fetch(`${srv.baseUrl}/api/admin/folders/${direct.folderId}`, {
    method: 'DELETE',
    headers: admin,
  });
  assert.equal(removed.status, 204, await removed.text());
  return { empty: empty.folderId, direct: direct.folderId, site: folderId, fileId };
}

onEveryStore((store, env, skip) => {
  describe(`audit log on ${store}`, () => {
    test('each action is recorded once; filters, paging and export read it back', async (t) => {
      const extra = await env();
      if (!extra) return t.skip(skip());
      const srv = await startServer({
        ...extra,
        ADMIN_TOKEN,
        SIGNING_SECRET: SECRET,
        AUDIT_CLIENT_ADDRESS: 'hashed',
      });
      try {
        const before = new Date(Date.now() - 1000).toISOString();
        const ids = await actions(srv);
        const all = await audit(srv);
        assert.equal(all.status, 200);
        const seen = all.body.entries.map((e) => `${e.action} ${e.folderId}`).reverse();
        assert.deepEqual(seen, [
          `folder.create ${ids.empty}`,
          `folder.create ${ids.direct}`,
          `folder.create ${ids.site}`,
          `folder.settings ${ids.site}`,
          `file.delete ${ids.site}`,
          `folder.delete ${ids.site}`,
          `folder.take-down ${ids.empty}`,
          `folder.delete ${ids.direct}`,
        ]);
        const byAction = new Map(all.body.entries.map((e) => [e.action, e]));
        assert.deepEqual(byAction.get('file.delete')!.detail, { fileId: ids.fileId });
        assert.deepEqual(byAction.get('folder.settings')!.detail, { maxDownloads: 3 });
        const deletes = all.body.entries.filter((e) => e.action === 'folder.delete').map((e) => e.detail.by);
        assert.deepEqual(deletes, ['admin', 'owner']);
        assert.equal(byAction.get('folder.take-down')!.detail.reason, 'abuse');
        for (const e of all.body.entries) {
          assert.equal(e.actor.kind, 'anonymous');
          // Hashed with the instance secret, never the address itself.
          assert.equal(e.clientHash, hashAddress(new SigningKeys(SECRET).of('auditAddresses'), '127.0.0.1'));
        }
        assert.equal(all.body.nextCursor, null);

        // Filters: action, folder, time.
        const creates = await audit(srv, '?action=folder.create');
        assert.equal(creates.body.entries.length, 3);
        assert.equal((await audit(srv, '?action=folder.take-down')).body.entries.length, 1);
        const site = await audit(srv, `?folder=${ids.site}`);
        assert.deepEqual(
          site.body.entries.map((e) => e.action),
          ['folder.delete', 'file.delete', 'folder.settings', 'folder.create'],
        );
        assert.equal((await audit(srv, `?since=${encodeURIComponent(before)}`)).body.entries.length, 8);
        assert.equal((await audit(srv, `?until=${encodeURIComponent(before)}`)).body.entries.length, 0);
        assert.equal((await audit(srv, '?account=nobody')).body.entries.length, 0);

        // Paging: two at a time reaches every entry once, newest first.
        const paged: string[] = [];
        let cursor: string | null = '';
        while (cursor !== null) {
          const page = await audit(srv, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
          assert.ok(page.body.entries.length <= 2);
          paged.push(...page.body.entries.map((e) => e.id));
          cursor = page.body.nextCursor;
        }
        assert.deepEqual(
          paged,
          all.body.entries.map((e) => e.id),
        );

        // The export: one JSON line per entry, the listing's shape, filters applied.
        const exported = await fetch(`${srv.baseUrl}/api/admin/audit.jsonl`, { headers: admin });
        assert.equal(exported.status, 200);
        assert.match(exported.headers.get('content-type') ?? '', /^application\/x-ndjson/);
        const lines = (await exported.text()).trim().split('\n');
        assert.deepEqual(
          lines.map((l) => JSON.parse(l) as Entry),
          all.body.entries,
        );
        const filtered = await fetch(`${srv.baseUrl}/api/admin/audit.jsonl?action=file.delete`, { headers: admin });
        assert.equal((await filtered.text()).trim().split('\n').length, 1);
      } finally {
        await srv.close();
      }
    });
  });
});

test('without AUDIT_CLIENT_ADDRESS=hashed no address is kept; bad queries are 400 and no admin credential is 401', async () => {
  const srv = await startServer({ ADMIN_TOKEN, SIGNING_SECRET: SECRET });
  try {
    await createEmpty(srv.baseUrl);
    const all = await audit(srv);
    assert.equal(all.body.entries.length, 1);
    assert.equal(all.body.entries[0]!.clientHash, null);
    for (const query of [
      '?limit=0',
      '?limit=501',
      '?action=folder.eat',
      '?since=yesterday',
      '?cursor=x',
      '?folder=short',
    ]) {
      const res = await audit(srv, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'invalid_request', query);
    }
    const since = await audit(srv, '?since=2026-11-27&until=2026-11-26');
    assert.equal(since.status, 400);
    for (const path of ['/api/admin/audit', '/api/admin/audit.jsonl']) {
      const anonymous = await fetch(`${srv.baseUrl}${path}`);
      assert.equal(anonymous.status, 401, path);
      const wrong = await fetch(`${srv.baseUrl}${path}`, { headers: { authorization: 'Bearer wrong-token' } });
      assert.equal(wrong.status, 401, path);
    }
    // A refused action records nothing.
    const refused = await postJson(`${srv.baseUrl}/v2/folders`, { files: [{ filename: 'x', filesize: 1 }] });
    assert.equal(refused.status, 400);
    assert.equal((await audit(srv)).body.entries.length, 1);
  } finally {
    await srv.close();
  }
});

test('sign-in, API keys and sign-out are listed under the account, with the filters', async () => {
  const port = await freePort();
  const provider = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
  const srv = await startServer({ ...provider.serverEnv(), ADMIN_TOKEN, SIGNING_SECRET: SECRET }, { port });
  try {
    const cookie = await provider.sessionCookie(srv.baseUrl, 'alice');
    const { apiKey, key } = await newApiKey(srv.baseUrl, cookie, 'build server');
    const folder = await postJson<{ folderId: string }>(
      `${srv.baseUrl}/v2/folders`,
      {},
      {
        authorization: `Bearer ${apiKey}`,
      },
    );
    assert.equal(folder.status, 200);
    const revoked = await fetch(`${srv.baseUrl}/api/account/keys/${key.id}`, {
      method: 'DELETE',
      headers: { cookie, origin: srv.baseUrl },
    });
    assert.equal(revoked.status, 204);
    const out = await fetch(`${srv.baseUrl}/auth/logout`, { method: 'POST', headers: { cookie, origin: srv.baseUrl } });
    assert.equal(out.status, 204);

    const all = await audit(srv);
    const accountId = all.body.entries.find((e) => e.action === 'account.sign-in')?.actor.accountId;
    assert.ok(accountId, JSON.stringify(all.body.entries));
    const mine = await audit(srv, `?account=${accountId}`);
    assert.deepEqual(mine.body.entries.map((e) => `${e.action} ${(e.actor as { via?: string }).via}`).reverse(), [
      'account.sign-in session',
      'api-key.create session',
      'folder.create api-key',
      'api-key.revoke session',
      'account.sign-out session',
    ]);
    assert.equal(mine.body.entries.find((e) => e.action === 'folder.create')?.folderId, folder.body.folderId);
    assert.equal((await audit(srv, `?account=${accountId}&action=api-key.create`)).body.entries.length, 1);
  } finally {
    await srv.close();
    await provider.stop();
  }
});

test('AUDIT_STREAM=log writes each entry as one JSON log line of the listing shape', async () => {
  const dataDir = await tempDir('webfolder-audit-stream-');
  const node = await spawnServer({ DATA_DIR: dataDir, AUDIT_STREAM: 'log', LOG_LEVEL: 'info' });
  try {
    const made = await createEmpty(node.baseUrl, { title: 'streamed' });
    const line = await until(
      'the audit line in the log',
      () =>
        node
          .output()
          .split('\n')
          .filter((l) => l.includes('"auditEntry"'))
          .map((l) => JSON.parse(l) as { msg: string; auditEntry: Entry })[0],
    );
    assert.equal(line.msg, 'audit');
    assert.equal(line.auditEntry.action, 'folder.create');
    assert.equal(line.auditEntry.folderId, made.folderId);
    assert.deepEqual(Object.keys(line.auditEntry).sort(), [
      'action',
      'actor',
      'at',
      'clientHash',
      'detail',
      'folderId',
      'id',
    ]);
  } finally {
    await node.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
});
