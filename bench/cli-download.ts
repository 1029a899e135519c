/**
 * The CLI's download against raw chunk GETs of the same server, same run.
 *
 *   npm run build && npx tsx bench/cli-download.ts      # 1 GiB file (BENCH_SIZE_MIB=512 for a quicker run)
 *
 * 1. The compiled server (dist/main.js) in its own process on a loopback port, a fresh DATA_DIR,
 *    10 MiB chunks; a file of random bytes uploaded once (the library's upload(), not measured).
 * 2. BENCH_ROUNDS (default 3) alternating rounds of:
 *    - "raw fetch": every chunk GET of the same URLs with a download ticket, 4 in flight, by the
 *      global fetch (`arrayBuffer()`), each body written at its place in one file, one fsync at the
 *      end: what a plain client that keeps the bytes does, without decrypting them;
 *    - "raw node:http": the same through node:http, each body read into one buffer of its announced
 *      length and written the same way (no undici: the fastest plain GET Node offers);
 *    - "cli": `webfolder download <link> <dir> --json` (bin/webfolder.js on the compiled code, as
 *      installed) in its own process, timed from spawn to exit, its file's SHA-256 checked against
 *      the original's, with its peak RSS and CPU (user + system, from the process itself).
 * Prints each round, the ratios of the best rounds (the least disturbed on a shared machine) and
 * of the CPU per GiB, and the load average. CLI / raw >= 0.9 is the target, against each raw.
 * BENCH_CLI_PROFILE=<dir>: the CLI writes a V8 CPU profile there (node --cpu-prof).
 * BENCH_CLI_BEFORE=<path of another build's bin/webfolder.js>: that CLI runs in the same rounds too
 * ("cli before"), for a before/after of a change measured under the same load.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { download, listFolder, upload } from '../src/client/node/index.js';
import { encryptedLength } from '../src/domain/chunk-plan.js';
import { siteChunkUrl } from '../src/transfer/urls.js';
import { ROOT, startProcess, UNLIMITED, WEBFOLDER } from './support.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const SIZE = Number(process.env.BENCH_SIZE_MIB ?? 1024) * MIB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 4;
const BEFORE = process.env.BENCH_CLI_BEFORE;

async function makeFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  try {
    for (let offset = 0; offset < size; offset += 64 * MIB) {
      const block = randomBytes(Math.min(64 * MIB, size - offset));
      hash.update(block);
      await handle.write(block, 0, block.length, offset);
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path, { highWaterMark: 4 * MIB })) hash.update(piece as Buffer);
  return hash.digest('hex');
}

interface Run {
  readonly seconds: number;
  /** Client CPU seconds, user + system. */
  readonly cpu: number;
  /** Peak resident memory of the client process (the CLI's; 0 for in-process runs). */
  readonly rss: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One chunk's body through node:http, into one buffer of its announced length. */
function httpGet(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`GET ${url}: ${response.statusCode}`));
          return;
        }
        const into = Buffer.allocUnsafe(Number(response.headers['content-length']));
        let at = 0;
        response.on('data', (piece: Buffer) => {
          piece.copy(into, at);
          at += piece.length;
        });
        response.on('end', () => (at === into.length ? resolve(into) : reject(new Error(`GET ${url}: cut short`))));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Raw chunk GETs of the file (a ticket each run, as a download takes), saved at their places, one fsync. */
async function rawGet(link: string, saveTo: string, via: 'fetch' | 'http'): Promise<Run> {
  const listing = await listFolder(link, {});
  const file = listing.files[0]!;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { ticket } = await listing.client.startDownload(file.fileId);
  const headers = {
    ...listing.client.credentialHeaders(),
    'x-download-ticket': ticket,
    accept: 'application/octet-stream',
  };
  const out = await open(saveTo, 'w');
  let next = 1;
  const worker = async () => {
    while (next <= file.chunks) {
      const n = next++;
      const url = siteChunkUrl(listing.siteApi, listing.folderId, file.fileId, n);
      let bytes: Uint8Array;
      if (via === 'http') bytes = await httpGet(url, headers);
      else {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`GET ${n}: ${res.status} ${await res.text()}`);
        bytes = new Uint8Array(await res.arrayBuffer());
      }
      await out.write(bytes, 0, bytes.length, (n - 1) * encryptedLength(file.chunkSize));
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await out.sync();
  } finally {
    await out.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpu: (used.user + used.system) / 1e6, rss: 0 };
}

/** `webfolder download <link> <dir> --json` in its own process: wall time, its own CPU and peak RSS. */
async function cliDownload(server: string, link: string, dir: string, work: string, bin: string): Promise<Run> {
  const hook = join(work, 'usage-hook.mjs');
  await writeFile(
    hook,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this is the hook's own source, a template literal
    "process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write(`usage ${u.userCPUTime} ${u.systemCPUTime} ${u.maxRSS}\\n`); });\n",
  );
  const profile = process.env.BENCH_CLI_PROFILE;
  const args = [
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
    '--import',
    hook,
    bin,
    'download',
    link,
    dir,
    '--json',
  ];
  let stderr = '';
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, WEBFOLDER_SERVER: server, WEBFOLDER_STATE_DIR: join(work, 'state') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`the CLI exited ${code}: ${stderr}`);
  const usage = /usage (\d+) (\d+) (\d+)/.exec(stderr);
  if (!usage) throw new Error(`the CLI reported no usage: ${stderr}`);
  return { seconds, cpu: (Number(usage[1]) + Number(usage[2])) / 1e6, rss: Number(usage[3]) * 1024 };
}

const rate = (run: Run) => SIZE / MIB / run.seconds;
const perGib = (run: Run) => run.cpu / (SIZE / GIB);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, WEBFOLDER)) || !existsSync(join(ROOT, 'dist/client/cli.js'))) {
    console.error('dist/ is missing: run npm run build first');
    process.exit(1);
  }
  const work = await mkdtemp(join(tmpdir(), 'webfolder-bench-cli-download-'));
  const server = await startProcess(WEBFOLDER, { DATA_DIR: join(work, 'data'), ...UNLIMITED, CHUNK_SIZE_MIB: '10' });
  try {
    const original = join(work, 'payload.bin');
    process.stdout.write(`load average ${load()}; ${SIZE / MIB} MiB of random bytes, uploaded once...\n`);
    const digest = await makeFile(original, SIZE);
    const { link } = await upload([original], { server: server.url, concurrency: CONCURRENCY });
    await rm(original);
    const saved = join(work, 'saved');
    const fresh = async () => {
      await rm(saved, { recursive: true, force: true });
      await mkdir(saved);
    };
    // Warm-up (JIT, connections, the blob store's page cache), not measured.
    await fresh();
    await rawGet(link, join(saved, 'raw.bin'), 'fetch');
    await fresh();
    await download(link, saved, { concurrency: CONCURRENCY });

    const runs = { fetch: [] as Run[], http: [] as Run[], cli: [] as Run[], before: [] as Run[] };
    const cliRound = async (bin: string) => {
      await fresh();
      const run = await cliDownload(server.url, link, saved, work, bin);
      const got = await sha256Of(join(saved, 'payload.bin'));
      if (got !== digest) throw new Error(`${bin} saved a file of SHA-256 ${got}, the original's is ${digest}`);
      return run;
    };
    for (let round = 1; round <= ROUNDS; round++) {
      await fresh();
      runs.fetch.push(await rawGet(link, join(saved, 'raw.bin'), 'fetch'));
      await fresh();
      runs.http.push(await rawGet(link, join(saved, 'raw.bin'), 'http'));
      const cli = await cliRound(join(ROOT, 'bin/webfolder.js'));
      runs.cli.push(cli);
      if (BEFORE) runs.before.push(await cliRound(BEFORE));
      const line = (name: string, run: Run) =>
        `${name} ${rate(run).toFixed(0)} MiB/s, ${perGib(run).toFixed(2)} CPU s/GiB${run.rss ? `, peak RSS ${(run.rss / MIB).toFixed(0)} MiB` : ''}`;
      process.stdout.write(
        `round ${round} (load ${load()}): ${line('raw fetch', runs.fetch.at(-1)!)}; ${line('raw node:http', runs.http.at(-1)!)}; ${line('cli', cli)}${BEFORE ? `; ${line('cli before', runs.before.at(-1)!)}` : ''} (SHA-256 ok)\n`,
      );
    }
    const best = (xs: Run[]) => Math.max(...xs.map(rate));
    const leastCpu = (xs: Run[]) => Math.min(...xs.map(perGib));
    const median = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    };
    // Rates swing 2-3x between rounds on a shared machine: the ratio of two runs of the same round
    // (the same minute's load), their median, and the ratio of CPU per GiB are the steadier figures.
    const paired = (a: Run[], b: Run[]) => a.map((run, i) => rate(run) / rate(b[i]!));
    const verdict = (r: number) => `${r.toFixed(2)} (target >= 0.9: ${r >= 0.9 ? 'met' : 'NOT met'})`;
    const summary = (name: string, xs: Run[], against: Run[], base: string) => {
      const rounds = paired(xs, against);
      return `${name} / ${base}: rounds ${rounds.map((r) => r.toFixed(2)).join(', ')}, median ${verdict(median(rounds))}; best rounds ${(best(xs) / best(against)).toFixed(2)}; CPU per GiB ${(leastCpu(against) / leastCpu(xs)).toFixed(2)} (${base}'s lowest / ${name}'s lowest)`;
    };
    process.stdout.write(
      [
        `best MiB/s: raw fetch ${best(runs.fetch).toFixed(0)}, raw node:http ${best(runs.http).toFixed(0)}, cli ${best(runs.cli).toFixed(0)}`,
        summary('cli', runs.cli, runs.fetch, 'raw fetch'),
        summary('cli', runs.cli, runs.http, 'raw node:http'),
        `lowest CPU s/GiB: raw fetch ${leastCpu(runs.fetch).toFixed(2)}, raw node:http ${leastCpu(runs.http).toFixed(2)}, cli ${leastCpu(runs.cli).toFixed(2)} (process start-up and decryption included)`,
        ...(BEFORE
          ? [
              summary('cli before', runs.before, runs.fetch, 'raw fetch'),
              summary('cli before', runs.before, runs.http, 'raw node:http'),
              summary('cli', runs.cli, runs.before, 'cli before'),
              `cli before: lowest ${leastCpu(runs.before).toFixed(2)} CPU s/GiB, peak RSS ${(Math.max(...runs.before.map((r) => r.rss)) / MIB).toFixed(0)} MiB`,
            ]
          : []),
        `cli peak RSS ${(Math.max(...runs.cli.map((r) => r.rss)) / MIB).toFixed(0)} MiB; load average at the end ${load()}`,
      ]
        .map((line) => `${line}\n`)
        .join(''),
    );
  } finally {
    agent.destroy();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
