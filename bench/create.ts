import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import { tempDir } from '../test/support/server.js';
import { ratioLine, record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

/**
 * Empty-folder creation throughput against a bare Fastify route answering a constant JSON, in the
 * same run. Rounds alternate between the two servers so that drift on a shared machine hits both;
 * the median round counts. Target: webfolder >= 0.5 of the bare route.
 */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS_PER_ROUND ?? 5);

async function load(url: string): Promise<number> {
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
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dataDir = await tempDir('webfolder-bench-');
const bare = await startProcess('bench/baselines/bare-fastify.ts', {});
const webfolder = await startProcess(WEBFOLDER, { DATA_DIR: dataDir, ...UNLIMITED, SWEEP_INTERVAL_SECONDS: '3600' });
try {
  await load(bare.url);
  await load(webfolder.url); // warm-up
  const base: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await load(bare.url));
    ours.push(await load(webfolder.url));
  }
  await record(ratioLine('create (empty folder, SQLite)', median(ours), median(base), 'req/s', 0.5));
} finally {
  await Promise.all([bare.stop(), webfolder.stop()]);
  await rm(dataDir, { recursive: true, force: true });
}
