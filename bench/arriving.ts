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
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { download, type UploadState, upload } from '../src/client/node/index.js';
import { spawnServer } from '../test/support/server.js';

const MIB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_SIZE_MIB ?? 512) * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

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
    const times = { up: [] as number[], down: [] as number[], together: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      // Upload alone, then download alone of that copy (verified).
      let t = performance.now();
      const sent = await upload([file], { server: server.baseUrl, concurrency: 4 });
      const up = performance.now() - t;
      await clearOut();
      t = performance.now();
      await download(sent.link, out, { concurrency: 4 });
      await verify();
      const down = performance.now() - t;
      await clearBlobs();
      // Together: the recipient starts as soon as the folder exists (onState, before any chunk).
      await clearOut();
      t = performance.now();
      let started!: (s: UploadState) => void;
      const state = new Promise<UploadState>((resolve) => {
        started = resolve;
      });
      const sending = upload([file], { server: server.baseUrl, concurrency: 4, onState: (s) => started(s) });
      const s = await state;
      const receiving = download(`${s.folderUrl}#${s.secret}`, out, {
        concurrency: 4,
        arrival: { pauseMs: 100, maxPauseMs: 500 },
      });
      await Promise.all([sending, receiving]);
      await verify();
      const together = performance.now() - t;
      await clearBlobs();
      const line = `up ${(up / 1000).toFixed(1)} s, down ${(down / 1000).toFixed(1)} s, together ${(together / 1000).toFixed(1)} s`;
      if (round === 0) {
        process.stdout.write(`warm-up: ${line}\n`);
        continue;
      }
      times.up.push(up);
      times.down.push(down);
      times.together.push(together);
      process.stdout.write(`round ${round}: ${line}\n`);
    }
    const best = (xs: number[]) => Math.min(...xs);
    const longer = Math.max(best(times.up), best(times.down));
    const ratio = best(times.together) / longer;
    process.stdout.write(
      `${SIZE / MIB} MiB: upload alone ${(best(times.up) / 1000).toFixed(1)} s, download alone ${(best(times.down) / 1000).toFixed(1)} s, sum ${((best(times.up) + best(times.down)) / 1000).toFixed(1)} s; sender start -> recipient verified ${(best(times.together) / 1000).toFixed(1)} s = ${ratio.toFixed(2)} x the longer (target <= 1.15: ${ratio <= 1.15 ? 'met' : 'NOT met'}); load average ${loadavg()[0]!.toFixed(1)}\n`,
    );
  } finally {
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
