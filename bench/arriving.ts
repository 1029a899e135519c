/**
 * Time to recipient (issue #25), client to client: from the sender's start to the recipient's
 * complete, verified file, when the recipient starts as soon as the folder exists and downloads the
 * file while it is still arriving, against upload alone and download alone, in the same run.
 *
 *   BENCH_SIZE_MIB=512 BENCH_ROUNDS=2 npx tsx bench/arriving.ts
 *
 * The server is a child process on loopback (10 MiB chunks, local blob store); sender and recipient
 * are the library (`upload()`, `download()`) in this process, as the CLI runs them. Rounds interleave
 * the three cases; each case's best round is compared. Target: together <= 1.15 x the longer of upload
 * alone and download alone (without downloading while uploading it is their sum). Prints the figures;
 * not part of the test run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { download, type UploadState, upload } from '../src/client/node/index.js';
import { spawnServer } from '../test/support/server.js';

const MIB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_SIZE_MIB ?? 512) * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** CPU seconds (user + system) of process `pid` so far, from /proc (Linux). */
function processCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Wall time and the CPU the client (this process) and the server used while `run` ran. */
async function measured(serverPid: number, run: () => Promise<void>): Promise<Sample> {
  const client = process.cpuUsage();
  const server = processCpu(serverPid);
  const t = performance.now();
  await run();
  const wall = (performance.now() - t) / 1000;
  const c = process.cpuUsage(client);
  return { wall, client: (c.user + c.system) / 1e6, server: processCpu(serverPid) - server };
}

interface Sample {
  readonly wall: number;
  readonly client: number;
  readonly server: number;
}

/** "12.3 s (client 4.1 + server 6.0 CPU s = 0.82 cores)". */
const show = (x: Sample) =>
  `${x.wall.toFixed(1)} s (client ${x.client.toFixed(1)} + server ${x.server.toFixed(1)} CPU s = ${((x.client + x.server) / x.wall).toFixed(2)} cores)`;

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
  const out = join(work, 'out');
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
    const times = { up: [] as Sample[], down: [] as Sample[], together: [] as Sample[] };
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
      // with the library's default waiting (arriving.ts).
      await clearOut();
      let waits = 0;
      const together = await measured(pid, async () => {
        let started!: (s: UploadState) => void;
        const state = new Promise<UploadState>((resolve) => {
          started = resolve;
        });
        const sending = upload([file], { server: server.baseUrl, concurrency: 4, onState: (s) => started(s) });
        const s = await state;
        const receiving = download(`${s.folderUrl}#${s.secret}`, out, {
          concurrency: 4,
          onWaiting: () => waits++,
        });
        await Promise.all([sending, receiving]);
        await verify();
      });
      await clearBlobs();
      const line = `up ${show(up)}; down ${show(down)}; together ${show(together)}, ${waits} waits`;
      if (round === 0) {
        process.stdout.write(`warm-up: ${line}\n`);
        continue;
      }
      times.up.push(up);
      times.down.push(down);
      times.together.push(together);
      process.stdout.write(`round ${round}: ${line}\n`);
    }
    const best = (xs: Sample[]) => xs.reduce((a, b) => (b.wall < a.wall ? b : a));
    const [bu, bd, bt] = [best(times.up), best(times.down), best(times.together)];
    const longer = Math.max(bu.wall, bd.wall);
    const ratio = bt.wall / longer;
    process.stdout.write(
      `${SIZE / MIB} MiB, best of each: upload alone ${show(bu)}, download alone ${show(bd)}, sum ${(bu.wall + bd.wall).toFixed(1)} s; sender start -> recipient verified ${show(bt)} = ${ratio.toFixed(2)} x the longer (target <= 1.15: ${ratio <= 1.15 ? 'met' : 'NOT met'}); CPU together / (upload + download alone) ${((bt.client + bt.server) / (bu.client + bu.server + bd.client + bd.server)).toFixed(2)}; load average ${loadavg()[0]!.toFixed(1)}\n`,
    );
  } finally {
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
