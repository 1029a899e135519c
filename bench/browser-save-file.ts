import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startXvfb } from '../test/support/xvfb.js';
import { type BenchBrowser, launchChromium } from './chromium-cdp.js';
import { chromiumRss, rendererThreads, snapshot } from './cpu-time.js';
import { CHUNK_MIB, MIB, plainServer, sha256Of, writeBigFile } from './plain-baseline.js';
import { record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

const sizeMiB = Number(process.argv[2] ?? 512);
const size = sizeMiB * MIB;
const GIB = size / (1024 * MIB);

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
    const digest = await writeBigFile(file, size);
    const plain = await plainServer(file, size, dir);
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
