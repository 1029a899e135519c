/**
 * Time to recipient, client to client: from the sender's start to the recipient's
 * complete, verified file, when the recipient starts as soon as the folder exists and downloads the
 * file while it is still arriving, against upload alone and download alone, in the same run.
 *
 *   BENCH_SIZE_MIB=512 BENCH_ROUNDS=2 npx tsx bench/arriving.ts
 *
 * The server is a child process on loopback (10 MiB chunks, local blob store); sender and recipient
 * are the library (`upload()`, `download()`) in this process, as the CLI runs them. Rounds interleave
 * the three cases; each case's best round is compared. Target: together <= 1.15 x the longer of upload
 * alone and download alone (without downloading while uploading it is their sum). Each case also
 * prints the CPU seconds the client (this process) and the server used, and how many cores that is
 * over its wall time: on 2 shared cores, whether the run was CPU-bound. BENCH_BEFORE=1 adds, in the
 * same rounds, the recipient as the library used to run it (global fetch, WebCrypto, a look at the
 * listing on every wait). Prints the figures; not part of the test run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { download, type UploadState, upload } from '../src/client/node/index.js';
import { decryptChunk } from '../src/crypto/index.js';
import { spawnServer } from '../test/support/server.js';

const MIB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_SIZE_MIB ?? 512) * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BEFORE = process.env.BENCH_BEFORE === '1';

/** CPU seconds (user + system) of process `pid` so far, from /proc (Linux). */
function processCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** MiB written so far to the machine's disks (/proc/diskstats, whole disks only, 512-byte sectors). */
function diskWritten(): number {
  let sectors = 0;
  for (const line of readFileSync('/proc/diskstats', 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[2] && !/^(loop|ram|zram|dm-|md)/.test(f[2]) && existsSync(`/sys/block/${f[2]}`)) sectors += Number(f[9]);
  }
  return (sectors * 512) / MIB;
}

/** Wall time, the CPU the client (this process) and the server used, and disk writes while `run` ran. */
async function measured(serverPid: number, run: () => Promise<void>): Promise<Sample> {
  const client = process.cpuUsage();
  const server = processCpu(serverPid);
  const disk = diskWritten();
  const t = performance.now();
  await run();
  const wall = (performance.now() - t) / 1000;
  const c = process.cpuUsage(client);
  return {
    wall,
    client: (c.user + c.system) / 1e6,
    server: processCpu(serverPid) - server,
    disk: diskWritten() - disk,
  };
}

interface Sample {
  readonly wall: number;
  readonly client: number;
  readonly server: number;
  /** MiB written to disk by the whole machine meanwhile (others' too). */
  readonly disk: number;
}

/** "12.3 s (client 4.1 + server 6.0 CPU s = 0.82 cores; disk 600 MiB written, 49 MiB/s)". */
const show = (x: Sample) =>
  `${x.wall.toFixed(1)} s (client ${x.client.toFixed(1)} + server ${x.server.toFixed(1)} CPU s = ${((x.client + x.server) / x.wall).toFixed(2)} cores; disk ${x.disk.toFixed(0)} MiB written, ${(x.disk / x.wall).toFixed(0)} MiB/s)`;

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path, { highWaterMark: 4 * MIB })) hash.update(piece as Buffer);
  return hash.digest('hex');
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'webfolder-bench-arriving-'));
  const dataDir = join(work, 'data');
  const server = await spawnServer({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    CHUNK_SIZE_MIB: '10',
    RATE_LIMIT_CHUNK: '1000000',
    RATE_LIMIT_CREATE: '100000',
    RATE_LIMIT_STATUS: '100000',
  });
  const clearBlobs = async () => {
    const blobs = join(dataDir, 'blobs');
    for (const name of await readdir(blobs))
      if (name !== '.incoming') await rm(join(blobs, name), { recursive: true, force: true });
  };
  // BENCH_OUT_DIR=/dev/shm: the recipient saves on another device than the server's store, as a
  // recipient on another machine would (here both otherwise write to the one disk).
  const outParent = process.env.BENCH_OUT_DIR ? await mkdtemp(join(process.env.BENCH_OUT_DIR, 'wf-out-')) : work;
  const out = join(outParent, 'out');
  const clearOut = async () => {
    await rm(out, { recursive: true, force: true });
    await mkdir(out);
  };
  try {
    const file = join(work, 'payload.bin');
    const handle = await open(file, 'w');
    for (let at = 0; at < SIZE; at += 64 * MIB) await handle.write(randomBytes(Math.min(64 * MIB, SIZE - at)));
    await handle.close();
    const expected = await sha256(file);
    const verify = async () => {
      const got = await sha256(join(out, 'payload.bin'));
      if (got !== expected) throw new Error('the downloaded file differs from the original');
    };
    const times = { up: [] as Sample[], down: [] as Sample[], together: [] as Sample[], before: [] as Sample[] };
    const pid = server.child.pid!;
    for (let round = 0; round <= ROUNDS; round++) {
      // Upload alone, then download alone of that copy (verified).
      let sent!: Awaited<ReturnType<typeof upload>>;
      const up = await measured(pid, async () => {
        sent = await upload([file], { server: server.baseUrl, concurrency: 4 });
      });
      await clearOut();
      const down = await measured(pid, async () => {
        await download(sent.link, out, { concurrency: 4 });
        await verify();
      });
      await clearBlobs();
      // Together: the recipient starts as soon as the folder exists (onState, before any chunk),
      // with the library's default waiting (arriving.ts); and the same as the library did before
      // (BENCH_BEFORE=1: fetch + WebCrypto, a look at the listing on every wait, pauses 250 ms to 2 s).
      const together = await bothAtOnce(false);
      const before = BEFORE ? await bothAtOnce(true) : null;
      const line = `up ${show(up)}; down ${show(down)}; together ${show(together.sample)}, ${together.waits} waits${before ? `; together before ${show(before.sample)}, ${before.waits} waits` : ''}`;
      if (round === 0) {
        process.stdout.write(`warm-up: ${line}\n`);
        continue;
      }
      times.up.push(up);
      times.down.push(down);
      times.together.push(together.sample);
      if (before) times.before.push(before.sample);
      process.stdout.write(`round ${round}: ${line}\n`);
    }
    async function bothAtOnce(old: boolean): Promise<{ sample: Sample; waits: number }> {
      await clearOut();
      let waits = 0;
      const sample = await measured(pid, async () => {
        let started!: (s: UploadState) => void;
        const state = new Promise<UploadState>((resolve) => {
          started = resolve;
        });
        const sending = upload([file], { server: server.baseUrl, concurrency: 4, onState: (s) => started(s) });
        const s = await state;
        const receiving = download(`${s.folderUrl}#${s.secret}`, out, {
          concurrency: 4,
          onWaiting: () => waits++,
          ...(old
            ? {
                fetch: (url: string, init: RequestInit) => fetch(url, init),
                decrypt: decryptChunk,
                arrival: { pauseMs: 250, maxPauseMs: 2000, lookEveryMs: 0 },
              }
            : {}),
        });
        await Promise.all([sending, receiving]);
        await verify();
      });
      await clearBlobs();
      return { sample, waits };
    }
    const best = (xs: Sample[]) => xs.reduce((a, b) => (b.wall < a.wall ? b : a));
    const [bu, bd, bt] = [best(times.up), best(times.down), best(times.together)];
    const longer = Math.max(bu.wall, bd.wall);
    const ratio = bt.wall / longer;
    process.stdout.write(
      `${SIZE / MIB} MiB, best of each: upload alone ${show(bu)}, download alone ${show(bd)}, sum ${(bu.wall + bd.wall).toFixed(1)} s; sender start -> recipient verified ${show(bt)} = ${ratio.toFixed(2)} x the longer (target <= 1.15: ${ratio <= 1.15 ? 'met' : 'NOT met'}); CPU together / (upload + download alone) ${((bt.client + bt.server) / (bu.client + bu.server + bd.client + bd.server)).toFixed(2)}; load average ${loadavg()[0]!.toFixed(1)}\n`,
    );
    if (BEFORE) {
      const bb = best(times.before);
      process.stdout.write(
        `before (fetch + WebCrypto, listing on every wait): ${show(bb)} = ${(bb.wall / longer).toFixed(2)} x the longer\n`,
      );
    }
  } finally {
    await server.stop();
    await rm(work, { recursive: true, force: true });
    await rm(outParent, { recursive: true, force: true });
  }
}

await main();
