/**
 * Time to recipient in Chromium: from the sender picking a file in the folder page to the
 * recipient's complete, verified file, when the recipient opens the link while the upload runs and
 * downloads the file as it arrives. Sender and recipient are two Chromium processes (two people),
 * each driven over the DevTools protocol without its Network domain (test/support/chromium-cdp.ts),
 * against the compiled server (`npm run build` first) with 10 MiB chunks on the local blob store.
 *
 *   CHROMIUM_PATH=/usr/bin/chromium BENCH_ROUNDS=1 npx tsx bench/browser-arriving.ts [sizeMiB=1024]
 *   BENCH_UPLINK_MBPS=12.5,50 ... bench/browser-arriving.ts 256
 *
 * Uncapped (the default), each round runs, in fresh folders: upload alone; download alone (of that
 * upload, by the recipient); together (the recipient opens the link as soon as the sender's page
 * lists the file, clicks Download at once, and the clock stops when its download manager has the
 * last byte). Target: together <= 1.15 x the longer of the two alone. Caveat: on one 2-core machine
 * sender, recipient and server each need most of a core, so the overlap cannot show here.
 *
 * With BENCH_UPLINK_MBPS (MB/s, comma-separated), the sender's link is capped as people have it: a
 * second sender Chromium goes through a proxy that paces everything it sends (bench/uplink-proxy.ts)
 * and the recipient is not capped. Each cap's round measures the capped upload alone and together;
 * target: the recipient's verified file within 1.05 x the upload alone.
 *
 * Every round runs against its own server process and data directory, removed after the round.
 * Every downloaded file is checked by SHA-256 against the picked one. Also prints each Chromium's
 * peak largest process. Not part of the test run.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchBrowser, launchChromium } from './chromium-cdp.js';
import { chromiumRss } from './cpu-time.js';
import { record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';
import { startUplinkProxy } from './uplink-proxy.js';

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

const BUTTON = '#files li button.download:not([disabled])';

/** One round's server: its own process and data directory, gone after the round. */
async function withServer<T>(work: string, run: (url: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(work, 'data-'));
  const server = await startProcess(WEBFOLDER, { DATA_DIR: dataDir, ...UNLIMITED, CHUNK_SIZE_MIB: '10' });
  try {
    return await run(server.url);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The steps of a round, for one sender and one recipient against the server at `url`. */
function steps(url: string, sender: BenchBrowser, recipient: BenchBrowser, file: string, downloads: string) {
  const newFolder = async () => {
    const created = await fetch(`${url}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'send', title: 'bench' }),
    });
    return ((await created.json()) as { folderUrl: string }).folderUrl;
  };
  return {
    /** The sender's page on a fresh folder, ready to pick; answers the share link (with the secret). */
    async senderReady(): Promise<string> {
      await sender.navigate(await newFolder());
      await sender.waitFor(`document.querySelector('#file-input')`);
      await sender.waitFor('navigator.serviceWorker.controller');
      return sender.evaluate<string>('location.href');
    },
    async upload(): Promise<void> {
      await sender.setInputFiles('#file-input', [file]);
      await sender.waitFor(`document.querySelector('#upload-status[data-state="complete"]')`, 60 * 60_000);
    },
    /** The recipient opens `link`, clicks Download once it can, and waits for the whole file. */
    async receive(link: string): Promise<void> {
      await rm(downloads, { recursive: true, force: true });
      await mkdir(downloads);
      await recipient.navigate(link);
      await recipient.waitFor('navigator.serviceWorker.controller');
      await recipient.waitFor(`document.querySelector('${BUTTON}')`, 10 * 60_000);
      const { finished } = await recipient.nextDownload(downloads);
      await recipient.evaluate(`document.querySelector('${BUTTON}').click()`);
      const bytes = await finished;
      if (bytes !== size) throw new Error(`downloaded ${bytes} bytes, expected ${size}`);
    },
    /** Upload and download together: the recipient opens the link once the sender's page lists the file. */
    async together(link: string): Promise<{ value: number; peaks: number[] }> {
      return sampled([sender, recipient], async () => {
        const start = performance.now();
        const uploaded = this.upload();
        await sender.waitFor(`document.querySelector('#files li[data-file-id]')`, 10 * 60_000);
        await Promise.all([uploaded, this.receive(link)]);
        return performance.now() - start;
      });
    },
  };
}

const timed = async (run: () => Promise<unknown>) => {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mbps = (ms: number) => (size / 1e6 / (ms / 1000)).toFixed(0);
const load = () => loadavg()[0]!.toFixed(1);

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'webfolder-bench-tt-recipient-'));
  const downloads = join(work, 'downloads');
  const caps = (process.env.BENCH_UPLINK_MBPS ?? '').split(',').filter(Boolean).map(Number);
  const sender = await launchChromium();
  const recipient = await launchChromium();
  const file = join(work, 'big.bin');
  try {
    await writeBigFile(file);
    const expected = await sha256(file);
    const verify = async () => {
      const [name] = await readdir(downloads);
      if (!name || (await sha256(join(downloads, name))) !== expected) throw new Error('the downloaded file differs');
    };
    if (caps.length === 0) await uncapped(work, sender, recipient, file, downloads, verify);
    for (const cap of caps) await capped(cap, work, recipient, file, downloads, verify);
  } finally {
    await sender.close();
    await recipient.close();
    await rm(work, { recursive: true, force: true });
  }
}

async function uncapped(
  work: string,
  sender: BenchBrowser,
  recipient: BenchBrowser,
  file: string,
  downloads: string,
  verify: () => Promise<void>,
): Promise<void> {
  const results: { up: number; down: number; together: number; peaks: number[] }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const r = await withServer(work, async (url) => {
      const s = steps(url, sender, recipient, file, downloads);
      const link = await s.senderReady();
      const up = await timed(() => s.upload());
      const down = await timed(() => s.receive(link));
      await verify();
      const together = await s.together(await s.senderReady());
      await verify();
      return { up, down, together: together.value, peaks: together.peaks };
    });
    results.push(r);
    console.log(
      `round ${round}: upload alone ${seconds(r.up)}, download alone ${seconds(r.down)}, together ${seconds(r.together)} (load ${load()})`,
    );
  }
  const best = (k: 'up' | 'down' | 'together') => Math.min(...results.map((r) => r[k]));
  const longer = Math.max(best('up'), best('down'));
  const ratio = best('together') / longer;
  await record(
    `browser time to recipient: Chromium ${sender.version}, ${sizeMiB} MiB, ${ROUNDS} round(s), load ${load()}: upload alone ${seconds(best('up'))} (${mbps(best('up'))} MB/s), download alone ${seconds(best('down'))} (${mbps(best('down'))} MB/s), together ${seconds(best('together'))} -> ${ratio.toFixed(2)}x the longer (target <= 1.15: ${ratio <= 1.15 ? 'met' : 'NOT met'}); ${(best('together') / (best('up') + best('down'))).toFixed(2)}x their sum; largest process during together: sender ${results[0]!.peaks[0]!.toFixed(0)} MiB, recipient ${results[0]!.peaks[1]!.toFixed(0)} MiB; sha256 checked; uncapped on one machine, where sender, recipient and server share 2 cores`,
  );
}

async function capped(
  mbPerSecond: number,
  work: string,
  recipient: BenchBrowser,
  file: string,
  downloads: string,
  verify: () => Promise<void>,
): Promise<void> {
  const proxy = await startUplinkProxy(mbPerSecond * 1e6);
  // Loopback is bypassed by default; `<-loopback>` sends it through the proxy too.
  const sender = await launchChromium([`--proxy-server=${proxy.address}`, '--proxy-bypass-list=<-loopback>']);
  try {
    const results: { up: number; together: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const r = await withServer(work, async (url) => {
        const s = steps(url, sender, recipient, file, downloads);
        await s.senderReady();
        const sentBefore = proxy.sent();
        const up = await timed(() => s.upload());
        if (proxy.sent() - sentBefore < size) throw new Error('the upload did not go through the capped link');
        const together = await s.together(await s.senderReady());
        await verify();
        return { up, together: together.value };
      });
      results.push(r);
      console.log(
        `uplink ${mbPerSecond} MB/s, round ${round}: upload alone ${seconds(r.up)}, recipient's verified file ${seconds(r.together)} (load ${load()})`,
      );
    }
    const up = Math.min(...results.map((r) => r.up));
    const together = Math.min(...results.map((r) => r.together));
    const ratio = together / up;
    await record(
      `browser time to recipient, sender's uplink capped at ${mbPerSecond} MB/s: Chromium ${sender.version}, ${sizeMiB} MiB, ${ROUNDS} round(s), load ${load()}: upload alone ${seconds(up)} (${mbps(up)} MB/s), recipient's verified file ${seconds(together)} -> ${ratio.toFixed(2)}x the upload alone (target <= 1.05: ${ratio <= 1.05 ? 'met' : 'NOT met'}); sha256 checked`,
    );
  } finally {
    await sender.close();
    await proxy.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
