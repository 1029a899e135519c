import { readdirSync, readFileSync } from 'node:fs';
import { processRole } from '../test/support/chromium-cdp.js';

/**
 * CPU seconds (user + system) spent by groups of processes, read from /proc. On a 2-core machine a
 * throughput figure alone cannot say whether the browser, the server or something else was the
 * limit; the CPU each one used during a phase can.
 */
export type CpuGroups = Record<string, number>;

const TICKS_PER_SECOND = 100;

function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at state; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Chromium's process role, as "chromium browser", "chromium renderer", "chromium NetworkService", ... */
const chromiumRole = (pid: number) => `chromium ${processRole(pid)}`;

/** A snapshot of CPU seconds per group: the named processes, keyed by the given names. */
export function snapshot(groups: Record<string, readonly number[]>, chromiumPids: readonly number[]): CpuGroups {
  const out: CpuGroups = {};
  for (const [name, pids] of Object.entries(groups)) out[name] = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  for (const pid of chromiumPids) {
    const role = chromiumRole(pid);
    out[role] = (out[role] ?? 0) + cpuSeconds(pid);
  }
  return out;
}

/** CPU seconds each group spent between two snapshots, largest first, as "name 1.2 s" parts. */
export function spent(before: CpuGroups, after: CpuGroups): string {
  return Object.entries(after)
    .map(([name, v]) => [name, v - (before[name] ?? 0)] as const)
    .filter(([, v]) => v >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, v]) => `${name} ${v.toFixed(1)} s`)
    .join(', ');
}

function threadCpu(pid: number): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.push([name, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND]);
      } catch {
        /* thread gone */
      }
    }
  } catch {
    /* process gone */
  }
  return out;
}

/**
 * CPU seconds of Chromium's renderer threads by thread name ("renderer: chromium" is a page's main
 * thread; the service worker, dedicated workers and WebCrypto's thread pool have their own names),
 * so that a phase's renderer time can be split between the page, its workers and the pool.
 */
export function rendererThreads(chromiumPids: readonly number[]): CpuGroups {
  const out: CpuGroups = {};
  for (const pid of chromiumPids) {
    if (chromiumRole(pid) !== 'chromium renderer') continue;
    for (const [name, seconds] of threadCpu(pid)) out[`renderer: ${name}`] = (out[`renderer: ${name}`] ?? 0) + seconds;
  }
  return out;
}

/** Resident memory (VmRSS, MiB) of each Chromium process, keyed "role pid". */
export function chromiumRss(chromiumPids: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pid of chromiumPids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      out[`${chromiumRole(pid).replace('chromium ', '')} ${pid}`] = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
    } catch {
      /* gone */
    }
  }
  return out;
}
