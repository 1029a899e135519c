/**
 * In-browser throughput of the site, in Debian's Chromium (not part of the test run):
 *
 * 1. encrypt + upload of a 1 GiB file picked into the real page (Blob.slice, RFC 8188 in WebCrypto,
 *    4 parallel chunk PUTs to webfolder's local backend), against raw WebCrypto AES-GCM encryption of
 *    the same amount on the same page (10 MiB slices of a Blob, 4 at a time);
 * 2. download + decrypt of that file through the service worker into the browser's download
 *    directory, against raw AES-GCM decryption of the same amount on the same page.
 *
 * Target: each ratio >= 0.7. Also measured, for the analysis: the transport alone (the same bytes
 * PUT and GET through the same server with no cryptography), the browser's download manager alone
 * (a plain file download, no service worker, no cryptography) and the CPU seconds that each process
 * (server, Chromium's browser, renderer and network processes) spent in every phase.
 *
 * The server is the compiled build in its own process (`npm run build` first; `npm run bench --
 * bench/browser.ts` does it), with DATA_DIR on disk unless BENCH_DATA_DIR says otherwise (a tmpfs
 * such as /dev/shm takes the server's disk writes out of the browser's measurement). Chromium is
 * driven over the DevTools protocol without its Network domain (see chromium-cdp.ts). The baselines
 * run before and after the site's transfers and are averaged, so drift on a shared machine hits both.
 *
 *   npx tsx bench/browser.ts [sizeMiB=1024]
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { type BenchBrowser, launchChromium } from './chromium-cdp.js';
import { snapshot, spent } from './cpu-time.js';
import { type BenchServer, record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

const MIB = 1024 * 1024;
const CHUNK_MIB = 10;
const sizeMiB = Number(process.argv[2] ?? 1024);
const size = sizeMiB * MIB;
const mbps = (ms: number) => size / 1e6 / (ms / 1000);

async function writeBigFile(path: string): Promise<void> {
  const piece = Buffer.alloc(8 * MIB);
  for (let i = 0; i < piece.length; i++) piece[i] = (i * 2654435761) >>> 24;
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += piece.length) {
    if (!out.write(piece.subarray(0, Math.min(piece.length, size - written))))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

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

/**
 * The download manager's own ceiling: the same file as a plain attachment from a minimal node:http
 * server (no service worker, no cryptography, no webfolder), saved by the same browser to the same
 * directory. Nothing a page does can make a download faster than this.
 */
async function plainDownload(browser: BenchBrowser, file: string, downloads: string): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(size),
      'content-disposition': 'attachment; filename="plain.bin"',
    });
    createReadStream(file, { highWaterMark: MIB }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const { finished } = await browser.nextDownload(downloads);
    const t0 = performance.now();
    await browser.evaluate(
      `(() => { const a = document.createElement('a'); a.href = 'http://127.0.0.1:${port}/plain.bin'; document.body.append(a); a.click(); a.remove(); })()`,
    );
    const bytes = await finished;
    if (bytes !== size) throw new Error(`plain download: ${bytes} bytes, expected ${size}`);
    return performance.now() - t0;
  } finally {
    server.close();
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'webfolder-bench-'));
  const dataDir = await mkdtemp(join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'webfolder-bench-data-'));
  const server = await startProcess(WEBFOLDER, { DATA_DIR: dataDir, ...UNLIMITED, CHUNK_SIZE_MIB: String(CHUNK_MIB) });
  const browser = await launchChromium();
  const cpu = () => snapshot({ server: [server.child.pid!], 'bench driver': [process.pid] }, browser.pids());
  const phases: Array<{ label: string; ms: number; cpu: string }> = [];
  const phase = async (label: string, run: () => Promise<number>) => {
    const before = cpu();
    const ms = await run();
    phases.push({ label, ms, cpu: spent(before, cpu()) });
    console.log(`${label.padEnd(58)} ${mbps(ms).toFixed(0).padStart(5)} MB/s   cpu: ${phases.at(-1)!.cpu}`);
    return ms;
  };
  try {
    const file = join(dir, 'big.bin');
    await writeBigFile(file);
    const created = await fetch(`${server.url}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'send', title: 'bench' }),
    });
    const folder = (await created.json()) as { folderUrl: string };
    await browser.navigate(folder.folderUrl);
    await browser.waitFor(`document.querySelector('#file-input')`);

    const encBefore = await phase('raw WebCrypto AES-GCM encrypt (10 MiB x4), before', () =>
      rawCrypto(browser, 'encrypt'),
    );
    const decBefore = await phase('raw WebCrypto AES-GCM decrypt (10 MiB x4), before', () =>
      rawCrypto(browser, 'decrypt'),
    );
    const transport = await transportOnly(browser, server, new URL(folder.folderUrl).origin);
    phases.push({ label: 'transport only: PUT encrypted-size bodies (x4)', ms: transport.putMs, cpu: '' });
    phases.push({ label: 'transport only: GET chunks (x4)', ms: transport.getMs, cpu: '' });
    console.log(
      `transport only: PUT ${mbps(transport.putMs).toFixed(0)} MB/s, GET ${mbps(transport.getMs).toFixed(0)} MB/s`,
    );

    const uploadMs = await phase('site: encrypt + upload (RFC 8188, 4 parallel PUTs)', async () => {
      const t0 = performance.now();
      await browser.setInputFiles('#file-input', [file]);
      await browser.waitFor(`document.querySelector('#upload-status[data-state="complete"]')`, 60 * 60_000);
      return performance.now() - t0;
    });
    const button = `#files li button.download:not([disabled])`;
    await browser.waitFor(`document.querySelector('${button}')`);
    const downloads = await mkdtemp(join(dir, 'downloads-'));
    const downloadMs = await phase('site: download + decrypt (service worker, to disk)', async () => {
      const { finished } = await browser.nextDownload(downloads);
      const t0 = performance.now();
      await browser.evaluate(`document.querySelector('${button}').click()`);
      const bytes = await finished;
      if (bytes !== size) throw new Error(`downloaded ${bytes} bytes, expected ${size}`);
      return performance.now() - t0;
    });
    const plainMs = await phase('download manager alone: plain file, no service worker, no crypto', () =>
      plainDownload(browser, file, downloads),
    );
    const encAfter = await phase('raw WebCrypto AES-GCM encrypt (10 MiB x4), after', () =>
      rawCrypto(browser, 'encrypt'),
    );
    const decAfter = await phase('raw WebCrypto AES-GCM decrypt (10 MiB x4), after', () =>
      rawCrypto(browser, 'decrypt'),
    );

    const rawEnc = mbps((encBefore + encAfter) / 2);
    const rawDec = mbps((decBefore + decAfter) / 2);
    const up = mbps(uploadMs);
    const down = mbps(downloadMs);
    const context = `Chromium ${browser.version} headless (DevTools without Network), ${sizeMiB} MiB, CHUNK_SIZE_MIB=${CHUNK_MIB}, server data on ${process.env.BENCH_DATA_DIR ?? tmpdir()}`;
    await record(`browser: ${context}`);
    await record(
      `browser: encrypt+upload ${up.toFixed(0)} MB/s vs raw encrypt ${rawEnc.toFixed(0)} MB/s -> ratio ${(up / rawEnc).toFixed(2)} (target >= 0.7); vs transport-only PUT ${(up / mbps(transport.putMs)).toFixed(2)}`,
    );
    await record(
      `browser: download+decrypt ${down.toFixed(0)} MB/s vs raw decrypt ${rawDec.toFixed(0)} MB/s -> ratio ${(down / rawDec).toFixed(2)} (target >= 0.7); vs transport-only GET ${(down / mbps(transport.getMs)).toFixed(2)}; vs the download manager alone ${(down / mbps(plainMs)).toFixed(2)} (which is ${(mbps(plainMs) / rawDec).toFixed(2)} of raw decrypt)`,
    );
    for (const p of phases) if (p.cpu) await record(`browser: cpu during "${p.label}": ${p.cpu}`);
  } finally {
    await browser.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
