/**
 * Client upload throughput against the raw chunk PUT throughput of the same server, same run.
 *
 *   npx tsx bench/cli-upload.ts            # 2 GiB file (BENCH_SIZE_MIB=512 for a quicker run)
 *
 * 1. A server child process (src/main.ts) on a loopback port with a fresh DATA_DIR (10 MiB chunks).
 * 2. Baseline "raw": register a file of the same size, then PUT every chunk with plain fetch calls,
 *    4 in flight, bodies of the exact encrypted length, pre-generated random bytes (no reading, no
 *    encryption): what the server and the loopback can take.
 * 3. "library": upload() from src/client on the file on disk (read at offset + RFC 8188 encryption
 *    + PUT, 4 in flight), in this process.
 * 4. "cli": `webfolder upload <file> --json --quiet` as a child process (bin/webfolder.js: the
 *    compiled CLI after `npm run build`, as installed; the source through tsx otherwise).
 * The three run interleaved for BENCH_ROUNDS rounds (default 2); each method's best round is
 * compared (the round least disturbed by other work on a shared machine). Throughput is plaintext
 * bytes per second for all three.
 * 5. Downloads the same way, of one uploaded copy of the file: "raw" GETs every chunk
 *    with a download ticket, 4 in flight, and drops the bytes (no decryption, no disk); "library"
 *    download() into a directory (fetch + RFC 8188 decryption + write + fsync + rename); "cli"
 *    `webfolder download <link> <dir> --json` as a child process, with its peak RSS; "library,
 *    fetch + WebCrypto" the same download() with the global fetch and WebCrypto's decryptChunk (the
 *    path before node:http and node:crypto took over), for a before/after in one run.
 * 6. The CLI's memory whatever the file size: a sparse file of BENCH_SPARSE_MIB (default 4096) MiB
 *    uploaded and downloaded by the CLI, peak RSS of each compared with the BENCH_SIZE_MIB file's.
 * Prints the ratios and appends them to docs/benchmarks.md under "Client". Not part of the test run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, open, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { chunkUrl, download, listFolder, upload } from '../src/client/node/index.js';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { decryptChunk } from '../src/crypto/index.js';
import { encryptedLength, plaintextChunkLength } from '../src/domain/chunk-plan.js';
import { siteChunkUrl } from '../src/transfer/urls.js';
import { spawnServer } from '../test/support/server.js';

const MIB = 1024 * 1024;
const ROOT = new URL('../', import.meta.url).pathname;
const SIZE = Number(process.env.BENCH_SIZE_MIB ?? 2048) * MIB;
const SPARSE = Number(process.env.BENCH_SPARSE_MIB ?? 4096) * MIB;
const CONCURRENCY = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Only the downloads (and the sparse file's memory): BENCH_DOWNLOAD_ONLY=1 prints, records nothing. */
const DOWNLOAD_ONLY = process.env.BENCH_DOWNLOAD_ONLY === '1';
let serverOutput = () => '';

async function makeFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w');
  try {
    const block = 64 * MIB;
    for (let offset = 0; offset < size; offset += block) {
      const n = Math.min(block, size - offset);
      await handle.write(randomBytes(n), 0, n, offset);
    }
  } finally {
    await handle.close();
  }
}

/** Client CPU seconds of the last in-process run (user + system), for context on shared cores. */
let lastCpuSeconds = 0;
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

async function rawPut(server: string, size: number): Promise<number> {
  const res = await fetch(`${server}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ encryption: { ske: 'bench' }, files: [{ filename: 'raw', filesize: size }] }),
  });
  if (!res.ok) throw new Error(`create: ${res.status} ${await res.text()}`);
  const created = (await res.json()) as CreateResponseDirect;
  const file = created.files[0]!;
  const body = randomBytes(encryptedLength(file.chunkSize));
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 1;
  const worker = async () => {
    while (next <= file.chunks) {
      const n = next++;
      const p = plaintextChunkLength({ filesize: size, chunkSize: file.chunkSize, chunks: file.chunks }, n);
      const chunk = body.subarray(0, encryptedLength(p));
      const put = await fetch(chunkUrl(file.uploadUrls, n), {
        method: 'PUT',
        headers: { ...file.uploadUrls.headers, 'Content-Length': String(chunk.length) },
        body: chunk,
      });
      if (!put.ok) throw new Error(`PUT ${n}: ${put.status} ${await put.text()}\n${serverOutput()}`);
      await put.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  lastCpuSeconds = cpuSince(cpu);
  return size / elapsed;
}

async function libraryUpload(server: string, path: string, size: number): Promise<number> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await upload([path], { server, concurrency: CONCURRENCY });
  const elapsed = (performance.now() - started) / 1000;
  lastCpuSeconds = cpuSince(cpu);
  return size / elapsed;
}

/** Peak resident memory of the CLI child process (KiB -> bytes), reported by a preloaded exit hook. */
let cliPeakRss = 0;

/** `webfolder <args>` as a child process; returns its wall seconds, sets cliPeakRss, and its stdout. */
async function cliRun(server: string, args: string[], stateDir: string): Promise<{ seconds: number; stdout: string }> {
  const hook = join(stateDir, '..', 'maxrss-hook.mjs');
  await writeFile(
    hook,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this is the hook's own source, a template literal
    "process.on('exit', () => process.stderr.write(`maxrss ${process.resourceUsage().maxRSS}\\n`));\n",
  );
  let stderr = '';
  let stdout = '';
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    // The command as installed runs the compiled code (bin/webfolder.js); through tsx, compiling
    // the source at each start costs seconds on a loaded machine, which is no part of a transfer.
    const child = spawn(process.execPath, ['--import', hook, join(ROOT, 'bin/webfolder.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, WEBFOLDER_SERVER: server, WEBFOLDER_STATE_DIR: stateDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`cli exited ${code}: ${stderr}`);
  cliPeakRss = Number(/maxrss (\d+)/.exec(stderr)?.[1] ?? 0) * 1024;
  return { seconds: (performance.now() - started) / 1000, stdout };
}

async function cliUpload(server: string, path: string, size: number, stateDir: string): Promise<number> {
  const args = ['upload', path, '--json', '--quiet', '--concurrency', String(CONCURRENCY)];
  return size / (await cliRun(server, args, stateDir)).seconds;
}

/** The download baseline: every chunk GET with a ticket, 4 in flight, bytes dropped (no decryption, no disk). */
async function rawGet(link: string, size: number, saveTo?: string): Promise<number> {
  const listing = await listFolder(link, {});
  const file = listing.files[0]!;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { ticket } = await listing.client.startDownload(file.fileId);
  const headers = { ...listing.client.credentialHeaders(), 'x-download-ticket': ticket };
  let next = 1;
  // Saved: each chunk's bytes written at their place in one file, one fsync at the end (what any
  // download that keeps the file must do; no decryption).
  const out = saveTo ? await open(saveTo, 'w') : null;
  const worker = async () => {
    while (next <= file.chunks) {
      const n = next++;
      const res = await fetch(siteChunkUrl(listing.siteApi, listing.folderId, file.fileId, n), { headers });
      if (!res.ok) throw new Error(`GET ${n}: ${res.status} ${await res.text()}\n${serverOutput()}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (out) await out.write(bytes, 0, bytes.length, (n - 1) * encryptedLength(file.chunkSize));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (out) {
    await out.sync();
    await out.close();
  }
  const elapsed = (performance.now() - started) / 1000;
  lastCpuSeconds = cpuSince(cpu);
  return size / elapsed;
}

async function libraryDownload(link: string, dir: string, size: number, before = false): Promise<number> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await download(link, dir, {
    concurrency: CONCURRENCY,
    // The path before node:http and node:crypto: undici's fetch and WebCrypto's per-record promises.
    ...(before ? { fetch: (url: string, init: RequestInit) => fetch(url, init), decrypt: decryptChunk } : {}),
  });
  if (result.files.length !== 1) throw new Error(`library download saved ${result.files.length} files`);
  const elapsed = (performance.now() - started) / 1000;
  lastCpuSeconds = cpuSince(cpu);
  return size / elapsed;
}

async function cliDownload(server: string, link: string, dir: string, size: number, stateDir: string): Promise<number> {
  return size / (await cliRun(server, ['download', link, dir, '--json'], stateDir)).seconds;
}

const mbs = (bytesPerSecond: number) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'webfolder-bench-client-'));
  const dataDir = join(work, 'data');
  const server = await spawnServer({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CHUNK: '1000000',
    RATE_LIMIT_CREATE: '100000',
    RATE_LIMIT_STATUS: '100000',
  });
  serverOutput = () => server.output().slice(-3000);
  // Frees the disk between runs: every folder's chunks, but not the store's .incoming directory.
  const clearBlobs = async () => {
    const blobs = join(dataDir, 'blobs');
    for (const name of await readdir(blobs))
      if (name !== '.incoming') await rm(join(blobs, name), { recursive: true, force: true });
  };
  try {
    const file = join(work, 'payload.bin');
    process.stdout.write(`generating ${SIZE / MIB} MiB of random data...\n`);
    await makeFile(file, SIZE);
    // Warm-up (JIT, connections) on a small upload, not measured.
    await rawPut(server.baseUrl, 64 * MIB);
    if (!DOWNLOAD_ONLY)
      await libraryUpload(server.baseUrl, file, SIZE)
        .catch(() => 0)
        .then(() => undefined);
    await clearBlobs();

    // Rounds of raw, library, CLI, interleaved: on a shared machine each method's best round is the
    // one least disturbed by other work, so the ratio is of bests (every sample is printed too).
    const samples = { raw: [] as number[], lib: [] as number[], cli: [] as number[] };
    const cpu = { raw: [] as number[], lib: [] as number[] };
    const rss: number[] = [];
    for (let round = 1; round <= (DOWNLOAD_ONLY ? 0 : ROUNDS); round++) {
      samples.raw.push(await rawPut(server.baseUrl, SIZE));
      cpu.raw.push(lastCpuSeconds);
      await clearBlobs();
      process.stdout.write(
        `round ${round}: raw PUT ${mbs(samples.raw.at(-1)!)} (client CPU ${cpu.raw.at(-1)!.toFixed(1)} s)\n`,
      );
      samples.lib.push(await libraryUpload(server.baseUrl, file, SIZE));
      cpu.lib.push(lastCpuSeconds);
      await clearBlobs();
      process.stdout.write(
        `round ${round}: library ${mbs(samples.lib.at(-1)!)} (client CPU ${cpu.lib.at(-1)!.toFixed(1)} s)\n`,
      );
      samples.cli.push(await cliUpload(server.baseUrl, file, SIZE, join(work, 'state')));
      rss.push(cliPeakRss);
      await clearBlobs();
      process.stdout.write(
        `round ${round}: cli ${mbs(samples.cli.at(-1)!)} (peak RSS ${(cliPeakRss / MIB).toFixed(0)} MiB)\n`,
      );
    }
    // Downloads of one uploaded copy, interleaved the same way; the saved file is removed each time.
    const kept = await upload([file], { server: server.baseUrl, concurrency: CONCURRENCY });
    const saved = join(work, 'saved');
    const clearSaved = async () => {
      await rm(saved, { recursive: true, force: true });
      await mkdir(saved);
    };
    await clearSaved();
    const down = {
      raw: [] as number[],
      saved: [] as number[],
      lib: [] as number[],
      cli: [] as number[],
      before: [] as number[],
    };
    const downCpu = { raw: [] as number[], saved: [] as number[], lib: [] as number[], before: [] as number[] };
    const downRss: number[] = [];
    await rawGet(kept.link, SIZE); // warm-up
    for (let round = 1; round <= ROUNDS; round++) {
      down.raw.push(await rawGet(kept.link, SIZE));
      downCpu.raw.push(lastCpuSeconds);
      down.saved.push(await rawGet(kept.link, SIZE, join(saved, 'raw.bin')));
      downCpu.saved.push(lastCpuSeconds);
      await clearSaved();
      down.lib.push(await libraryDownload(kept.link, saved, SIZE));
      downCpu.lib.push(lastCpuSeconds);
      await clearSaved();
      down.before.push(await libraryDownload(kept.link, saved, SIZE, true));
      downCpu.before.push(lastCpuSeconds);
      await clearSaved();
      down.cli.push(await cliDownload(server.baseUrl, kept.link, saved, SIZE, join(work, 'state')));
      downRss.push(cliPeakRss);
      await clearSaved();
      process.stdout.write(
        `round ${round}: download raw GET ${mbs(down.raw.at(-1)!)} (client CPU ${downCpu.raw.at(-1)!.toFixed(1)} s), raw GET saved ${mbs(down.saved.at(-1)!)} (client CPU ${downCpu.saved.at(-1)!.toFixed(1)} s), library ${mbs(down.lib.at(-1)!)} (client CPU ${downCpu.lib.at(-1)!.toFixed(1)} s), library with fetch + WebCrypto ${mbs(down.before.at(-1)!)} (client CPU ${downCpu.before.at(-1)!.toFixed(1)} s), cli ${mbs(down.cli.at(-1)!)} (peak RSS ${(cliPeakRss / MIB).toFixed(0)} MiB)\n`,
      );
    }
    await clearBlobs();

    // The CLI's memory on a file far larger than the one above: a sparse file (zeros, no disk).
    const sparse = join(work, 'sparse.bin');
    await writeFile(sparse, '');
    await truncate(sparse, SPARSE);
    const sparseUp = await cliRun(
      server.baseUrl,
      ['upload', sparse, '--json', '--quiet', '--concurrency', String(CONCURRENCY)],
      join(work, 'state'),
    );
    const sparseUpRss = cliPeakRss;
    await rm(sparse);
    const sparseLink = (JSON.parse(sparseUp.stdout) as { link: string }).link;
    const sparseDown = await cliRun(server.baseUrl, ['download', sparseLink, saved, '--json'], join(work, 'state'));
    const sparseDownRss = cliPeakRss;
    await clearSaved();
    await clearBlobs();
    process.stdout.write(
      `sparse ${SPARSE / MIB} MiB: cli upload ${mbs(SPARSE / sparseUp.seconds)} peak RSS ${(sparseUpRss / MIB).toFixed(0)} MiB, download ${mbs(SPARSE / sparseDown.seconds)} peak RSS ${(sparseDownRss / MIB).toFixed(0)} MiB\n`,
    );

    const best = (xs: number[]) => Math.max(...xs);
    process.stdout.write(
      `download ratio library/raw ${(best(down.lib) / best(down.raw)).toFixed(2)}, cli/raw ${(best(down.cli) / best(down.raw)).toFixed(2)} (target >= 0.8); library/raw saved ${(best(down.lib) / best(down.saved)).toFixed(2)}, cli/raw saved ${(best(down.cli) / best(down.saved)).toFixed(2)}; before (fetch + WebCrypto)/raw ${(best(down.before) / best(down.raw)).toFixed(2)}; client CPU (lowest) raw ${Math.min(...downCpu.raw).toFixed(1)} s, library ${Math.min(...downCpu.lib).toFixed(1)} s, before ${Math.min(...downCpu.before).toFixed(1)} s; peak RSS of the CLI download ${(Math.max(...downRss) / MIB).toFixed(0)} MiB\n`,
    );
    if (DOWNLOAD_ONLY) return;
    const raw = best(samples.raw);
    const lib = best(samples.lib);
    const cli = best(samples.cli);
    const libRatio = lib / raw;
    const cliRatio = cli / raw;
    const rawCpu = Math.min(...cpu.raw);
    const libCpu = Math.min(...cpu.lib);
    const peakRss = Math.max(...rss);
    process.stdout.write(`ratio library/raw ${libRatio.toFixed(2)}, cli/raw ${cliRatio.toFixed(2)} (target >= 0.8)\n`);
    const all = (xs: number[]) => xs.map((x) => (x / MIB).toFixed(0)).join(', ');

    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const section = `
## Client

\`npx tsx bench/cli-upload.ts\` (${date} UTC, ${SIZE / MIB} MiB random file, 10 MiB chunks, ${CONCURRENCY} chunks in flight,
server in a child process on loopback with the local blob store, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB;
client and server share the cores, and other work ran on the machine: load average ${loadavg()[0]!.toFixed(1)} at the end).
Throughput in plaintext MiB per second, ${ROUNDS} interleaved rounds, best round of each compared. Raw: plain \`fetch\`
PUTs of pre-generated random bodies of the exact encrypted length (no file reading, no encryption).

| run | best | all rounds | ratio to raw |
|---|---|---|---|
| raw chunk PUTs | ${mbs(raw)} | ${all(samples.raw)} | 1.00 |
| library \`upload()\` (read at offset + RFC 8188 encryption + PUT) | ${mbs(lib)} | ${all(samples.lib)} | ${libRatio.toFixed(2)} |
| CLI \`webfolder upload --quiet\` (child process via tsx) | ${mbs(cli)} | ${all(samples.cli)} | ${cliRatio.toFixed(2)} |

| raw chunk GETs (ticket, bytes dropped) | ${mbs(best(down.raw))} | ${all(down.raw)} | 1.00 |
| raw chunk GETs saved (each chunk written at its place, one fsync) | ${mbs(best(down.saved))} | ${all(down.saved)} | ${(best(down.saved) / best(down.raw)).toFixed(2)} |
| library \`download()\` (GET + RFC 8188 decryption + write + fsync + rename) | ${mbs(best(down.lib))} | ${all(down.lib)} | ${(best(down.lib) / best(down.raw)).toFixed(2)} |
| CLI \`webfolder download\` (child process via tsx) | ${mbs(best(down.cli))} | ${all(down.cli)} | ${(best(down.cli) / best(down.raw)).toFixed(2)} |
| library \`download()\` with the global fetch + WebCrypto (the path before node:http + node:crypto) | ${mbs(best(down.before))} | ${all(down.before)} | ${(best(down.before) / best(down.raw)).toFixed(2)} |

Client CPU time (user + system, in-process runs, lowest round): raw ${rawCpu.toFixed(1)} s, library ${libCpu.toFixed(1)} s for
${SIZE / MIB} MiB; reading and encryption cost ${mbs(SIZE / Math.max(0.001, libCpu - rawCpu))} of client CPU. Peak RSS of the CLI
process: ${(peakRss / MIB).toFixed(0)} MiB for the ${SIZE / MIB} MiB file (never held in memory: one plaintext buffer and up to
${CONCURRENCY} ciphertext chunks at a time). Target: >= 0.8 including encryption.
Download client CPU (lowest round): raw ${Math.min(...downCpu.raw).toFixed(1)} s, library ${Math.min(...downCpu.lib).toFixed(1)} s;
peak RSS of the CLI download: ${(Math.max(...downRss) / MIB).toFixed(0)} MiB. Memory whatever the file size: a sparse
${SPARSE / MIB} MiB file through the CLI, upload peak RSS ${(sparseUpRss / MIB).toFixed(0)} MiB (${mbs(SPARSE / sparseUp.seconds)}),
download peak RSS ${(sparseDownRss / MIB).toFixed(0)} MiB (${mbs(SPARSE / sparseDown.seconds)}).
`;
    if (!process.env.BENCH_NO_RECORD) await appendFile(join(ROOT, 'docs', 'benchmarks.md'), section);
  } finally {
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
