/**
 * In-browser throughput of the site, in Debian's Chromium (not part of the test run):
 *
 * 1. encrypt + upload of a 1 GiB file through the real page (Blob.slice, RFC 8188 in WebCrypto,
 *    4 parallel chunk PUTs to this process's local backend), against raw WebCrypto AES-GCM
 *    encryption of the same file on the same page (same chunk size, same parallelism);
 * 2. download + decrypt of that file through the service worker to the browser's download
 *    directory, against raw AES-GCM decryption of the same amount on the same page.
 *
 * Target: each ratio >= 0.7. The server, its disk writes and the browser share this machine's cores,
 * so absolute figures are noisy; ratios are measured in the same run. Appends a "Browser" section to
 * docs/benchmarks.md.
 *
 *   npx tsx bench/browser.ts [sizeMiB=1024]
 */
import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../test/support/server.js';
import { createFolder, launch, newContext } from '../test/site/browser.js';

const MIB = 1024 * 1024;
const sizeMiB = Number(process.argv[2] ?? 1024);
const size = sizeMiB * MIB;

async function writeBigFile(path: string): Promise<void> {
  const piece = Buffer.alloc(8 * MIB);
  for (let i = 0; i < piece.length; i++) piece[i] = (i * 2654435761) >>> 24;
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += piece.length) {
    if (!out.write(piece.subarray(0, Math.min(piece.length, size - written)))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'webfolder-bench-'));
  const server = await startServer({ CHUNK_SIZE_MIB: '10' });
  const browser = await launch();
  try {
    const file = join(dir, 'big.bin');
    await writeBigFile(file);
    const folder = await createFolder(server.baseUrl, 'send', 'bench');
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await page.locator('#file-input').waitFor();

    // Raw AES-GCM over the same file, on the same page: 10 MiB slices, 4 at a time.
    const rawEncrypt = async (mode: 'encrypt' | 'decrypt') =>
      page.evaluate(
        async ({ total, chunk, mode }) => {
          const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt', 'decrypt']);
          const iv = new Uint8Array(12);
          const blob = new Blob([new Uint8Array(chunk)]);
          const sample = new Uint8Array(await blob.arrayBuffer());
          const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, sample));
          let next = 0;
          const count = Math.ceil(total / chunk);
          const t0 = performance.now();
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              for (let i = next++; i < count; i = next++) {
                if (mode === 'encrypt') {
                  const bytes = new Uint8Array(await blob.slice(0, chunk).arrayBuffer());
                  await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, bytes);
                } else {
                  await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed);
                }
              }
            }),
          );
          return performance.now() - t0;
        },
        { total: size, chunk: 10 * MIB, mode },
      );
    const rawEncMs = await rawEncrypt('encrypt');
    const rawDecMs = await rawEncrypt('decrypt');

    // The transport's ceiling on the same page: PUT and GET already-encrypted bytes of the same
    // size through the same server, with the same parallelism, and no cryptography at all.
    const direct = (await (
      await fetch(`${server.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'send', encryption: { ske: 'eA' }, files: [{ filename: 'eA', filesize: size }] }),
      })
    ).json()) as { folderId: string; files: Array<{ fileId: string; chunks: number; uploadUrls: { head: string; path: string; tail: string; signatures: string[] } }> };
    const plan = direct.files[0]!;
    // tsx (esbuild keepNames) wraps named functions in __name(); give the page a no-op one.
    await page.evaluate('globalThis.__name = (f) => f');
    const transport = await page.evaluate(
      async ({ urls, chunks, total, chunk, getBase }) => {
        const enc = (p: number) => 21 + p + 17 * Math.ceil(p / 65519);
        const full = new Blob([new Uint8Array(enc(chunk))]);
        const last = total - chunk * (chunks - 1);
        const lastBlob = new Blob([new Uint8Array(enc(last))]);
        const run = async (task: (n: number) => Promise<void>) => {
          let next = 1;
          const t = performance.now();
          await Promise.all(Array.from({ length: 4 }, async () => { for (let n = next++; n <= chunks; n = next++) await task(n); }));
          return performance.now() - t;
        };
        const putMs = await run(async (n) => {
          const url = `${urls.head}${urls.path}/${String(n).padStart(5, '0')}?${urls.tail}&X-Amz-Signature=${urls.signatures[n - 1]}`;
          const res = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: n === chunks ? lastBlob : full });
          if (!res.ok) throw new Error(`PUT ${n}: ${res.status}`);
        });
        const getMs = await run(async (n) => {
          await (await fetch(`${getBase}/${n}`)).arrayBuffer();
        });
        return { putMs, getMs };
      },
      { urls: plan.uploadUrls, chunks: plan.chunks, total: size, chunk: 10 * MIB, getBase: `/api/site/folders/${direct.folderId}/files/${plan.fileId}/chunks` },
    );

    const t0 = Date.now();
    await page.setInputFiles('#file-input', file);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 30 * 60_000 });
    const uploadMs = Date.now() - t0;

    const button = page.locator('#files li button.download:not([disabled])').first();
    await button.waitFor();
    const t1 = Date.now();
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const saved = await download.path();
    const downloadMs = Date.now() - t1;
    if ((await stat(saved)).size !== size) throw new Error('downloaded size differs');

    const rows = [
      ['raw WebCrypto AES-GCM encrypt (same page, 10 MiB x4)', mbps(size, rawEncMs)],
      ['transport only: PUT encrypted-size chunks, no crypto (x4)', mbps(size, transport.putMs)],
      ['site encrypt + upload (RFC 8188, 4 parallel PUTs)', mbps(size, uploadMs)],
      ['raw WebCrypto AES-GCM decrypt (same page, 10 MiB x4)', mbps(size, rawDecMs)],
      ['transport only: GET chunks, no crypto (x4)', mbps(size, transport.getMs)],
      ['site download + decrypt (service worker stream to disk)', mbps(size, downloadMs)],
    ] as const;
    const upRatio = mbps(size, uploadMs) / mbps(size, rawEncMs);
    const downRatio = mbps(size, downloadMs) / mbps(size, rawDecMs);
    const upTransport = mbps(size, uploadMs) / mbps(size, transport.putMs);
    const downTransport = mbps(size, downloadMs) / mbps(size, transport.getMs);
    for (const [label, v] of rows) console.log(`${label.padEnd(60)} ${v.toFixed(0)} MB/s`);
    console.log(`upload ratio ${upRatio.toFixed(2)} (target >= 0.7), download ratio ${downRatio.toFixed(2)} (target >= 0.7)`);
    console.log(`against the transport alone: upload ${upTransport.toFixed(2)}, download ${downTransport.toFixed(2)}`);

    const chromium = browser.version();
    const md = [
      '',
      '## Browser',
      '',
      `\`npx tsx bench/browser.ts ${sizeMiB}\` on ${new Date().toISOString().slice(0, 10)}, Chromium ${chromium} headless, a ${sizeMiB} MiB file, CHUNK_SIZE_MIB=10,`,
      'server (local backend, fsync per chunk) and browser on the same 2 cores.',
      '',
      '| measure | MB/s |',
      '|---|---|',
      ...rows.map(([label, v]) => `| ${label} | ${v.toFixed(0)} |`),
      '',
      `Ratios: encrypt+upload / raw encrypt = **${upRatio.toFixed(2)}**, download+decrypt / raw decrypt = **${downRatio.toFixed(2)}** (target >= 0.7 each).`,
      `Against the transport alone (same bytes through the same server, no cryptography): upload ${upTransport.toFixed(2)}, download ${downTransport.toFixed(2)}.`,
      '',
    ].join('\n');
    await appendFile(new URL('../docs/benchmarks.md', import.meta.url), md);
    await ctx.close();
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
