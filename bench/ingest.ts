import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { encryptedLength, MIB } from '../src/domain/chunk-plan.js';
import { chunkUrl, plainLength } from '../test/support/api.js';
import { tempDir } from '../test/support/server.js';
import { type BenchServer, peakRss, ratioLine, record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

/**
 * Chunk ingest: a 2 GiB file (10 MiB chunks, encrypted lengths) PUT in 4 parallel streams to
 * webfolder's local backend, against a minimal node:http server that streams each body to a file,
 * in the same run with the same bodies. Also reports the same baseline with an fsync per chunk
 * (webfolder makes every chunk durable) and webfolder's peak RSS during the upload, and each
 * server's CPU (user + system, from /proc) per GiB received: on a shared machine throughput follows
 * whatever else runs, CPU per GiB much less.
 * Targets: ingest >= 0.9 of the raw stream-to-file server; CPU per GiB <= 1.5x the raw server's
 * with an fsync per chunk; peak RSS under 200 MB. FILE_MIB sets the size (default 2048).
 * BENCH_BEFORE=<another checkout's dist/main.js>: that build runs in the same rounds too (its own
 * data directory), for a before/after measured in one run.
 */
const FILE_SIZE = Number(process.env.FILE_MIB ?? 2048) * MIB;
const STREAMS = 4;
const CHUNK = 10 * MIB;
const chunks = Math.ceil(FILE_SIZE / CHUNK);
// One random body, reused: the server never decrypts, so any bytes of the right length will do.
const body = randomBytes(encryptedLength(CHUNK));

/** CPU seconds (user + system) a process (or one of its threads: `/task/<tid>`) has used so far. */
function cpuSeconds(pid: number, thread = ''): number {
  const stat = readFileSync(`/proc/${pid}${thread}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds each server spent in its rounds (all threads, and its main thread), by pid. */
const cpuSpent = new Map<number, number>();
const mainSpent = new Map<number, number>();

async function parallel(server: BenchServer, count: number, put: (n: number) => Promise<void>): Promise<number> {
  let next = 1;
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  const main0 = cpuSeconds(pid, `/task/${pid}`);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      while (next <= count) await put(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  cpuSpent.set(pid, (cpuSpent.get(pid) ?? 0) + cpuSeconds(pid) - cpu0);
  mainSpent.set(pid, (mainSpent.get(pid) ?? 0) + cpuSeconds(pid, `/task/${pid}`) - main0);
  return seconds;
}

async function send(url: string, headers: Record<string, string>, bytes: Uint8Array): Promise<void> {
  const res = await fetch(url, { method: 'PUT', headers, body: bytes as unknown as BodyInit });
  if (!res.ok) throw new Error(`PUT ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

const bodyFor = (n: number) => body.subarray(0, encryptedLength(plainLength(FILE_SIZE, CHUNK, n)));

async function rawRun(server: BenchServer): Promise<number> {
  const seconds = await parallel(server, chunks, (n) =>
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
  const seconds = await parallel(server, file.chunks, (n) =>
    send(chunkUrl(file.uploadUrls, n), file.uploadUrls.headers, bodyFor(n)),
  );
  return FILE_SIZE / MIB / seconds;
}

const dirs = await Promise.all([
  tempDir('wf-bench-'),
  tempDir('wf-bench-raw-'),
  tempDir('wf-bench-rawd-'),
  tempDir('wf-bench-before-'),
]);
const webfolder = await startProcess(WEBFOLDER, { DATA_DIR: dirs[0]!, ...UNLIMITED, CHUNK_SIZE_MIB: '10' });
const before = process.env.BENCH_BEFORE
  ? await startProcess(process.env.BENCH_BEFORE, { DATA_DIR: dirs[3]!, ...UNLIMITED, CHUNK_SIZE_MIB: '10' })
  : null;
const raw = await startProcess('bench/baselines/raw-ingest.ts', { DATA_DIR: dirs[1]! });
const rawDurable = await startProcess('bench/baselines/raw-ingest.ts', { DATA_DIR: dirs[2]!, DURABLE: '1' });
try {
  // Two rounds in opposite orders, averaged: drift on a shared machine hits every server alike.
  const runs = { raw: [] as number[], ours: [] as number[], rawDurable: [] as number[], before: [] as number[] };
  const round = [
    () => rawRun(raw).then((v) => runs.raw.push(v)),
    () => webfolderRun(webfolder).then((v) => runs.ours.push(v)),
    ...(before ? [() => webfolderRun(before).then((v) => runs.before.push(v))] : []),
    () => rawRun(rawDurable).then((v) => runs.rawDurable.push(v)),
  ];
  for (const step of round) await step();
  for (const step of [...round].reverse()) await step();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [rawSpeed, ours, rawDurableSpeed] = [mean(runs.raw), mean(runs.ours), mean(runs.rawDurable)];
  const rss = await peakRss(webfolder.child.pid!);
  // Each server received the file twice.
  const perGib = (s: BenchServer, spent = cpuSpent) => (spent.get(s.child.pid!)! * 1024) / ((2 * FILE_SIZE) / MIB);
  const mainPerGib = (s: BenchServer) => ` (main thread ${perGib(s, mainSpent).toFixed(2)})`;
  const [oursCpu, rawCpu, rawDurableCpu] = [perGib(webfolder), perGib(raw), perGib(rawDurable)];
  const cpuRatio = oursCpu / rawDurableCpu;
  await record(
    `ingest CPU per GiB received (load ${loadavg()[0]!.toFixed(1)}): webfolder ${oursCpu.toFixed(2)} s${mainPerGib(webfolder)}, raw + fsync ${rawDurableCpu.toFixed(2)} s${mainPerGib(rawDurable)}, raw ${rawCpu.toFixed(2)} s -> ${cpuRatio.toFixed(2)}x raw + fsync (target <= 1.5: ${cpuRatio <= 1.5 ? 'met' : 'NOT met'})${before ? `; the build before ${perGib(before).toFixed(2)} s${mainPerGib(before)} -> ${(perGib(before) / rawDurableCpu).toFixed(2)}x, ${mean(runs.before).toFixed(1)} MiB/s` : ''}`,
  );
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
  await Promise.all([webfolder.stop(), raw.stop(), rawDurable.stop(), before?.stop()]);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
