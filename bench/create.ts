import { readFileSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { tempDir } from '../test/support/server.js';
import { ratioLine, record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

/**
 * Empty-folder creation throughput against a bare Fastify route answering a constant JSON, in the
 * same run. Rounds alternate between the two servers so that drift on a shared machine hits both;
 * the median round counts. Target: webfolder >= 0.5 of the bare route, every create durable (its
 * folder and audit entry in one fsynced commit). Each create waits for a group commit, so with 50
 * connections throughput is bounded by 50 / (commit latency): the run also prints the latency of one
 * 4 KiB write + fdatasync on the data directory's disk, measured after the rounds.
 * BENCH_BEFORE=<another checkout's dist/main.js>: that build runs in the same rounds too (its own
 * data directory), for a before/after of a change measured in one run.
 */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS_PER_ROUND ?? 5);

/** CPU seconds (user + system) a process has used so far: every thread, and its main thread alone. */
function cpuSeconds(pid: number): { all: number; main: number } {
  const read = (path: string) => {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  return { all: read(`/proc/${pid}/stat`), main: read(`/proc/${pid}/task/${pid}/stat`) };
}

/** Server CPU seconds (all threads, main thread) per 1000 creates, summed over every round of that server. */
const cost = new Map<string, { cpu: number; main: number; requests: number }>();

async function load(url: string, pid?: number): Promise<number> {
  const cpu0 = pid === undefined ? { all: 0, main: 0 } : cpuSeconds(pid);
  const result = await autocannon({
    url: `${url}/v2/folders`,
    method: 'POST',
    connections: 50,
    duration: SECONDS,
    headers: { 'content-type': 'application/json' },
    body: '{"title":"bench","mode":"send"}',
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  if (pid !== undefined) {
    const sum = cost.get(url) ?? { cpu: 0, main: 0, requests: 0 };
    const cpu1 = cpuSeconds(pid);
    cost.set(url, {
      cpu: sum.cpu + cpu1.all - cpu0.all,
      main: sum.main + cpu1.main - cpu0.main,
      requests: sum.requests + result.requests.total,
    });
  }
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The median latency (ms) of a 4 KiB write + fdatasync in `dir`, over 100 of them. */
async function syncLatency(dir: string): Promise<number> {
  const handle = await open(join(dir, 'sync-probe'), 'w');
  const block = Buffer.alloc(4096, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await handle.write(block, 0, block.length, (i % 8) * block.length);
      await handle.datasync();
      times.push(performance.now() - t0);
    }
  } finally {
    await handle.close();
  }
  return median(times);
}

const dataDir = await tempDir('webfolder-bench-');
const beforeDir = await tempDir('webfolder-bench-before-');
const serverEnv = (dir: string) => ({ DATA_DIR: dir, ...UNLIMITED, SWEEP_INTERVAL_SECONDS: '3600' });
const bare = await startProcess('bench/baselines/bare-fastify.ts', {});
const webfolder = await startProcess(WEBFOLDER, serverEnv(dataDir));
const before = process.env.BENCH_BEFORE ? await startProcess(process.env.BENCH_BEFORE, serverEnv(beforeDir)) : null;
try {
  await load(bare.url);
  await load(webfolder.url); // warm-up
  if (before) await load(before.url);
  const base: number[] = [];
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await load(bare.url, bare.child.pid));
    ours.push(await load(webfolder.url, webfolder.child.pid));
    if (before) theirs.push(await load(before.url, before.child.pid));
  }
  const sync = await syncLatency(dataDir);
  const perThousand = (url: string) => {
    const c = cost.get(url)!;
    return `${((c.cpu / c.requests) * 1000).toFixed(2)} (main thread ${((c.main / c.requests) * 1000).toFixed(2)})`;
  };
  const context = `load ${loadavg()[0]!.toFixed(1)}, write + fdatasync ${sync.toFixed(2)} ms; server CPU s per 1000 creates ${perThousand(webfolder.url)} (bare ${perThousand(bare.url)}${before ? `, before ${perThousand(before.url)}` : ''})`;
  await record(`${ratioLine('create (empty folder, SQLite)', median(ours), median(base), 'req/s', 0.5)}; ${context}`);
  if (before)
    await record(
      `${ratioLine('create, the build before (same rounds)', median(theirs), median(base), 'req/s')}; this build / before ${(median(ours) / median(theirs)).toFixed(2)}`,
    );
} finally {
  await Promise.all([bare.stop(), webfolder.stop(), before?.stop()]);
  await rm(dataDir, { recursive: true, force: true });
  await rm(beforeDir, { recursive: true, force: true });
}
