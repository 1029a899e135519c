/**
 * The server's CPU per GiB sent (and received), against a plain static-file server in the same run.
 *
 *   npm run build && npx tsx bench/server-download.ts [sizeMiB=512]
 *
 * 1. webfolder (the compiled build, 10 MiB chunks, local blob store) and a minimal node:http server
 *    sending 10 MiB slices of one file from disk (bench/baselines/static-files.ts), each its own
 *    process, so that each one's CPU (user + system, from /proc) is its own.
 * 2. Upload, once: a v2 folder of one file, every chunk PUT (4 in flight, random bytes of the exact
 *    encrypted length), against the same bodies PUT to the plain server, which streams each to a
 *    file and fsyncs it: CPU per GiB received, the fsync per chunk kept on both. Target <= 1.5x.
 * 3. Download, BENCH_ROUNDS (default 3) alternating rounds: every chunk GET through the site API as
 *    the page asks for it (with a download ticket), 4 in flight, bytes dropped; the same bytes as
 *    slices from the plain server. Both read from the page cache after the first round; the best
 *    round of each counts. Target: webfolder <= 1.5x the plain server's CPU per GiB.
 * BENCH_SERVER_PROFILE=<dir> writes the servers' V8 CPU profiles there.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { encryptedLength, plaintextChunkLength } from '../src/domain/chunk-plan.js';
import { chunkUrl, folderApiUrl, siteApiFor, siteChunkUrl } from '../src/transfer/urls.js';
import { record, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const SIZE = Number(process.argv[2] ?? 512) * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 4;
/** What Chromium's fetch sends besides: the server sees these from every page. */
const BROWSER_HEADERS = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
};

/** CPU seconds (user + system) of a process so far, and the system part. */
function cpuSeconds(pid: number): { total: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { total: (Number(fields[11]) + Number(fields[12])) / 100, system: Number(fields[12]) / 100 };
}

/**
 * BENCH_READ_MBPS: the client reads no faster than this (all GETs together), as a page that
 * decrypts what it reads does; 0 reads as fast as it can. Answers how long to pause after `bytes`.
 */
const READ_RATE = Number(process.env.BENCH_READ_MBPS ?? 0) * 1e6;
let readDue = 0;
function readPace(bytes: number): number {
  if (READ_RATE === 0) return 0;
  const now = performance.now();
  readDue = Math.max(readDue, now) + (bytes / READ_RATE) * 1000;
  return readDue - now;
}

/** GETs `url` with node:http and drops the body; answers its length. */
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
      let bytes = 0;
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        const wait = readPace(d.length);
        if (wait > 0) {
          res.pause();
          setTimeout(() => res.resume(), wait);
        }
      });
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Runs `count` GETs, CONCURRENCY in flight; answers the bytes received and the server's CPU seconds. */
async function fetchAll(pid: number, count: number, get1: (n: number) => Promise<number>) {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  let next = 1;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next <= count) {
        const got = await get1(next++);
        bytes += got;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds(pid);
  return { bytes, cpu: cpu1.total - cpu0.total, system: cpu1.system - cpu0.system, mbps: bytes / 1e6 / seconds };
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'webfolder-bench-server-download-'));
  const plainFile = join(work, 'plain.bin');
  const handle = await open(plainFile, 'w');
  for (let at = 0; at < SIZE; at += 64 * MIB) await handle.write(randomBytes(Math.min(64 * MIB, SIZE - at)));
  await handle.close();
  const webfolder = await startProcess(WEBFOLDER, {
    DATA_DIR: join(work, 'data'),
    ...UNLIMITED,
    CHUNK_SIZE_MIB: '10',
  });
  const plainUploads = join(work, 'plain-uploads');
  await mkdir(plainUploads);
  const plain = await startProcess('bench/baselines/static-files.ts', {
    FILE: plainFile,
    SLICE_BYTES: String(encryptedLength(10 * MIB)),
    UPLOAD_DIR: plainUploads,
  });
  try {
    const res = await fetch(`${webfolder.url}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ encryption: { ske: 'bench' }, files: [{ filename: 'bench.bin', filesize: SIZE }] }),
    });
    if (!res.ok) throw new Error(`create: ${res.status} ${await res.text()}`);
    const created = (await res.json()) as CreateResponseDirect;
    const file = created.files[0]!;
    const body = randomBytes(encryptedLength(file.chunkSize));
    /** PUTs every chunk's bytes to `url(n)`: what the page sends, to webfolder or to the plain server. */
    const putAll = (pid: number, url: (n: number) => string, headers: Record<string, string>) =>
      fetchAll(pid, file.chunks, async (n) => {
        const p = plaintextChunkLength({ filesize: SIZE, chunkSize: file.chunkSize, chunks: file.chunks }, n);
        const chunk = body.subarray(0, encryptedLength(p));
        const put = await fetch(url(n), {
          method: 'PUT',
          headers: { ...headers, 'content-length': String(chunk.length) },
          body: chunk,
        });
        if (!put.ok) throw new Error(`PUT ${n}: ${put.status} ${await put.text()}`);
        await put.arrayBuffer();
        return chunk.length;
      });
    const plainUpload = await putAll(plain.child.pid!, (n) => `${plain.url}/up/${n}`, {});
    const upload = await putAll(webfolder.child.pid!, (n) => chunkUrl(file.uploadUrls, n), file.uploadUrls.headers);
    const perGib = (x: { cpu: number; bytes: number }) => (x.cpu * GIB) / x.bytes;
    const upRatio = perGib(upload) / perGib(plainUpload);
    const siteApi = siteApiFor(created.folderUrl);
    /** A download ticket, as the page starts a download (a visitor's: no credentials). */
    const startDownload = async () => {
      const started = await fetch(`${folderApiUrl(siteApi, created.folderId)}/files/${file.fileId}/downloads`, {
        method: 'POST',
      });
      if (!started.ok) throw new Error(`start download: ${started.status} ${await started.text()}`);
      return ((await started.json()) as { ticket: string }).ticket;
    };
    const plainSlices = Math.ceil(SIZE / encryptedLength(10 * MIB));
    const ours: { cpu: number; mbps: number }[] = [];
    const theirs: { cpu: number; mbps: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const headers = { ...BROWSER_HEADERS, 'x-download-ticket': await startDownload() };
      const a = await fetchAll(webfolder.child.pid!, file.chunks, (n) =>
        get(siteChunkUrl(siteApi, created.folderId, file.fileId, n), headers),
      );
      const b = await fetchAll(plain.child.pid!, plainSlices, (n) => get(`${plain.url}/slice/${n}`, BROWSER_HEADERS));
      if (a.bytes !== upload.bytes || b.bytes !== SIZE)
        throw new Error(`sent ${a.bytes} and ${b.bytes} bytes, expected ${upload.bytes} and ${SIZE}`);
      ours.push({ cpu: (a.cpu * GIB) / a.bytes, mbps: a.mbps });
      theirs.push({ cpu: (b.cpu * GIB) / b.bytes, mbps: b.mbps });
      const line = (x: { cpu: number; system: number; bytes: number; mbps: number }) =>
        `${((x.cpu * GIB) / x.bytes).toFixed(2)} CPU s/GiB (system ${((x.system * GIB) / x.bytes).toFixed(2)}; ${x.mbps.toFixed(0)} MB/s)`;
      console.log(`round ${round + 1}: webfolder ${line(a)}, plain ${line(b)}, load ${loadavg()[0]!.toFixed(1)}`);
    }
    const best = (xs: { cpu: number }[]) => Math.min(...xs.map((x) => x.cpu));
    const ratio = best(ours) / best(theirs);
    await record(
      `server download CPU: ${SIZE / MIB} MiB, 10 MiB chunks, ${ROUNDS} rounds, load ${loadavg()[0]!.toFixed(1)}: webfolder chunk GETs ${best(ours).toFixed(2)} CPU s/GiB vs plain static slices ${best(theirs).toFixed(2)} -> ${ratio.toFixed(2)}x (target <= 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}), client reading ${READ_RATE ? `at ${READ_RATE / 1e6} MB/s` : 'as fast as it can'}; upload (chunk PUTs, fsync each, one round): webfolder ${perGib(upload).toFixed(2)} CPU s/GiB (${upload.mbps.toFixed(0)} MB/s) vs plain PUT to a file + fsync ${perGib(plainUpload).toFixed(2)} (${plainUpload.mbps.toFixed(0)} MB/s) -> ${upRatio.toFixed(2)}x (target <= 1.5: ${upRatio <= 1.5 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await Promise.all([webfolder.stop(), plain.stop()]);
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
