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
 * 4. "cli": `webfolder upload <file> --json --quiet` as a child process.
 * Raw runs before and after the client runs; the baseline is their mean. Throughput is plaintext
 * bytes per second for all three. Prints the ratios and appends them to docs/benchmarks.md under
 * "Client". Not part of the test run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { chunkUrl, upload } from '../src/client/node/index.js';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { encryptedLength } from '../src/domain/chunk-plan.js';
import { spawnServer } from '../test/support/server.js';

const MIB = 1024 * 1024;
const ROOT = new URL('../', import.meta.url).pathname;
const SIZE = Number(process.env.BENCH_SIZE_MIB ?? 2048) * MIB;
const CONCURRENCY = 4;
let serverOutput = () => "";

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
      const p = n < file.chunks ? file.chunkSize : size - file.chunkSize * (file.chunks - 1);
      const chunk = body.subarray(0, encryptedLength(p));
      const put = await fetch(chunkUrl(file.uploadUrls, n), { method: 'PUT', headers: { ...file.uploadUrls.headers, 'Content-Length': String(chunk.length) }, body: chunk });
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

async function cliUpload(server: string, path: string, size: number, stateDir: string): Promise<number> {
  const hook = join(stateDir, '..', 'maxrss-hook.mjs');
  await writeFile(hook, "process.on('exit', () => process.stderr.write(`maxrss ${process.resourceUsage().maxRSS}\\n`));\n");
  let stderr = '';
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', hook, join(ROOT, 'src/client/cli.ts'), 'upload', path, '--json', '--quiet', '--concurrency', String(CONCURRENCY)], {
      cwd: ROOT,
      env: { ...process.env, WEBFOLDER_SERVER: server, WEBFOLDER_STATE_DIR: stateDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`cli exited ${code}: ${stderr}`);
  cliPeakRss = Number(/maxrss (\d+)/.exec(stderr)?.[1] ?? 0) * 1024;
  return size / ((performance.now() - started) / 1000);
}

const mbs = (bytesPerSecond: number) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'webfolder-bench-client-'));
  const dataDir = join(work, 'data');
  const server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_CHUNK: '1000000', RATE_LIMIT_CREATE: '100000', RATE_LIMIT_STATUS: '100000' });
  serverOutput = () => server.output().slice(-3000);
  // Frees the disk between runs: every folder's chunks, but not the store's .incoming directory.
  const clearBlobs = async () => {
    const blobs = join(dataDir, 'blobs');
    for (const name of await readdir(blobs)) if (name !== '.incoming') await rm(join(blobs, name), { recursive: true, force: true });
  };
  try {
    const file = join(work, 'payload.bin');
    process.stdout.write(`generating ${SIZE / MIB} MiB of random data...\n`);
    await makeFile(file, SIZE);
    // Warm-up (JIT, connections) on a small upload, not measured.
    await rawPut(server.baseUrl, 64 * MIB);
    await libraryUpload(server.baseUrl, file, SIZE).catch(() => 0).then(() => undefined);
    await clearBlobs();

    const raw1 = await rawPut(server.baseUrl, SIZE);
    const rawCpu = lastCpuSeconds;
    process.stdout.write(`raw PUT     ${mbs(raw1)} (client CPU ${rawCpu.toFixed(1)} s)\n`);
    await clearBlobs();
    const lib = await libraryUpload(server.baseUrl, file, SIZE);
    const libCpu = lastCpuSeconds;
    process.stdout.write(`library     ${mbs(lib)} (client CPU ${libCpu.toFixed(1)} s)\n`);
    await clearBlobs();
    const cli = await cliUpload(server.baseUrl, file, SIZE, join(work, 'state'));
    process.stdout.write(`cli         ${mbs(cli)} (peak RSS ${(cliPeakRss / MIB).toFixed(0)} MiB)\n`);
    await clearBlobs();
    const raw2 = await rawPut(server.baseUrl, SIZE);
    process.stdout.write(`raw PUT     ${mbs(raw2)}\n`);
    await clearBlobs();
    const raw = (raw1 + raw2) / 2;
    const libRatio = lib / raw;
    const cliRatio = cli / raw;
    process.stdout.write(`ratio library/raw ${libRatio.toFixed(2)}, cli/raw ${cliRatio.toFixed(2)} (target >= 0.8)\n`);

    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const section = `
## Client

\`npx tsx bench/cli-upload.ts\` (${date} UTC, ${SIZE / MIB} MiB random file, 10 MiB chunks, ${CONCURRENCY} chunks in flight,
server in a child process on loopback with the local blob store, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB;
client and server share the cores). Throughput in plaintext bytes per second; the baseline is the mean of a raw
run before and after: plain \`fetch\` PUTs of pre-generated random bodies of the exact encrypted length (no file
reading, no encryption).

| run | throughput | ratio to raw |
|---|---|---|
| raw chunk PUTs (before / after) | ${mbs(raw1)} / ${mbs(raw2)} | 1.00 |
| library \`upload()\` (read at offset + RFC 8188 encryption + PUT) | ${mbs(lib)} | ${libRatio.toFixed(2)} |
| CLI \`webfolder upload --quiet\` (child process) | ${mbs(cli)} | ${cliRatio.toFixed(2)} |

Client CPU time (user + system, in-process runs): raw ${rawCpu.toFixed(1)} s, library ${libCpu.toFixed(1)} s for ${SIZE / MIB} MiB
(encryption and reading: ${mbs(SIZE / Math.max(0.001, libCpu - rawCpu))} of client CPU). Peak RSS of the CLI process:
${(cliPeakRss / MIB).toFixed(0)} MiB for the ${SIZE / MIB} MiB file (it is never held in memory: one plaintext buffer and up to
${CONCURRENCY} ciphertext chunks at a time). Load average at the end: ${loadavg()[0]!.toFixed(1)}.
Target: >= 0.8 including encryption.
`;
    if (!process.env.BENCH_NO_RECORD) await appendFile(join(ROOT, 'docs', 'benchmarks.md'), section);
  } finally {
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
