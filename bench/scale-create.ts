import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import { type SpawnedServer, spawnServer, tempDir } from '../test/support/server.js';
import { isUnavailable, startPostgres } from '../test/support/services.js';

/**
 * Folder creation throughput with PostgreSQL metadata against the embedded SQLite store, in the same
 * run: `npx tsx bench/scale-create.ts`. Each server is a child process (src/main.ts) with the local
 * blob backend, so only the metadata store differs; the load generator (autocannon, 50 connections)
 * and the PostgreSQL server share the machine's cores. Rounds alternate between the two so that
 * drift hits both; the median round counts.
 *
 * PostgreSQL runs here with its durable defaults (fsync and synchronous_commit on), as SQLite runs
 * with synchronous=FULL: a fair comparison of committed creates.
 *
 * Two request kinds: an empty folder (one INSERT) and a direct upload of one 100 MiB file (a
 * transaction with two INSERTs, plus 10 presigned URLs).
 */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS_PER_ROUND ?? 5);
const UNLIMITED = { RATE_LIMIT_CREATE: '100000000', RATE_LIMIT_STATUS: '100000000', RATE_LIMIT_CHUNK: '100000000' };

const BODIES = {
  'empty folder': '{"title":"bench","mode":"send"}',
  'direct upload, 1 file of 100 MiB': JSON.stringify({
    encryption: { ske: 'bench' },
    files: [{ filename: 'bench', filesize: 100 * 1024 * 1024 }],
  }),
};

async function load(server: SpawnedServer, body: string): Promise<number> {
  const result = await autocannon({
    url: `${server.baseUrl}/v2/folders`,
    method: 'POST',
    connections: 50,
    duration: SECONDS,
    headers: { 'content-type': 'application/json' },
    body,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${server.baseUrl}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const postgres = await startPostgres({ durable: true });
if (isUnavailable(postgres)) {
  console.error(postgres.skip);
  process.exit(1);
}
const dirs = [await tempDir('webfolder-bench-'), await tempDir('webfolder-bench-')];
const common = { ...UNLIMITED, SWEEP_INTERVAL_SECONDS: '3600', LOG_LEVEL: 'error' };
const sqlite = await spawnServer({ ...common, DATA_DIR: dirs[0]! });
const pg = await spawnServer({ ...common, DATA_DIR: dirs[1]!, DATABASE_URL: await postgres.freshDatabase() });
try {
  for (const [kind, body] of Object.entries(BODIES)) {
    await load(sqlite, body); // warm-up
    await load(pg, body);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      a.push(await load(sqlite, body));
      b.push(await load(pg, body));
    }
    const [s, p] = [median(a), median(b)];
    console.log(
      `create (${kind}): PostgreSQL ${p.toFixed(0)} req/s, SQLite ${s.toFixed(0)} req/s -> ratio PostgreSQL/SQLite ${(p / s).toFixed(2)}`,
    );
  }
} finally {
  await Promise.all([sqlite.stop(), pg.stop()]);
  await postgres.stop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
