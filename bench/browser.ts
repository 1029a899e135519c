import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { type BenchBrowser, launchChromium } from './chromium-cdp.js';
import { chromiumRss, rendererThreads, snapshot } from './cpu-time.js';
import { CHUNK_MIB, MIB, plainServer, writeBigFile } from './plain-baseline.js';
import { type BenchServer, record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

const sizeMiB = Number(process.argv[2] ?? 1024);
const size = sizeMiB * MIB;
const mbps = (ms: number) => size / 1e6 / (ms / 1000);

/** Raw AES-GCM on the page: 10 MiB slices of an in-memory Blob, 4 at a time (encrypt reads each slice first). */
function rawCrypto(browser: BenchBrowser, mode: 'encrypt' | 'decrypt'): Promise<number> {
  return browser.evaluate<number>(`(async () => {
    const total = ${size}, chunk = ${CHUNK_MIB * MIB}, mode = '${mode}';
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt', 'decrypt']);
    const iv = new Uint8Array(12);
    const blob = new Blob([new Uint8Array(chunk)]);
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new Uint8Array(chunk)));
    const count = Math.ceil(total / chunk);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let i = next++; i < count; i = next++) {
        if (mode === 'encrypt') await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new Uint8Array(await blob.slice(0, chunk).arrayBuffer()));
        else await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed);
      }
    }));
    return performance.now() - t0;
  })()`);
}

/** The transport's ceiling: already-encrypted-size bodies PUT, then GET, 4 at a time, no cryptography. */
async function transportOnly(
  browser: BenchBrowser,
  server: BenchServer,
  webBase: string,
): Promise<{ putMs: number; getMs: number }> {
  const res = await fetch(`${server.url}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'send', encryption: { ske: 'eA' }, files: [{ filename: 'eA', filesize: size }] }),
  });
  const direct = (await res.json()) as CreateResponseDirect;
  const plan = direct.files[0]!;
  const getBase = `${webBase}/api/site/folders/${direct.folderId}/files/${plan.fileId}/chunks`;
  return browser.evaluate(`(async () => {
    const urls = ${JSON.stringify(plan.uploadUrls)}, chunks = ${plan.chunks}, total = ${size}, chunk = ${plan.chunkSize};
    const enc = (p) => 21 + p + 17 * Math.ceil(p / 65519);
    const full = new Blob([new Uint8Array(enc(chunk))]);
    const lastBlob = new Blob([new Uint8Array(enc(total - chunk * (chunks - 1)))]);
    const run = async (task) => {
      let next = 1;
      const t = performance.now();
      await Promise.all(Array.from({ length: 4 }, async () => { for (let n = next++; n <= chunks; n = next++) await task(n); }));
      return performance.now() - t;
    };
    const putMs = await run(async (n) => {
      const url = urls.head + urls.path + '/' + String(n).padStart(5, '0') + '?' + urls.tail + '&X-Amz-Signature=' + urls.signatures[n - 1];
      const res = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: n === chunks ? lastBlob : full });
      if (!res.ok) throw new Error('PUT ' + n + ': ' + res.status);
    });
    const getMs = await run(async (n) => {
      const res = await fetch('${getBase}/' + n);
      if (!res.ok) throw new Error('GET ' + n + ': ' + res.status);
      await res.arrayBuffer();
    });
    return { putMs, getMs };
  })()`);
}

/** The plain upload: the file's 10 MiB slices PUT from the page, 4 at a time (Blob bodies straight from disk). */
async function plainUpload(browser: BenchBrowser, plain: { url: string }, file: string): Promise<number> {
  await browser.navigate(`${plain.url}/`);
  await browser.setInputFiles('#f', [file]);
  return browser.evaluate<number>(`(async () => {
    const f = document.querySelector('#f').files[0], chunk = ${CHUNK_MIB * MIB};
    const count = Math.ceil(f.size / chunk);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let n = next++; n < count; n = next++) {
        const res = await fetch('/up/' + n, { method: 'PUT', body: f.slice(n * chunk, (n + 1) * chunk) });
        if (!res.ok) throw new Error('PUT ' + n + ': ' + res.status);
        await res.text();
      }
    }));
    return performance.now() - t0;
  })()`);
}

/** The plain download: the same file as an attachment, saved by the browser's download manager. */
async function plainDownload(browser: BenchBrowser, plain: { url: string }, downloads: string): Promise<number> {
  const { finished } = await browser.nextDownload(downloads);
  const t0 = performance.now();
  await browser.evaluate(
    `(() => { const a = document.createElement('a'); a.href = '${plain.url}/plain.bin'; document.body.append(a); a.click(); a.remove(); })()`,
  );
  const bytes = await finished;
  if (bytes !== size) throw new Error(`plain download: ${bytes} bytes, expected ${size}`);
  return performance.now() - t0;
}

/** The pass-through ceiling: the same bytes through a service-worker stream, no cryptography. */
async function passThroughDownload(browser: BenchBrowser, plain: { url: string }, downloads: string): Promise<number> {
  await browser.navigate(`${plain.url}/sw/`);
  await browser.evaluate(`navigator.serviceWorker.register('/sw/sw.js', { scope: '/sw/' }).then(() => true)`);
  await browser.waitFor('navigator.serviceWorker.controller');
  const { finished } = await browser.nextDownload(downloads);
  const t0 = performance.now();
  await browser.evaluate(
    `(() => { const a = document.createElement('a'); a.href = '/sw/plain.bin'; document.body.append(a); a.click(); a.remove(); })()`,
  );
  const bytes = await finished;
  if (bytes !== size) throw new Error(`pass-through download: ${bytes} bytes, expected ${size}`);
  return performance.now() - t0;
}

interface Phase {
  readonly label: string;
  readonly ms: number;
  /** CPU seconds per group (server, each Chromium role, renderer threads) during the phase. */
  readonly cpu: Record<string, number>;
  /** Peak VmRSS (MiB) of each Chromium process during the phase, and its size when the phase began. */
  readonly memory: Record<string, { peak: number; start: number }>;
}

const GIB = size / (1024 * MIB);
/** The largest Chromium process's peak VmRSS in the phase (MiB). */
const largestProcess = (p: Phase) => Math.max(0, ...Object.values(p.memory).map((m) => m.peak));
const chromiumCpu = (p: Phase) =>
  Object.entries(p.cpu)
    .filter(([k]) => k.startsWith('chromium '))
    .reduce((sum, [, v]) => sum + v, 0);

function describe(p: Phase): string[] {
  const cpu = Object.entries(p.cpu)
    .filter(([, v]) => v >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${(v / GIB).toFixed(1)}`)
    .join(', ');
  const memory = Object.entries(p.memory)
    .filter(([, m]) => m.peak - m.start >= 5 || m.peak >= 150)
    .map(([k, m]) => `${k} ${m.peak.toFixed(0)} (+${(m.peak - m.start).toFixed(0)})`)
    .join(', ');
  return [
    `${p.label}: ${mbps(p.ms).toFixed(0)} MB/s, Chromium ${(chromiumCpu(p) / GIB).toFixed(1)} CPU s/GiB, largest process ${largestProcess(p).toFixed(0)} MiB`,
    `  CPU s/GiB: ${cpu}`,
    `  peak RSS MiB (growth in the phase): ${memory}`,
  ];
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'webfolder-bench-'));
  const dataDir = await mkdtemp(join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'webfolder-bench-data-'));
  const server = await startProcess(WEBFOLDER, { DATA_DIR: dataDir, ...UNLIMITED, CHUNK_SIZE_MIB: String(CHUNK_MIB) });
  const browser = await launchChromium();
  const cpu = () => ({
    ...snapshot({ server: [server.child.pid!], 'bench driver and plain server': [process.pid] }, browser.pids()),
    ...rendererThreads(browser.pids()),
  });
  const phases: Phase[] = [];
  const phase = async (label: string, run: () => Promise<number>) => {
    const before = cpu();
    const start = chromiumRss(browser.pids());
    const memory: Phase['memory'] = {};
    const sample = () => {
      for (const [k, v] of Object.entries(chromiumRss(browser.pids())))
        memory[k] = { peak: Math.max(v, memory[k]?.peak ?? 0), start: start[k] ?? 0 };
    };
    const sampler = setInterval(sample, 100);
    let ms: number;
    try {
      ms = await run();
    } finally {
      clearInterval(sampler);
    }
    sample();
    const after = cpu();
    const used = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
    const p: Phase = { label, ms, cpu: used, memory };
    phases.push(p);
    for (const line of describe(p)) console.log(line);
    return p;
  };
  try {
    const file = join(dir, 'big.bin');
    await writeBigFile(file, size);
    const uploads = await mkdtemp(join(dir, 'plain-uploads-'));
    const plain = await plainServer(file, size, uploads);
    const downloads = await mkdtemp(join(dir, 'downloads-'));
    const clearUploads = async () => {
      await rm(uploads, { recursive: true, force: true });
      await mkdir(uploads);
    };
    const newFolder = async () => {
      const created = await fetch(`${server.url}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'send', title: 'bench' }),
      });
      return ((await created.json()) as { folderUrl: string }).folderUrl;
    };
    const folderUrl = await newFolder();
    const extra = process.env.BENCH_EXTRA === '1';
    if (process.env.BENCH_ONLY === 'upload') {
      await uploadsOnly(browser, phase, plain, file, folderUrl, clearUploads).finally(() => plain.close());
      return;
    }

    const plainUpBefore = await phase('plain upload (4 parallel PUTs of file slices), before', () =>
      plainUpload(browser, plain, file),
    );
    await clearUploads();
    const plainDownBefore = await phase('plain download (attachment, download manager), before', () =>
      plainDownload(browser, plain, downloads),
    );
    const clearDownloads = async () => {
      await rm(downloads, { recursive: true, force: true });
      await mkdir(downloads);
    };
    await clearDownloads();
    const passBefore = await phase('service-worker pass-through download (no cryptography), before', () =>
      passThroughDownload(browser, plain, downloads),
    );
    await clearDownloads();

    await browser.navigate(folderUrl);
    await browser.waitFor(`document.querySelector('#file-input')`);
    await browser.waitFor('navigator.serviceWorker.controller');
    let rawEnc = 0;
    let rawDec = 0;
    if (extra) {
      rawEnc = mbps((await phase('raw WebCrypto AES-GCM encrypt (10 MiB x4)', () => rawCrypto(browser, 'encrypt'))).ms);
      rawDec = mbps((await phase('raw WebCrypto AES-GCM decrypt (10 MiB x4)', () => rawCrypto(browser, 'decrypt'))).ms);
      const transport = await transportOnly(browser, server, new URL(folderUrl).origin);
      console.log(
        `transport only: PUT ${mbps(transport.putMs).toFixed(0)} MB/s, GET ${mbps(transport.getMs).toFixed(0)} MB/s`,
      );
    }

    // The site's upload and download of the file in the folder page open now; `how` names the variant.
    const sitePhases = async (how: string) => {
      const up = await phase(`site${how}: encrypt + upload (RFC 8188, 4 parallel PUTs)`, async () => {
        const t0 = performance.now();
        await browser.setInputFiles('#file-input', [file]);
        await browser.waitFor(`document.querySelector('#upload-status[data-state="complete"]')`, 60 * 60_000);
        return performance.now() - t0;
      });
      const button = `#files li button.download:not([disabled])`;
      await browser.waitFor(`document.querySelector('${button}')`);
      const down = await phase(`site${how}: download + decrypt (service worker, download manager)`, async () => {
        const { finished } = await browser.nextDownload(downloads);
        const t0 = performance.now();
        await browser.evaluate(`document.querySelector('${button}').click()`);
        const bytes = await finished;
        if (bytes !== size) throw new Error(`downloaded ${bytes} bytes, expected ${size}`);
        return performance.now() - t0;
      });
      await rm(downloads, { recursive: true, force: true });
      await mkdir(downloads);
      return { up, down };
    };
    const { up, down } = await sitePhases('');
    // The same without the page's crypto workers (web/src/workers/crypto-pool.ts): encryption on the page's
    // thread and decryption on the service worker's, as before them, in a fresh folder and page.
    await browser.evaluate(`localStorage.setItem('webfolder.cryptoWorkers', '0')`);
    await browser.navigate(await newFolder());
    await browser.waitFor(`document.querySelector('#file-input')`);
    await browser.waitFor('navigator.serviceWorker.controller');
    const unpooled = await sitePhases(' without crypto workers');
    await browser.evaluate(`localStorage.removeItem('webfolder.cryptoWorkers')`);

    const plainUpAfter = await phase('plain upload, after', () => plainUpload(browser, plain, file));
    await clearUploads();
    const plainDownAfter = await phase('plain download, after', () => plainDownload(browser, plain, downloads));
    await clearDownloads();
    const passAfter = await phase('service-worker pass-through download, after', () =>
      passThroughDownload(browser, plain, downloads),
    );
    plain.close();

    const avg = (a: Phase, b: Phase) => ({
      rate: (mbps(a.ms) + mbps(b.ms)) / 2,
      cpu: (chromiumCpu(a) + chromiumCpu(b)) / 2 / GIB,
    });
    const plainUp = avg(plainUpBefore, plainUpAfter);
    const plainDown = avg(plainDownBefore, plainDownAfter);
    const pass = avg(passBefore, passAfter);
    const largest = (...ps: Phase[]) => Math.max(...ps.map(largestProcess));
    const context = `Chromium ${browser.version} headless (DevTools without Network), ${sizeMiB} MiB, CHUNK_SIZE_MIB=${CHUNK_MIB}, server data on ${process.env.BENCH_DATA_DIR ?? tmpdir()}`;
    await record(`browser: ${context}`);
    const verdict = (ratio: number, target: number, higherIsBetter = true) =>
      (higherIsBetter ? ratio >= target : ratio <= target) ? 'met' : 'NOT met';
    for (const [name, site, base, target] of [
      ['upload', up, plainUp, 0.5],
      ['download', down, plainDown, 0.8],
    ] as const) {
      const rate = mbps(site.ms) / base.rate;
      const cpuRatio = chromiumCpu(site) / GIB / base.cpu;
      await record(
        `browser: ${name} ${mbps(site.ms).toFixed(0)} MB/s vs plain ${base.rate.toFixed(0)} MB/s -> ratio ${rate.toFixed(2)} (target >= ${target}: ${verdict(rate, target)}); Chromium CPU ${(chromiumCpu(site) / GIB).toFixed(1)} s/GiB vs plain ${base.cpu.toFixed(1)} -> ${cpuRatio.toFixed(2)}x (target <= 1.5: ${verdict(cpuRatio, 1.5, false)})`,
      );
    }
    {
      const rate = mbps(down.ms) / pass.rate;
      const cpuRatio = chromiumCpu(down) / GIB / pass.cpu;
      await record(
        `browser: download ${mbps(down.ms).toFixed(0)} MB/s vs service-worker pass-through ${pass.rate.toFixed(0)} MB/s -> ratio ${rate.toFixed(2)} (target >= 0.9: ${verdict(rate, 0.9)}); Chromium CPU ${(chromiumCpu(down) / GIB).toFixed(1)} s/GiB vs ${pass.cpu.toFixed(1)} -> ${cpuRatio.toFixed(2)}x (target <= 1.25: ${verdict(cpuRatio, 1.25, false)})`,
      );
      const upRate = mbps(up.ms) / plainUp.rate;
      await record(`browser: upload vs plain -> ${upRate.toFixed(2)} (target >= 0.6: ${verdict(upRate, 0.6)})`);
      for (const [name, site, base] of [
        ['upload', up, largest(plainUpBefore, plainUpAfter)],
        ['download', down, largest(plainDownBefore, plainDownAfter)],
      ] as const) {
        const over = largestProcess(site) - base;
        await record(
          `browser: ${name} largest Chromium process ${largestProcess(site).toFixed(0)} MiB vs plain ${base.toFixed(0)} MiB -> +${over.toFixed(0)} MiB (target <= +200: ${verdict(over, 200, false)}); pass-through ${largest(passBefore, passAfter).toFixed(0)} MiB`,
        );
      }
    }
    for (const [name, pooled, without] of [
      ['upload', up, unpooled.up],
      ['download', down, unpooled.down],
    ] as const) {
      await record(
        `browser: ${name} with crypto workers ${mbps(pooled.ms).toFixed(0)} MB/s, without ${mbps(without.ms).toFixed(0)} MB/s -> ${(without.ms / pooled.ms).toFixed(2)}x`,
      );
    }
    if (extra)
      await record(`browser: raw WebCrypto encrypt ${rawEnc.toFixed(0)} MB/s, decrypt ${rawDec.toFixed(0)} MB/s`);
    for (const p of phases) for (const line of describe(p)) await record(`browser: ${line}`);
  } finally {
    await browser.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

type PhaseRunner = (label: string, run: () => Promise<number>) => Promise<Phase>;

/** BENCH_ONLY=upload: plain upload, the site's upload (with its crypto workers), plain upload again. */
async function uploadsOnly(
  browser: BenchBrowser,
  phase: PhaseRunner,
  plain: { url: string },
  file: string,
  folderUrl: string,
  clearUploads: () => Promise<void>,
): Promise<void> {
  const before = await phase('plain upload, before', () => plainUpload(browser, plain, file));
  await clearUploads();
  await browser.navigate(folderUrl);
  await browser.waitFor(`document.querySelector('#file-input')`);
  const up = await phase('site: encrypt + upload', async () => {
    const t0 = performance.now();
    await browser.setInputFiles('#file-input', [file]);
    await browser.waitFor(`document.querySelector('#upload-status[data-state="complete"]')`, 60 * 60_000);
    return performance.now() - t0;
  });
  const after = await phase('plain upload, after', () => plainUpload(browser, plain, file));
  const rate = (mbps(before.ms) + mbps(after.ms)) / 2;
  const cpu = (chromiumCpu(before) + chromiumCpu(after)) / 2 / GIB;
  const siteCpu = chromiumCpu(up) / GIB;
  await record(
    `browser upload only (${sizeMiB} MiB, Chromium ${browser.version}): site ${mbps(up.ms).toFixed(0)} MB/s vs plain ${rate.toFixed(0)} -> ${(mbps(up.ms) / rate).toFixed(2)} (target >= 0.6); Chromium CPU ${siteCpu.toFixed(1)} s/GiB vs plain ${cpu.toFixed(1)} -> ${(siteCpu / cpu).toFixed(2)}x (target <= 1.6)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
