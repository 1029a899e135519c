import { type ChildProcess, spawn } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { freePort } from '../test/support/server.js';

/**
 * Shared pieces of the benchmarks: every server under test, webfolder or baseline, runs as its own
 * child process, so each is measured the same way with the load generator outside it. These 2-core
 * machines are shared and noisy: only ratios measured in the same run mean anything.
 */
export const ROOT = new URL('../', import.meta.url).pathname;

/** The service as `npm start` runs it: the compiled build (scripts/bench.sh builds it first). */
export const WEBFOLDER = 'dist/main.js';

export interface BenchServer {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export async function startProcess(script: string, env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  // Compiled JavaScript (what `npm start` runs) is started as is; TypeScript through tsx. A relative
  // path is this checkout's; an absolute one may be another's (a build from before a change).
  const path = isAbsolute(script) ? script : join(ROOT, script);
  const args = script.endsWith('.js') ? [path] : ['--import', 'tsx', path];
  // BENCH_SERVER_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops.
  if (process.env.BENCH_SERVER_PROFILE)
    args.unshift('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`);
  if (process.env.BENCH_TRACE_GC) args.unshift('--trace-gc');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', process.env.BENCH_TRACE_GC ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/`, { headers: { accept: 'application/json' } })).ok) break;
    } catch {
      /* starting */
    }
    if (i > 300) throw new Error(`${script} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Generous limits: benchmarks measure throughput, not the rate limiter's refusals. */
export const UNLIMITED = {
  RATE_LIMIT_CREATE: '100000000',
  RATE_LIMIT_STATUS: '100000000',
  RATE_LIMIT_CHUNK: '100000000',
};

/** Peak resident set size (VmHWM) of a process, in bytes. */
export async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) * 1024;
}

export function ratioLine(name: string, value: number, baseline: number, unit: string, target?: number): string {
  const ratio = value / baseline;
  const verdict =
    target === undefined ? '' : ratio >= target ? `  (target >= ${target}: met)` : `  (target >= ${target}: NOT met)`;
  return `${name}: ${value.toFixed(1)} ${unit} vs baseline ${baseline.toFixed(1)} ${unit} -> ratio ${ratio.toFixed(2)}${verdict}`;
}

/** Appends a line to the bench results log (bench/results.log, not committed) for docs/benchmarks.md. */
export async function record(line: string): Promise<void> {
  console.log(line);
  await appendFile(join(ROOT, 'bench', 'results.log'), `${new Date().toISOString()} ${line}\n`);
}
