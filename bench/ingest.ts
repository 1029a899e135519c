import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { encryptedLength, MIB } from '../src/domain/chunk-plan.js';
import { chunkUrl, plainLength } from '../test/support/api.js';
import { tempDir } from '../test/support/server.js';
import { type BenchServer, peakRss, ratioLine, record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

/**
 * Chunk ingest: a 2 GiB file (10 MiB chunks, encrypted lengths) PUT in 4 parallel streams to
 * webfolder's local backend, against a minimal node:http server that streams each body to a file,
 * in the same run with the same bodies. Also reports the same baseline with an fsync per chunk
 * (webfolder makes every chunk durable) and webfolder's peak RSS during the upload.
 * Targets: ingest >= 0.9 of the raw stream-to-file server; peak RSS under 200 MB.
 */
const FILE_SIZE = Number(process.env.FILE_MIB ?? 2048) * MIB;
const STREAMS = 4;
const CHUNK = 10 * MIB;
const chunks = Math.ceil(FILE_SIZE / CHUNK);
// One random body, reused: the server never decrypts, so any bytes of the right length will do.
const body = randomBytes(encryptedLength(CHUNK));

async function parallel(count: number, put: (n: number) => Promise<void>): Promise<number> {
  let next = 1;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      while (next <= count) await put(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function send(url: string, headers: Record<string, string>, bytes: Uint8Array): Promise<void> {
  const res = await fetch(url, { method: 'PUT', headers, body: bytes as unknown as BodyInit });
  if (!res.ok) throw new Error(`PUT ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

const bodyFor = (n: number) => body.subarray(0, encryptedLength(plainLength(FILE_SIZE, CHUNK, n)));

async function rawRun(server: BenchServer): Promise<number> {
  const seconds = await parallel(chunks, (n) =>
    send(`${server.url}/chunk/${n}`, { 'content-type': 'application/octet-stream' }, bodyFor(n)),
  );
  return FILE_SIZE / MIB / seconds;
}

async function webfolderRun(server: BenchServer): Promise<number> {
  const res = await fetch(`${server.url}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ encryption: { ske: 'bench' }, files: [{ filename: 'bench', filesize: FILE_SIZE }] }),
  });
  const created = (await res.json()) as CreateResponseDirect;
  const file = created.files[0]!;
  if (file.chunkSize !== CHUNK) throw new Error(`unexpected chunk size ${file.chunkSize}`);
  const seconds = await parallel(file.chunks, (n) =>
    send(chunkUrl(file.uploadUrls, n), file.uploadUrls.headers, bodyFor(n)),
  );
  return FILE_SIZE / MIB / seconds;
}

const dirs = await Promise.all([tempDir('wf-bench-'), tempDir('wf-bench-raw-'), tempDir('wf-bench-rawd-')]);
const webfolder = await startProcess(WEBFOLDER, { DATA_DIR: dirs[0]!, ...UNLIMITED, CHUNK_SIZE_MIB: '10' });
const raw = await startProcess('bench/baselines/raw-ingest.ts', { DATA_DIR: dirs[1]! });
const rawDurable = await startProcess('bench/baselines/raw-ingest.ts', { DATA_DIR: dirs[2]!, DURABLE: '1' });
try {
  // Two rounds in opposite orders, averaged: drift on a shared machine hits every server alike.
  const runs = { raw: [] as number[], ours: [] as number[], rawDurable: [] as number[] };
  const round = [
    () => rawRun(raw).then((v) => runs.raw.push(v)),
    () => webfolderRun(webfolder).then((v) => runs.ours.push(v)),
    () => rawRun(rawDurable).then((v) => runs.rawDurable.push(v)),
  ];
  for (const step of round) await step();
  for (const step of [...round].reverse()) await step();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [rawSpeed, ours, rawDurableSpeed] = [mean(runs.raw), mean(runs.ours), mean(runs.rawDurable)];
  const rss = await peakRss(webfolder.child.pid!);
  await record(
    ratioLine(`ingest ${FILE_SIZE / MIB} MiB, ${STREAMS} streams, vs raw stream-to-file`, ours, rawSpeed, 'MiB/s', 0.9),
  );
  await record(
    ratioLine(
      `ingest ${FILE_SIZE / MIB} MiB, ${STREAMS} streams, vs raw stream-to-file + fsync`,
      ours,
      rawDurableSpeed,
      'MiB/s',
    ),
  );
  await record(
    `peak RSS of webfolder during the upload: ${(rss / MIB).toFixed(0)} MiB (target < 200 MB: ${rss < 200e6 ? 'met' : 'NOT met'})`,
  );
} finally {
  await Promise.all([webfolder.stop(), raw.stop(), rawDurable.stop()]);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
