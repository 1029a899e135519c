/**
 * Time to recipient in Chromium (issue #25 item 2): from the sender picking a file in the folder
 * page to the recipient's complete, verified file, when the recipient opens the link while the upload
 * runs and downloads the file as it arrives, against upload alone and download alone measured in the
 * same run. Sender and recipient are two Chromium processes (two people), each driven over the
 * DevTools protocol without its Network domain (test/support/chromium-cdp.ts), against the compiled
 * server (`npm run build` first) with 10 MiB chunks on the local blob store.
 *
 *   CHROMIUM_PATH=/usr/bin/chromium BENCH_ROUNDS=1 npx tsx bench/browser-arriving.ts [sizeMiB=1024]
 *
 * Each round runs, in fresh folders: upload alone; download alone (of that upload, by the recipient);
 * together (the recipient opens the link as soon as the sender's page lists the file, clicks Download
 * at once, and the clock stops when its download manager has the last byte). Every downloaded file
 * is checked by SHA-256 against the picked one. Target: together <= 1.15 x the longer of the two
 * alone (without streaming an arriving file it is their sum). Also prints each Chromium's peak
 * largest process. Not part of the test run.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchBrowser, launchChromium } from './chromium-cdp.js';
import { chromiumRss } from './cpu-time.js';
import { record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

const MIB = 1024 * 1024;
const sizeMiB = Number(process.argv[2] ?? 1024);
const size = sizeMiB * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);

async function writeBigFile(path: string): Promise<void> {
  // Not compressible and not repeating within a chunk: an RFC 8188 chunk of it is like any file's.
  const piece = Buffer.alloc(8 * MIB);
  let x = 0x9e3779b9;
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += piece.length) {
    for (let i = 0; i < piece.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      piece.writeInt32LE(x | 0, i);
    }
    if (!out.write(Buffer.from(piece.subarray(0, Math.min(piece.length, size - written)))))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path, { highWaterMark: 4 * MIB })) hash.update(piece as Buffer);
  return hash.digest('hex');
}

/** The largest Chromium process's peak RSS (MiB) of each browser while `run` runs. */
async function sampled<T>(
  browsers: readonly BenchBrowser[],
  run: () => Promise<T>,
): Promise<{ value: T; peaks: number[] }> {
  const peaks = browsers.map(() => 0);
  const sample = () =>
    browsers.forEach((b, i) => {
      peaks[i] = Math.max(peaks[i]!, ...Object.values(chromiumRss(b.pids())));
    });
  const timer = setInterval(sample, 100);
  try {
    const value = await run();
    sample();
    return { value, peaks };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'webfolder-bench-tt-recipient-'));
  const dataDir = join(work, 'data');
  const downloads = join(work, 'downloads');
  const server = await startProcess(WEBFOLDER, { DATA_DIR: dataDir, ...UNLIMITED, CHUNK_SIZE_MIB: '10' });
  const sender = await launchChromium();
  const recipient = await launchChromium();
  const file = join(work, 'big.bin');
  try {
    await writeBigFile(file);
    const expected = await sha256(file);
    const newFolder = async () => {
      const created = await fetch(`${server.url}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'send', title: 'bench' }),
      });
      return ((await created.json()) as { folderUrl: string }).folderUrl;
    };
    /** The sender's page on a fresh folder, ready to pick; answers the share link (with the secret). */
    const senderReady = async (): Promise<string> => {
      await sender.navigate(await newFolder());
      await sender.waitFor(`document.querySelector('#file-input')`);
      await sender.waitFor('navigator.serviceWorker.controller');
      return sender.evaluate<string>('location.href');
    };
    const upload = async () => {
      await sender.setInputFiles('#file-input', [file]);
      await sender.waitFor(`document.querySelector('#upload-status[data-state="complete"]')`, 60 * 60_000);
    };
    const button = '#files li button.download:not([disabled])';
    /** The recipient opens `link`, clicks Download once it can, and waits for the verified file. */
    const receive = async (link: string) => {
      await rm(downloads, { recursive: true, force: true });
      await mkdir(downloads);
      await recipient.navigate(link);
      await recipient.waitFor('navigator.serviceWorker.controller');
      await recipient.waitFor(`document.querySelector('${button}')`, 10 * 60_000);
      const { finished } = await recipient.nextDownload(downloads);
      await recipient.evaluate(`document.querySelector('${button}').click()`);
      const bytes = await finished;
      if (bytes !== size) throw new Error(`downloaded ${bytes} bytes, expected ${size}`);
    };
    const verify = async () => {
      const [name] = await readdir(downloads);
      if (!name || (await sha256(join(downloads, name))) !== expected) throw new Error('the downloaded file differs');
    };
    const results: { up: number; down: number; together: number; peaks: number[] }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const link = await senderReady();
      let t0 = performance.now();
      await upload();
      const up = performance.now() - t0;
      t0 = performance.now();
      await receive(link);
      const down = performance.now() - t0;
      await verify();

      const fresh = await senderReady();
      const together = await sampled([sender, recipient], async () => {
        const start = performance.now();
        const uploaded = upload();
        // The recipient opens the link once the sender's page lists the file (it is registered).
        await sender.waitFor(`document.querySelector('#files li[data-file-id]')`, 10 * 60_000);
        await Promise.all([uploaded, receive(fresh)]);
        return performance.now() - start;
      });
      await verify();
      const r = { up, down, together: together.value, peaks: together.peaks };
      results.push(r);
      console.log(
        `round ${round}: upload alone ${(up / 1000).toFixed(1)} s, download alone ${(down / 1000).toFixed(1)} s, together ${(r.together / 1000).toFixed(1)} s (load ${loadavg()[0]!.toFixed(1)})`,
      );
      await rm(dataDir, { recursive: true, force: true }).catch(() => {});
    }
    const best = (k: 'up' | 'down' | 'together') => Math.min(...results.map((r) => r[k]));
    const longer = Math.max(best('up'), best('down'));
    const ratio = best('together') / longer;
    const mbps = (ms: number) => (size / 1e6 / (ms / 1000)).toFixed(0);
    await record(
      `browser time to recipient: Chromium ${sender.version}, ${sizeMiB} MiB, ${ROUNDS} round(s), load ${loadavg()[0]!.toFixed(1)}: upload alone ${(best('up') / 1000).toFixed(1)} s (${mbps(best('up'))} MB/s), download alone ${(best('down') / 1000).toFixed(1)} s (${mbps(best('down'))} MB/s), together ${(best('together') / 1000).toFixed(1)} s -> ${ratio.toFixed(2)}x the longer (target <= 1.15: ${ratio <= 1.15 ? 'met' : 'NOT met'}); ${(best('together') / (best('up') + best('down'))).toFixed(2)}x their sum; largest process during together: sender ${results[0]!.peaks[0]!.toFixed(0)} MiB, recipient ${results[0]!.peaks[1]!.toFixed(0)} MiB; sha256 checked`,
    );
  } finally {
    await sender.close();
    await recipient.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
