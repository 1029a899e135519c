import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { encryptedLength } from '../src/domain/chunk-plan.js';
import { chunkUrl, plainLength } from '../test/support/api.js';
import { type SpawnedServer, spawnServer, tempDir } from '../test/support/server.js';
import { isUnavailable, startPostgres, startRedis } from '../test/support/services.js';

/**
 * The figures behind the capacity model in docs/scale-out.md: `npx tsx bench/capacity.ts`.
 * One webfolder node (a child process, src/main.ts through tsx) on the embedded backends; the load
 * generator shares the machine's cores, so each rate comes with the server's own CPU seconds and
 * the model uses "per CPU-second of the server", which is what a bigger machine multiplies.
 *
 * 1. empty-folder creates (autocannon, 50 connections): req/s and creates per server CPU-second,
 *    without and with an operator webhook (the outbox insert and its delivery);
 * 2. chunk ingest on the local backend: a 256 MiB file in 10 MiB chunks, 4 PUTs in flight:
 *    MiB/s and MiB per server CPU-second;
 * 3. memory per open upload: RSS with 200 chunk PUTs in flight (headers and 64 KiB sent, then held);
 * 4. metadata bytes per transfer: SQLite file growth, and PostgreSQL table sizes, per folder with
 *    one registered file, and per outbox row;
 * 5. Redis bytes per rate-limit counter (the keys @fastify/rate-limit keeps per client and bucket).
 */
const MIB = 1024 * 1024;
const SECONDS = Number(process.env.SECONDS_PER_ROUND ?? 5);
const UNLIMITED = { RATE_LIMIT_CREATE: '100000000', RATE_LIMIT_STATUS: '100000000', RATE_LIMIT_CHUNK: '100000000' };
const common = { ...UNLIMITED, SWEEP_INTERVAL_SECONDS: '3600', LOG_LEVEL: 'error' };

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function creates(server: SpawnedServer): Promise<{ rate: number; perCpuSecond: number }> {
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  const result = await autocannon({
    url: `${server.baseUrl}/v2/folders`,
    method: 'POST',
    connections: 50,
    duration: SECONDS,
    headers: { 'content-type': 'application/json' },
    body: '{"title":"bench","mode":"send"}',
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpu = cpuSeconds(pid) - cpu0;
  return { rate: result.requests.average, perCpuSecond: result.requests.total / cpu };
}

function put(url: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'PUT', headers: { 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function ingest(server: SpawnedServer, fileMiB: number) {
  const filesize = fileMiB * MIB;
  const res = await fetch(`${server.baseUrl}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ encryption: { ske: 'bench' }, files: [{ filename: 'bench', filesize }] }),
  });
  const created = (await res.json()) as CreateResponseDirect;
  const file = created.files[0]!;
  const bodies = new Map<number, Buffer>();
  const body = (n: number) => {
    const length = encryptedLength(plainLength(filesize, file.chunkSize, n));
    let b = bodies.get(length);
    if (!b) {
      b = randomBytes(length);
      bodies.set(length, b);
    }
    return b;
  };
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  let next = 1;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next <= file.chunks) {
        const n = next++;
        const status = await put(chunkUrl(file.uploadUrls, n), body(n));
        if (status !== 200) throw new Error(`chunk ${n}: ${status}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(pid) - cpu0;
  return { mibPerSecond: fileMiB / seconds, mibPerCpuSecond: fileMiB / cpu };
}

async function openUploads(server: SpawnedServer, count: number) {
  const pid = server.child.pid!;
  const res = await fetch(`${server.baseUrl}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      encryption: { ske: 'bench' },
      files: Array.from({ length: 10 }, (_, i) => ({ filename: `f${i}`, filesize: 100 * 10 * MIB })),
    }),
  });
  const created = (await res.json()) as CreateResponseDirect;
  const urls = created.files.flatMap((f) =>
    Array.from({ length: 20 }, (_, i) => ({
      url: chunkUrl(f.uploadUrls, i + 1),
      length: encryptedLength(f.chunkSize),
    })),
  );
  global.gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  const before = rssMiB(pid);
  const held: Array<ReturnType<typeof httpRequest>> = [];
  const head = randomBytes(64 * 1024);
  for (const { url, length } of urls.slice(0, count)) {
    const req = httpRequest(url, { method: 'PUT', headers: { 'content-length': String(length) }, agent: false });
    req.on('error', () => {});
    req.write(head);
    held.push(req);
  }
  // Until the server reports them all in flight (metrics), then a moment for the bytes to land.
  // (The per-client cap on concurrent chunk uploads may hold some back: count what is in flight.)
  let inFlight = 0;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    inFlight = Number(/webfolder_chunk_uploads_in_flight (\d+)/.exec(text)?.[1] ?? 0);
    if (inFlight >= count) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const during = rssMiB(pid);
  for (const req of held) req.destroy();
  return { before, during, inFlight, perUploadKiB: ((during - before) * 1024) / Math.max(1, inFlight) };
}

async function sqliteBytesPerTransfer(dataDir: string, server: SpawnedServer, n: number) {
  const db = join(dataDir, 'webfolder.db');
  const size = () => statSync(db).size + (statSync(`${db}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  // Checkpointed sizes are what stays; the WAL is reused. Count the main file after many creates.
  const before = statSync(db).size;
  for (let i = 0; i < n; i++) {
    await fetch(`${server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        encryption: { ske: 'x'.repeat(60) },
        files: [{ filename: 'e'.repeat(80), filesize: 50 * MIB }],
      }),
    });
  }
  await server.stop();
  const after = statSync(db).size;
  return { perTransferBytes: (after - before) / n, walBytes: size() - after };
}

const dirs: string[] = [];
const dir = async () => {
  const d = await tempDir('webfolder-capacity-');
  dirs.push(d);
  return d;
};

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

try {
  const plain = await spawnServer({ ...common, DATA_DIR: await dir() });
  const hooked = await spawnServer({
    ...common,
    DATA_DIR: await dir(),
    WEBHOOK_URL: hookUrl,
    WEBHOOK_SECRET: 'a bench secret of at least thirty-two characters',
  });
  try {
    await creates(plain); // warm-up
    await creates(hooked);
    const a = await creates(plain);
    const b = await creates(hooked);
    console.log(
      `creates: ${a.rate.toFixed(0)} req/s, ${a.perCpuSecond.toFixed(0)} per server CPU-second; with a webhook: ${b.rate.toFixed(0)} req/s, ${b.perCpuSecond.toFixed(0)} per CPU-second (outbox insert + delivery)`,
    );
    const i1 = await ingest(plain, 256);
    const i2 = await ingest(plain, 256);
    const best = i1.mibPerCpuSecond > i2.mibPerCpuSecond ? i1 : i2;
    console.log(
      `ingest (local, 10 MiB chunks, 4 in flight): ${best.mibPerSecond.toFixed(0)} MiB/s, ${best.mibPerCpuSecond.toFixed(0)} MiB per server CPU-second`,
    );
    const m = await openUploads(plain, 200);
    console.log(
      `open uploads: RSS ${m.before.toFixed(0)} MiB idle, ${m.during.toFixed(0)} MiB with ${m.inFlight} chunk PUTs in flight: ${m.perUploadKiB.toFixed(0)} KiB each`,
    );
  } finally {
    await Promise.all([plain.stop(), hooked.stop()]);
  }
  const sd = await dir();
  const s = await sqliteBytesPerTransfer(sd, await spawnServer({ ...common, DATA_DIR: sd }), 1000);
  console.log(`SQLite: ${s.perTransferBytes.toFixed(0)} bytes per transfer (folder + 1 file, 80-char name)`);

  const postgres = await startPostgres();
  if (!isUnavailable(postgres)) {
    const url = await postgres.freshDatabase();
    const node = await spawnServer({
      ...common,
      DATA_DIR: await dir(),
      DATABASE_URL: url,
      WEBHOOK_URL: `${hookUrl}-unreachable-is-fine`,
      WEBHOOK_SECRET: 'a bench secret of at least thirty-two characters',
    });
    const n = 1000;
    for (let i = 0; i < n; i++)
      await fetch(`${node.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          encryption: { ske: 'x'.repeat(60) },
          files: [{ filename: 'e'.repeat(80), filesize: 50 * MIB }],
        }),
      });
    await node.stop();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('VACUUM ANALYZE');
    const { rows } = await c.query<{ name: string; bytes: string; n: string }>(
      `SELECT t AS name, pg_total_relation_size(t)::text AS bytes,
        (xpath('/row/c/text()', query_to_xml(format('select count(*) as c from %I', t), false, true, '')))[1]::text AS n
       FROM unnest(ARRAY['folders', 'files', 'outbox']) AS t`,
    );
    await c.end();
    for (const r of rows)
      console.log(
        `PostgreSQL ${r.name}: ${r.n} rows, ${(Number(r.bytes) / Number(r.n)).toFixed(0)} bytes per row (with indexes)`,
      );
    await postgres.stop();
  } else console.log(`PostgreSQL: ${postgres.skip}`);

  const redis = await startRedis();
  if (!isUnavailable(redis)) {
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    const before = await used();
    const keys = 20000;
    const pipeline = client.pipeline();
    for (let i = 0; i < keys; i++) {
      const key = `webfolder-rl:create:${10 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.1`;
      pipeline.incr(key);
      pipeline.pexpire(key, 60_000);
    }
    await pipeline.exec();
    const after = await used();
    console.log(
      `Redis: ${((after - before) / keys).toFixed(0)} bytes per rate-limit counter (one per client address and bucket)`,
    );
    client.disconnect();
    await redis.stop();
  } else console.log(`Redis: ${redis.skip}`);
} finally {
  receiver.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
