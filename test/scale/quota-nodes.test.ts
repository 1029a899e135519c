import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { siteApiPath } from '../../src/http/routes/site.js';
import { createEmpty, postJson } from '../support/api.js';
import { type SpawnedServer, spawnServer, tempDir } from '../support/server.js';
import { isUnavailable, type PostgresService, startPostgres } from '../support/services.js';

/**
 * The instance quota across nodes: two API nodes (child processes) on one
 * PostgreSQL. Before, each node counted against a total it re-read every 5 s, so racing nodes passed
 * the quota together; now the check is in the inserting transaction, on the database's counter.
 */
const MIB = 1024 * 1024;
const nodes: SpawnedServer[] = [];
const dirs: string[] = [];
let pgs: PostgresService | null = null;
after(async () => {
  await Promise.allSettled(nodes.map((n) => n.kill()));
  await pgs?.stop();
  await Promise.allSettled(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

test('two nodes on one PostgreSQL: 20 racing 1 MiB registrations under a 5 MiB instance quota store exactly 5 MiB', {
  timeout: 300_000,
}, async (t) => {
  const made = await startPostgres();
  if (isUnavailable(made)) return void t.skip(made.skip);
  pgs = made;
  const common = {
    DATABASE_URL: await made.freshDatabase(),
    QUOTA_TOTAL_MIB: '5',
    DISK_FREE_MIN_MIB: '0',
    RATE_LIMIT_CREATE: '100000',
    RATE_LIMIT_SITE: '100000',
    LOG_LEVEL: 'warn',
  };
  const start = async () => {
    const dataDir = await tempDir('webfolder-quota-node-');
    dirs.push(dataDir);
    const node = await spawnServer({ ...common, DATA_DIR: dataDir });
    nodes.push(node);
    return node;
  };
  const [a, b] = await Promise.all([start(), start()]);
  const siteApi = siteApiPath(loadConfig({ ...common, DATA_DIR: '/tmp' }));
  // Half v2 creates, half site registrations into empty folders, alternating between the nodes.
  const empties = await Promise.all(Array.from({ length: 10 }, (_, i) => createEmpty((i % 2 ? a : b).baseUrl)));
  const racing = await Promise.all(
    Array.from({ length: 20 }, (_, i) => {
      const node = i % 2 ? a : b;
      if (i < 10)
        return postJson<{ code?: string }>(`${node.baseUrl}/v2/folders`, {
          encryption: { ske: 's' },
          files: [{ filename: `f${i}`, filesize: MIB }],
        });
      return postJson<{ code?: string }>(
        `${node.baseUrl}${siteApi}/folders/${empties[i - 10]!.folderId}/files`,
        { ske: 's', files: [{ filename: `g${i}`, filesize: MIB }] },
        { 'x-owner-token': `owner-token-${i}-${'x'.repeat(32)}` },
      );
    }),
  );
  const statuses = racing.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 200).length, 5, `statuses: ${statuses.join(',')}`);
  for (const r of racing) if (r.status !== 200) assert.equal(r.body.code, 'insufficient_storage');
  const client = new (await import('pg')).default.Client({ connectionString: common.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string }>('SELECT COALESCE(SUM(filesize), 0) AS bytes FROM files');
    assert.equal(Number(rows[0]!.bytes), 5 * MIB);
  } finally {
    await client.end();
  }
});
