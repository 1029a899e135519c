/**
 * The download's Chromium CPU per GiB by path, in one headed Chromium on Xvfb (the file picker needs
 * a display; headless Chromium has none), all in one run (not part of the test run):
 *
 * - plain: the file as an attachment from a minimal node:http server, saved by the download manager;
 * - service-worker pass-through: the same bytes through a service-worker stream with no cryptography
 *   (10 MiB slices fetched 3 ahead, handed on in 1 MiB pieces), saved by the download manager;
 * - site, service worker: webfolder's download as every browser gets it by default: the page's
 *   crypto workers fetch and decrypt, the service worker streams the response, the download manager
 *   saves it;
 * - site, picked file (`localStorage['webfolder.saveFile'] = '1'`): the person picks the place (the
 *   GTK dialog, answered through XTEST: test/support/x11-dialog.py), a crypto worker writes each
 *   decrypted chunk into the picked file (web/src/workers/file-saver.ts).
 *
 * Targets: picked file <= 1.6x plain's Chromium CPU per GiB; service worker <= 0.8x the
 * pass-through's. The save dialog's own CPU (GTK, in the browser process, once per download) is
 * measured apart from the transfer's. Plain and pass-through run before
 * and after the site's phases and are averaged. Each saved file's size is checked, the picked
 * file's sha256 too. The server is the compiled build (`npm run build` first).
 *
 *   npx tsx bench/browser-save-file.ts [sizeMiB=512]
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startXvfb } from '../test/support/xvfb.js';
import { type BenchBrowser, launchChromium } from './chromium-cdp.js';
import { chromiumRss, rendererThreads, snapshot } from './cpu-time.js';
import { record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

const MIB = 1024 * 1024;
const CHUNK_MIB = 10;
const sizeMiB = Number(process.argv[2] ?? 512);
const size = sizeMiB * MIB;
const GIB = size / (1024 * MIB);

async function writeBigFile(path: string): Promise<string> {
  const piece = Buffer.alloc(8 * MIB);
  for (let i = 0; i < piece.length; i++) piece[i] = (i * 2654435761) >>> 24;
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += piece.length) {
    const part = piece.subarray(0, Math.min(piece.length, size - written));
    hash.update(part);
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return hash.digest('hex');
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const part of createReadStream(path)) hash.update(part as Buffer);
  return hash.digest('hex');
}

const PASS_THROUGH_WORKER = `
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (!event.request.url.endsWith('/sw/plain.bin')) return;
  const total = ${size}, slice = ${CHUNK_MIB * MIB}, count = Math.ceil(total / slice), ahead = 3;
  const pending = new Map();
  let index = 0;
  const start = (n) => {
    if (n < count && !pending.has(n))
      pending.set(n, fetch('/slice/' + n).then((r) => { if (!r.ok) throw new Error('slice ' + n); return r.arrayBuffer(); }));
  };
  const body = new ReadableStream({
    async pull(controller) {
      if (index === count) { controller.close(); return; }
      for (let n = index; n <= index + ahead; n++) start(n);
      const bytes = new Uint8Array(await pending.get(index));
      pending.delete(index);
      for (let at = 0; at < bytes.length; at += 1048576) controller.enqueue(bytes.subarray(at, at + 1048576));
      index++;
    },
  }, { highWaterMark: 1 });
  event.respondWith(new Response(body, { headers: {
    'content-type': 'application/octet-stream',
    'content-length': String(total),
    'content-disposition': 'attachment; filename="passthrough.bin"',
  } }));
});`;

/** The plain baselines' server: the file as an attachment, its 10 MiB slices, the pass-through worker. */
async function plainServer(file: string): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const slice = /^\/slice\/(\d+)$/.exec(req.url ?? '');
    if (slice) {
      const start = Number(slice[1]) * CHUNK_MIB * MIB;
      const end = Math.min(size, start + CHUNK_MIB * MIB) - 1;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(end - start + 1) });
      createReadStream(file, { start, end, highWaterMark: MIB }).pipe(res);
    } else if (req.url === '/sw/sw.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(PASS_THROUGH_WORKER);
    } else if (req.url === '/plain.bin') {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(size),
        'content-disposition': 'attachment; filename="plain.bin"',
      });
      createReadStream(file, { highWaterMark: MIB }).pipe(res);
    } else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>plain');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => server.close(),
      }),
    ),
  );
}

async function downloadManager(browser: BenchBrowser, downloads: string, href: string): Promise<number> {
  const { finished } = await browser.nextDownload(downloads);
  const t0 = performance.now();
  await browser.evaluate(
    `(() => { const a = document.createElement('a'); a.href = '${href}'; document.body.append(a); a.click(); a.remove(); })()`,
  );
  const bytes = await finished;
  if (bytes !== size) throw new Error(`${href}: ${bytes} bytes, expected ${size}`);
  return performance.now() - t0;
}

interface Phase {
  readonly label: string;
  readonly ms: number;
  readonly cpu: Record<string, number>;
  /** The largest growth of one Chromium process's VmRSS during the phase (MiB), and which. */
  readonly growth: { readonly mib: number; readonly process: string };
}
const chromiumCpu = (p: Phase) =>
  Object.entries(p.cpu)
    .filter(([k]) => k.startsWith('chromium '))
    .reduce((sum, [, v]) => sum + v, 0) / GIB;
const describe = (p: Phase) =>
  `${p.label}: ${(size / 1e6 / (p.ms / 1000)).toFixed(0)} MB/s, Chromium ${chromiumCpu(p).toFixed(1)} CPU s/GiB (${Object.entries(
    p.cpu,
  )
    .filter(([, v]) => v / GIB >= 0.1)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${(v / GIB).toFixed(1)}`)
    .join(', ')}); largest process growth +${p.growth.mib.toFixed(0)} MiB (${p.growth.process})`;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'webfolder-bench-save-'));
  const dataDir = await mkdtemp(join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'webfolder-bench-data-'));
  const server = await startProcess(WEBFOLDER, { DATA_DIR: dataDir, ...UNLIMITED, CHUNK_SIZE_MIB: String(CHUNK_MIB) });
  const xvfb = await startXvfb();
  const browser = await launchChromium([], { display: xvfb.display });
  const load: number[] = [];
  const phases: Phase[] = [];
  const phase = async (label: string, run: () => Promise<number>) => {
    const cpu = () => ({
      ...snapshot({ server: [server.child.pid!] }, browser.pids()),
      ...rendererThreads(browser.pids()),
    });
    load.push(loadavg()[0]!);
    const start = chromiumRss(browser.pids());
    const growth = { mib: 0, process: '-' };
    const sample = () => {
      for (const [k, v] of Object.entries(chromiumRss(browser.pids())))
        if (v - (start[k] ?? v) > growth.mib) Object.assign(growth, { mib: v - (start[k] ?? v), process: k });
    };
    const sampler = setInterval(sample, 100);
    const before = cpu();
    let ms: number;
    try {
      ms = await run();
    } finally {
      clearInterval(sampler);
    }
    sample();
    const after = cpu();
    const used = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
    const p: Phase = { label, ms, cpu: used, growth };
    phases.push(p);
    console.log(describe(p));
    return p;
  };
  try {
    const file = join(dir, 'big.bin');
    const digest = await writeBigFile(file);
    const plain = await plainServer(file);
    const downloads = join(dir, 'downloads');
    const clear = async () => {
      await rm(downloads, { recursive: true, force: true });
      await mkdir(downloads);
    };
    await clear();
    const plainRun = async (when: string) => {
      await browser.navigate(`${plain.url}/`);
      const p = await phase(`plain download (attachment, download manager), ${when}`, () =>
        downloadManager(browser, downloads, `${plain.url}/plain.bin`),
      );
      await clear();
      await browser.navigate(`${plain.url}/sw/`);
      await browser.evaluate(`navigator.serviceWorker.register('/sw/sw.js', { scope: '/sw/' }).then(() => true)`);
      await browser.waitFor('navigator.serviceWorker.controller');
      const s = await phase(`service-worker pass-through (no cryptography), ${when}`, () =>
        downloadManager(browser, downloads, '/sw/plain.bin'),
      );
      await clear();
      return { p, s };
    };
    const before = await plainRun('before');

    const created = await fetch(`${server.url}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'send', title: 'bench' }),
    });
    const { folderUrl } = (await created.json()) as { folderUrl: string };
    await browser.navigate(folderUrl);
    await browser.waitFor(`document.querySelector('#file-input')`);
    await browser.waitFor('navigator.serviceWorker.controller');
    await browser.setInputFiles('#file-input', [file]);
    await browser.waitFor(`document.querySelector('#upload-status[data-state="complete"]')`, 30 * 60_000);
    const button = `#files li button.download:not([disabled])`;
    await browser.waitFor(`document.querySelector('${button}')`);

    // The service worker's download, as every browser gets it by default.
    const sw = await phase('site download, service worker (crypto workers, download manager)', async () => {
      const { finished } = await browser.nextDownload(downloads);
      const t0 = performance.now();
      await browser.evaluate(`document.querySelector('${button}').click()`);
      const bytes = await finished;
      if (bytes !== size) throw new Error(`service worker: ${bytes} bytes, expected ${size}`);
      return performance.now() - t0;
    });
    await clear();
    await browser.evaluate(`localStorage.setItem('webfolder.saveFile', '1')`);
    await browser.waitFor(`document.querySelector('${button}')`);

    const target = join(downloads, 'picked.bin');
    // The GTK dialog runs in the browser process and costs it CPU while it is open (once per
    // download, not per GiB): measured on its own, and the transfer from the moment it is answered.
    const dialog = await phase('the save dialog alone, open until answered (once per download)', async () => {
      const answered = xvfb.answerDialog({ action: 'save', path: target });
      const t0 = performance.now();
      await browser.gesture(`document.querySelector('${button}').click()`);
      await answered;
      return performance.now() - t0;
    });
    const picked = await phase('site download, picked file (showSaveFilePicker, crypto worker writes)', async () => {
      const t0 = performance.now();
      await browser.waitFor(
        `document.querySelector('#download-status[data-download-state="done"], #download-status[data-download-state="failed"]')`,
        30 * 60_000,
      );
      const state = await browser.evaluate<string>(`document.querySelector('#download-status').dataset.downloadState`);
      if (state !== 'done')
        throw new Error(
          `picked file: ${await browser.evaluate('document.querySelector("#download-status").innerText')}`,
        );
      return performance.now() - t0;
    });
    if ((await stat(target)).size !== size || (await sha256Of(target)) !== digest)
      throw new Error('the picked file does not hold the uploaded bytes');
    await clear();
    await browser.evaluate(`localStorage.removeItem('webfolder.saveFile')`);
    const after = await plainRun('after');
    plain.close();

    const avg = (a: Phase, b: Phase) => (chromiumCpu(a) + chromiumCpu(b)) / 2;
    const plainCpu = avg(before.p, after.p);
    const passCpu = avg(before.s, after.s);
    const loads = `${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}`;
    await record(
      `browser-save-file: Chromium ${browser.version} headed on Xvfb, ${sizeMiB} MiB, CHUNK_SIZE_MIB=${CHUNK_MIB}, load average ${loads}`,
    );
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    await record(
      `browser-save-file: picked file ${chromiumCpu(picked).toFixed(1)} CPU s/GiB vs plain ${plainCpu.toFixed(1)} -> ${(chromiumCpu(picked) / plainCpu).toFixed(2)}x (target <= 1.6: ${verdict(chromiumCpu(picked) / plainCpu <= 1.6)})`,
    );
    await record(
      `browser-save-file: service worker ${chromiumCpu(sw).toFixed(1)} CPU s/GiB vs plain ${plainCpu.toFixed(1)} -> ${(chromiumCpu(sw) / plainCpu).toFixed(2)}x; vs pass-through ${passCpu.toFixed(1)} -> ${(chromiumCpu(sw) / passCpu).toFixed(2)}x`,
    );
    await record(
      `browser-save-file: the save dialog itself: ${Object.entries(dialog.cpu)
        .filter(([k]) => k.startsWith('chromium '))
        .reduce((sum, [, v]) => sum + v, 0)
        .toFixed(1)} Chromium CPU s while open (${(dialog.ms / 1000).toFixed(1)} s), not counted in the transfer`,
    );
    for (const p of phases) if (p !== dialog) await record(`browser-save-file: ${describe(p)}`);
  } finally {
    await browser.close();
    await xvfb.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
