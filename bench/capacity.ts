import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { buildDocsSite } from '../src/docs/build.js';
import { encryptedLength } from '../src/domain/chunk-plan.js';
import { startBucketProxy } from '../test/client/bucket-proxy.js';
import { chunkUrl, plainLength } from '../test/support/api.js';
import { type SpawnedServer, scrapeMetrics, spawnServer, tempDir } from '../test/support/server.js';
import { isUnavailable, startPostgres, startRedis, startS3 } from '../test/support/services.js';

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
 * 3. memory per open upload: RSS with 200 chunk PUTs in flight (headers and 64 KiB sent, then held),
 *    against the idle RSS, on a node whose per-client cap lets all 200 in;
 * 4. metadata bytes per transfer: SQLite file growth, and PostgreSQL bytes per folder, file and
 *    outbox (event) row: pg_total_relation_size (table, TOAST and indexes) after N transfers minus
 *    the same on the empty tables, over N;
 * 5. Redis bytes per rate-limit counter: a node on Redis takes N creates from N client addresses
 *    (X-Forwarded-For behind TRUST_PROXY), then INFO memory's delta over the keys it made, and
 *    MEMORY USAGE of one of them;
 * 6. object-store overhead of a transfer on S3 (the test's RADOS Gateway behind a counting proxy): stored bytes
 *    against plaintext bytes, objects per chunk, and the requests a transfer makes (client PUTs and
 *    GETs on presigned URLs, the node's own LISTs).
 *
 * Every step is bounded in time: one that does not finish says so and the run goes on.
 */
const MIB = 1024 * 1024;
const SECONDS = Number(process.env.SECONDS_PER_ROUND ?? 5);
const UNLIMITED = { RATE_LIMIT_CREATE: '100000000', RATE_LIMIT_STATUS: '100000000', RATE_LIMIT_CHUNK: '100000000' };
const common = { ...UNLIMITED, SWEEP_INTERVAL_SECONDS: '3600', LOG_LEVEL: 'error' };

/** Runs one step, giving up after `seconds`: the bench always finishes, and says what did not. */
async function step(name: string, seconds: number, work: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), seconds * 1000);
  });
  try {
    const outcome = await Promise.race([work().then(() => 'done' as const), limit]);
    if (outcome === 'timeout') console.log(`${name}: did not finish within ${seconds} s (skipped)`);
  } catch (error) {
    console.log(`${name}: failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

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
    const text = await scrapeMetrics(server.baseUrl);
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
/** Every node started, so that a step that ran out of time leaves none behind. */
const nodes: SpawnedServer[] = [];
const start = async (env: Record<string, string>) => {
  const node = await spawnServer(env);
  nodes.push(node);
  return node;
};
const stopAll = () =>
  Promise.all(nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null).map((n) => n.kill()));
const cleanups: Array<() => Promise<unknown>> = [];

/** `n` direct-flow creates of one file (an 80-character encrypted name), 8 at a time. */
async function transfers(baseUrl: string, n: number, headers: (i: number) => Record<string, string> = () => ({})) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) {
        const i = next++;
        const res = await fetch(`${baseUrl}/v2/folders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers(i) },
          body: JSON.stringify({
            encryption: { ske: 'x'.repeat(60) },
            files: [{ filename: 'e'.repeat(80), filesize: 50 * MIB }],
          }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`create ${i}: ${res.status}`);
      }
    }),
  );
}

// The docs site is built once here: a node that finds it stale builds it at start, which under load
// can outlast Fastify's plugin start timeout.
await buildDocsSite();

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const HOOK_SECRET = 'a bench secret of at least thirty-two characters';

try {
  await step('creates', 180, async () => {
    const plain = await start({ ...common, DATA_DIR: await dir() });
    const hooked = await start({ ...common, DATA_DIR: await dir(), WEBHOOK_URL: hookUrl, WEBHOOK_SECRET: HOOK_SECRET });
    await creates(plain); // warm-up
    await creates(hooked);
    const a = await creates(plain);
    const b = await creates(hooked);
    console.log(
      `creates: ${a.rate.toFixed(0)} req/s, ${a.perCpuSecond.toFixed(0)} per server CPU-second; with a webhook: ${b.rate.toFixed(0)} req/s, ${b.perCpuSecond.toFixed(0)} per CPU-second (outbox row in the create's transaction + its delivery)`,
    );
    await Promise.all([plain.stop(), hooked.stop()]);
  });

  await step('ingest', 180, async () => {
    const plain = await start({ ...common, DATA_DIR: await dir() });
    const i1 = await ingest(plain, 256);
    const i2 = await ingest(plain, 256);
    const best = i1.mibPerCpuSecond > i2.mibPerCpuSecond ? i1 : i2;
    console.log(
      `ingest (local, 10 MiB chunks, 4 in flight): ${best.mibPerSecond.toFixed(0)} MiB/s, ${best.mibPerCpuSecond.toFixed(0)} MiB per server CPU-second`,
    );
    await plain.stop();
  });

  await step('open uploads', 120, async () => {
    // All 200 come from one address: the per-client cap (MAX_CONCURRENT_CHUNK_UPLOADS, 32 by default)
    // would refuse most of them, which measured the refusal, not an open upload.
    const node = await start({ ...common, DATA_DIR: await dir(), MAX_CONCURRENT_CHUNK_UPLOADS: '1000' });
    const m = await openUploads(node, 200);
    console.log(
      `open uploads: RSS ${m.before.toFixed(0)} MiB idle, ${m.during.toFixed(0)} MiB with ${m.inFlight} chunk PUTs in flight: ${m.perUploadKiB.toFixed(0)} KiB each`,
    );
    await node.kill(); // the held uploads are cut anyway; no grace period to wait for
  });

  await step('SQLite', 180, async () => {
    const sd = await dir();
    const s = await sqliteBytesPerTransfer(sd, await start({ ...common, DATA_DIR: sd }), 1000);
    console.log(`SQLite: ${s.perTransferBytes.toFixed(0)} bytes per transfer (folder + 1 file, 80-char name)`);
  });

  await step('PostgreSQL', 240, async () => {
    const postgres = await startPostgres();
    if (isUnavailable(postgres)) return void console.log(`PostgreSQL: ${postgres.skip}`);
    cleanups.push(() => postgres.stop());
    const url = await postgres.freshDatabase();
    // An endpoint that refuses connections: every event's outbox row stays (retried an hour later).
    const node = await start({
      ...common,
      DATA_DIR: await dir(),
      DATABASE_URL: url,
      WEBHOOK_URL: 'http://127.0.0.1:9/hook',
      WEBHOOK_SECRET: HOOK_SECRET,
      WEBHOOK_RETRY_BASE_SECONDS: '3600',
    });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    cleanups.push(() => c.end());
    const tables = ['folders', 'files', 'outbox'];
    const sizes = async () => {
      const out = new Map<string, { bytes: number; rows: number }>();
      for (const t of tables) {
        const { rows } = await c.query<{ bytes: string; n: string }>(
          `SELECT pg_total_relation_size('${t}')::text AS bytes, (SELECT COUNT(*) FROM ${t})::text AS n`,
        );
        out.set(t, { bytes: Number(rows[0]!.bytes), rows: Number(rows[0]!.n) });
      }
      return out;
    };
    const before = await sizes();
    const n = 2000;
    await transfers(node.baseUrl, n);
    await node.stop();
    const after = await sizes();
    for (const t of tables) {
      const a = after.get(t)!;
      const b = before.get(t)!;
      const rows = a.rows - b.rows;
      console.log(
        `PostgreSQL ${t}: ${rows} rows, ${((a.bytes - b.bytes) / rows).toFixed(0)} bytes per row (pg_total_relation_size: table, TOAST and indexes, minus the empty table)`,
      );
    }
  });

  await step('Redis', 180, async () => {
    const redis = await startRedis();
    if (isUnavailable(redis)) return void console.log(`Redis: ${redis.skip}`);
    cleanups.push(() => redis.stop());
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    cleanups.push(async () => client.disconnect());
    const node = await start({ ...common, DATA_DIR: await dir(), REDIS_URL: redis.url, TRUST_PROXY: 'true' });
    const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    const keys0 = await client.dbsize();
    const before = await used();
    const n = 4000;
    // One create from each of n client addresses: one counter each in the create bucket.
    await transfers(node.baseUrl, n, (i) => ({
      'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    }));
    const after = await used();
    const keys = (await client.dbsize()) - keys0;
    const [, sample] = await client.scan('0', 'MATCH', 'webfolder-rl:*', 'COUNT', 1000);
    const one = sample[0] ? await client.call('MEMORY', 'USAGE', sample[0]) : null;
    console.log(
      `Redis: ${keys} counters from ${n} client addresses, ${((after - before) / keys).toFixed(0)} bytes each (INFO used_memory delta); MEMORY USAGE of one (${sample[0]}): ${one} bytes`,
    );
    await node.stop();
  });

  await step('object store', 180, async () => {
    const s3 = await startS3();
    if (isUnavailable(s3)) return void console.log(`object store: ${s3.skip}`);
    cleanups.push(() => s3.stop());
    const proxy = await startBucketProxy(s3.endpoint);
    cleanups.push(() => proxy.close());
    const bucket = s3.freshBucket();
    const node = await start({ ...common, DATA_DIR: await dir(), ...s3.env(bucket), S3_ENDPOINT: proxy.endpoint });
    const filesize = 95 * MIB; // 10 chunks of 10 MiB, the last one shorter
    const res = await fetch(`${node.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ encryption: { ske: 'bench' }, files: [{ filename: 'bench', filesize }] }),
    });
    const created = (await res.json()) as CreateResponseDirect;
    const file = created.files[0]!;
    const count = (from: number) => {
      const by = new Map<string, number>();
      for (const r of proxy.log.slice(from)) {
        const presigned = r.url.includes('X-Amz-Signature=');
        const key = `${r.method}${presigned ? ' (presigned)' : ''}${r.url.includes('list-type=2') ? ' LIST' : ''}`;
        by.set(key, (by.get(key) ?? 0) + 1);
      }
      return [...by].map(([k, v]) => `${v} ${k}`).join(', ');
    };
    let mark = proxy.log.length;
    const byMark = () => {
      const text = count(mark);
      mark = proxy.log.length;
      return text || 'none';
    };
    const created0 = byMark();
    for (let n = 1; n <= file.chunks; n++) {
      const body = randomBytes(encryptedLength(plainLength(filesize, file.chunkSize, n)));
      const put = await fetch(chunkUrl(file.uploadUrls, n), {
        method: 'PUT',
        headers: file.uploadUrls.headers,
        body: body as unknown as BodyInit,
      });
      await put.arrayBuffer();
      if (put.status !== 200) throw new Error(`chunk ${n}: ${put.status}`);
    }
    const uploaded = byMark();
    const status = await fetch(
      `${node.baseUrl}/v2/folders/${created.folderId}/files/${file.fileId}/upload-status?uploadAuth=${created.uploadAuth}`,
    );
    await status.arrayBuffer();
    const checked = byMark();
    for (let n = 1; n <= file.chunks; n++) {
      const got = await fetch(
        `${node.baseUrl}/api/site/folders/${created.folderId}/files/${file.fileId}/chunks/${String(n).padStart(5, '0')}`,
      );
      await got.arrayBuffer();
      if (got.status !== 200) throw new Error(`download ${n}: ${got.status}`);
    }
    const downloaded = byMark();
    // What the bucket holds for the transfer, listed by the S3 API itself.
    const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const sdk = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const listed = await sdk.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${created.folderId}/` }));
    sdk.destroy();
    const objects = listed.Contents ?? [];
    const stored = objects.reduce((sum, o) => sum + (o.Size ?? 0), 0);
    const keyBytes = objects.reduce((sum, o) => sum + Buffer.byteLength(o.Key ?? ''), 0);
    console.log(
      `object store: a ${filesize / MIB} MiB file in ${file.chunks} chunks is ${objects.length} objects, ${stored} bytes stored for ${filesize} plaintext (+${(((stored - filesize) / filesize) * 100).toFixed(3)} %), keys ${(keyBytes / objects.length).toFixed(0)} bytes each`,
    );
    console.log(
      `object store requests: create ${created0}; upload ${uploaded}; upload-status ${checked}; download ${downloaded}`,
    );
    await node.stop();
  });
} finally {
  await stopAll();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  receiver.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
// A step that ran out of time may still hold a socket or a timer: the figures are printed, stop here.
process.exit(0);
