import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, test } from 'node:test';
import pg from 'pg';
import { hashToken, newId, newToken } from '../../src/domain/ids.js';
import { postJson } from '../support/api.js';
import { type SpawnedServer, spawnServer, startServer, tempDir } from '../support/server.js';
import { isUnavailable, type PostgresService, startPostgres } from '../support/services.js';

/**
 * Per-account quotas through the real routes: registrations made with an account's API key
 * count against QUOTA_ACCOUNT_MIB or the account's own quota, exactly under concurrency (in one
 * process on SQLite, and across two nodes on one PostgreSQL); admins list accounts with their usage
 * and set a quota, which the audit log records.
 */
const MIB = 1024 * 1024;
const ADMIN_TOKEN = 'account-quota-test-admin-token-0123456789';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const newKey = () => `wfk_${newToken().padEnd(43, 'A').slice(0, 43)}`;
type Refusal = { error: string; code: string };

const create = (baseUrl: string, key: string | null, filesize = MIB) =>
  postJson<Refusal & { folderId: string }>(
    `${baseUrl}/v2/folders`,
    { encryption: { ske: 's' }, files: [{ filename: 'f', filesize }] },
    key ? { authorization: `Bearer ${key}` } : {},
  );

async function adminCall<T>(baseUrl: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

interface Account {
  accountId: string;
  email: string | null;
  usedBytes: number;
  quotaBytes: number | null;
}

test('SQLite: 20 concurrent 1 MiB creates with one key fill a 5 MiB account quota exactly; admins list and set quotas', async () => {
  const srv = await startServer({
    QUOTA_ACCOUNT_MIB: '5',
    ADMIN_TOKEN,
    DISK_FREE_MIN_MIB: '0',
    RATE_LIMIT_CREATE: '100000',
  });
  try {
    const accounts = srv.server.services.store.accounts;
    const account = await accounts.signIn({
      newId: newId(),
      issuer: 'https://idp.example',
      subject: 'ana',
      email: 'ana@example.org',
      name: 'Ana',
      admin: false,
      now: Date.now(),
    });
    const key = newKey();
    await accounts.createApiKey({ id: newId(), accountId: account.id, name: 'ci', hash: hashToken(key), createdAt: 1 });

    const racing = await Promise.all(Array.from({ length: 20 }, () => create(srv.baseUrl, key)));
    const statuses = racing.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 5, `statuses: ${statuses.join(',')}`);
    // The folder quota's kind of refusal: 400 on the v2 create (its contract lists 400), code quota_exceeded.
    for (const r of racing) if (r.status !== 200) assert.equal(r.body.code, 'quota_exceeded');
    assert.match(racing.find((r) => r.status === 400)!.body.error, /account quota exceeded/);
    // Anonymous creates are not held by any account's quota.
    assert.equal((await create(srv.baseUrl, null)).status, 200);

    const listed = await adminCall<{ accounts: Account[]; defaultQuotaBytes: number }>(
      srv.baseUrl,
      'GET',
      '/api/admin/accounts',
    );
    assert.equal(listed.status, 200);
    assert.equal(listed.body.defaultQuotaBytes, 5 * MIB);
    assert.deepEqual(
      listed.body.accounts.map((a) => [a.accountId, a.email, a.usedBytes, a.quotaBytes]),
      [[account.id, 'ana@example.org', 5 * MIB, null]],
    );

    // An own quota replaces the default: one more MiB fits, then no more.
    const set = await adminCall<Account>(srv.baseUrl, 'PUT', `/api/admin/accounts/${account.id}/quota`, {
      bytes: 6 * MIB,
    });
    assert.equal(set.status, 200);
    assert.equal(set.body.quotaBytes, 6 * MIB);
    assert.equal((await create(srv.baseUrl, key)).status, 200);
    assert.equal((await create(srv.baseUrl, key)).status, 400);
    const back = await adminCall<Account>(srv.baseUrl, 'PUT', `/api/admin/accounts/${account.id}/quota`, {
      bytes: null,
    });
    assert.equal(back.body.quotaBytes, null);
    // Back on the 5 MiB default with 6 MiB held: a site registration into the account's own folder is
    // refused as the folder quota refuses one there: 413 quota_exceeded.
    const owner = { 'x-owner-token': newToken(), authorization: `Bearer ${key}` };
    const site = await postJson<{ folderId: string }>(
      `${srv.baseUrl}/api/site/folders`,
      { mode: 'share', ske: 's' },
      owner,
    );
    assert.equal(site.status, 201);
    const files = `${srv.baseUrl}/api/site/folders/${site.body.folderId}/files`;
    const refused = await postJson<Refusal>(files, { files: [{ filename: 'a', filesize: 1024 }] }, owner);
    assert.equal(refused.status, 413, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'quota_exceeded');

    // Bad input and unknown accounts.
    for (const body of [{ bytes: -1 }, { bytes: '5' }, { bytes: 1.5 }, {}, { bytes: 1, extra: true }]) {
      const bad = await adminCall<Refusal>(srv.baseUrl, 'PUT', `/api/admin/accounts/${account.id}/quota`, body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(bad.body.code, 'invalid_request');
    }
    const unknown = await adminCall<Refusal>(srv.baseUrl, 'PUT', '/api/admin/accounts/nobody/quota', { bytes: 1 });
    assert.equal(unknown.status, 404);
    assert.equal((await fetch(`${srv.baseUrl}/api/admin/accounts`)).status, 401);

    // The audit log: quota.set twice (by the break-glass token), and the account's creates under its id.
    const audit = await adminCall<{ entries: { action: string; detail: Record<string, unknown> }[] }>(
      srv.baseUrl,
      'GET',
      '/api/admin/audit?action=quota.set',
    );
    assert.deepEqual(
      audit.body.entries.map((e) => e.detail),
      [
        { accountId: account.id, bytes: null, by: 'admin-token' },
        { accountId: account.id, bytes: 6 * MIB, by: 'admin-token' },
      ],
    );
    const mine = await adminCall<{ entries: { action: string; actor: { accountId: string; via: string } }[] }>(
      srv.baseUrl,
      'GET',
      `/api/admin/audit?account=${account.id}&action=folder.create`,
    );
    assert.equal(mine.body.entries.length, 7);
    assert.ok(mine.body.entries.every((e) => e.actor.accountId === account.id && e.actor.via === 'api-key'));
  } finally {
    await srv.close();
  }
});

const nodes: SpawnedServer[] = [];
const dirs: string[] = [];
let postgres: PostgresService | null = null;
after(async () => {
  await Promise.allSettled(nodes.map((n) => n.kill()));
  await postgres?.stop();
  await Promise.allSettled(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

test('two nodes on one PostgreSQL: 20 racing 1 MiB creates with one account under a 5 MiB quota store exactly 5 MiB', {
  timeout: 300_000,
}, async (t) => {
  const made = await startPostgres();
  if (isUnavailable(made)) return void t.skip(made.skip);
  postgres = made;
  const common = {
    DATABASE_URL: await made.freshDatabase(),
    QUOTA_ACCOUNT_MIB: '5',
    DISK_FREE_MIN_MIB: '0',
    RATE_LIMIT_CREATE: '100000',
    LOG_LEVEL: 'warn',
  };
  const start = async () => {
    const dataDir = await tempDir('webfolder-account-quota-');
    dirs.push(dataDir);
    const node = await spawnServer({ ...common, DATA_DIR: dataDir });
    nodes.push(node);
    return node;
  };
  const [a, b] = await Promise.all([start(), start()]);
  // The account and its key, as sign-in stores them (the nodes have migrated the database).
  const client = new pg.Client({ connectionString: common.DATABASE_URL });
  await client.connect();
  try {
    const accountId = newId();
    const key = newKey();
    await client.query(
      `INSERT INTO accounts (id, issuer, subject, email, name, admin, created_at, last_seen_at)
       VALUES ($1, 'https://idp.example', 'bo', 'bo@example.org', NULL, 0, 1, 1)`,
      [accountId],
    );
    await client.query(`INSERT INTO api_keys (id, account_id, name, hash, created_at) VALUES ($1, $2, 'ci', $3, 1)`, [
      newId(),
      accountId,
      hashToken(key),
    ]);
    const racing = await Promise.all(Array.from({ length: 20 }, (_, i) => create((i % 2 ? a : b).baseUrl, key)));
    const statuses = racing.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 5, `statuses: ${statuses.join(',')}`);
    for (const r of racing) if (r.status !== 200) assert.equal(r.body.code, 'quota_exceeded');
    const files = await client.query<{ bytes: string }>(
      'SELECT COALESCE(SUM(f.filesize), 0) AS bytes FROM files f JOIN folders d ON d.id = f.folder_id WHERE d.account_id = $1',
      [accountId],
    );
    assert.equal(Number(files.rows[0]!.bytes), 5 * MIB);
    const counted = await client.query<{ bytes: string }>('SELECT bytes FROM account_storage WHERE account_id = $1', [
      accountId,
    ]);
    assert.equal(Number(counted.rows[0]!.bytes), 5 * MIB);
    const total = await client.query<{ bytes: string }>('SELECT bytes FROM storage_totals WHERE id = 1');
    assert.equal(Number(total.rows[0]!.bytes), 5 * MIB, 'refused creates gave the instance total back');
  } finally {
    await client.end();
  }
});
