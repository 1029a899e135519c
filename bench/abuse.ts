/**
 * The abuse suite (not part of the test run): starts the compiled server (`npm run build`,
 * then `npx tsx bench/abuse.ts`) and runs each attack of docs/security.md for a bounded time, while a
 * separate client process asks for a small document (`GET /openapi.json`) in a loop and the server's
 * resident memory is sampled. Prints one table: attack, requests sent, p50/p99 of the small request
 * during the attack against idle (ratio), peak RSS, 5xx answers.
 *
 * Targets: the small request's p99 under 10x its idle p99 and under 250 ms, peak RSS under 400 MB,
 * zero 5xx, and (connection starvation) no fresh connection of another client address refused. Before
 * the table, the server CPU one maximum v2 create costs (target: under 50 ms on the local backend). Rate limits are raised out of the way (as in the other benchmarks), so what is measured
 * is what one request may cost, not the limiter's refusals; every other limit is at its default.
 *
 * Usage: npm run build && npx tsx bench/abuse.ts [seconds per attack, default 10] [attack names...]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MAX_FILE_SIZE } from '../src/domain/limits.js';
import { startSmtpReceiver } from '../test/support/receivers.js';
import { tempDir } from '../test/support/server.js';
import { ROOT, record, startProcess, WEBFOLDER } from './support.js';

// ---- the probe: a separate process, so the attackers' own work does not delay its measurements ----
if (process.argv[2] === 'probe') {
  const url = process.argv[3]!;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const phases = new Map<string, number[]>();
  let phase = 'warmup';
  let stopping = false;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'stop') stopping = true;
    else phase = line;
  });
  const once = () =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const req = httpRequest(`${url}/openapi.json`, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          const list = phases.get(phase) ?? [];
          list.push(performance.now() - start);
          phases.set(phase, list);
          resolve();
        });
      });
      req.on('error', () => resolve());
      req.end();
    });
  process.stdout.write('ready\n');
  while (!stopping) {
    await once();
    await new Promise((r) => setTimeout(r, 20));
  }
  process.stdout.write(JSON.stringify(Object.fromEntries(phases)));
  process.exit(0);
}

const SECONDS = Number(process.argv[2] ?? 10);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ONLY = process.argv.slice(3);
const PARALLEL = 4;

if (!existsSync(join(ROOT, WEBFOLDER))) {
  console.error(`${WEBFOLDER} is missing: run npm run build first`);
  process.exit(2);
}

const dataDir = await tempDir('webfolder-abuse-');
// A real SMTP server on loopback for the mail attack: what reaches it is what would reach the operator's.
const smtp = await startSmtpReceiver();
const server = await startProcess(WEBFOLDER, {
  SMTP_URL: smtp.url,
  MAIL_FROM: 'webfolder <noreply@example.org>',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'fatal',
  // The floor off: the maximum create registers more than a disk holds; its signing is what is measured.
  DISK_FREE_MIN_MIB: '0',
  RATE_LIMIT_CREATE: '100000000',
  RATE_LIMIT_STATUS: '100000000',
  RATE_LIMIT_CHUNK: '100000000',
  RATE_LIMIT_SITE: '100000000',
});
const base = server.url;
const pid = server.child.pid!;

async function rss(): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}

// ---- helpers the attacks share ---------------------------------------------------------------------
interface Tally {
  sent: number;
  fiveXX: number;
  /** Requests of another, well-behaved client that got no answer (connection starvation). */
  othersFailed?: number;
}

async function call(
  tally: Tally,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  tally.sent++;
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 500) tally.fiveXX++;
    return { status: res.status, text };
  } catch {
    return { status: 0, text: '' };
  }
}

const token = () => randomBytes(32).toString('base64url');
const maxFiles = (n: number) => Array.from({ length: n }, (_, i) => ({ filename: `f${i}`, filesize: MAX_FILE_SIZE }));

async function emptyFolder(tally: Tally): Promise<string> {
  const res = await call(tally, 'POST', '/v2/folders', {});
  return (JSON.parse(res.text) as { folderId: string }).folderId;
}

/** Runs `PARALLEL` copies of `step` until the attack's time is up. */
async function loop(until: number, step: () => Promise<unknown>): Promise<void> {
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (Date.now() < until) await step();
    }),
  );
}

function rawSocket(localAddress?: string): Promise<Socket> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect({ port: Number(url.port), host: url.hostname, ...(localAddress ? { localAddress } : {}) });
    socket.on('error', () => {});
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => resolve(socket));
  });
}

/** Files of 1,000 chunks each (at the default chunk size of 10 MiB): 100 of them are 100,000 chunk URLs. */
const thousandChunkFiles = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ filename: `k${i}`, filesize: 1000 * 10 * 1024 * 1024 }));

/** Registrations of `files` (default: files of the largest size), each into a fresh folder it claims. */
function registrations(
  tally: Tally,
  until: number,
  files: number,
  entries: (n: number) => { filename: string; filesize: number }[] = maxFiles,
): Promise<void> {
  return loop(until, async () => {
    const folderId = await emptyFolder(tally);
    await call(
      tally,
      'POST',
      `/api/site/folders/${folderId}/files`,
      { files: entries(files), ske: 'ske' },
      {
        'x-owner-token': token(),
        'accept-encoding': 'gzip',
      },
    );
  });
}

// ---- the attacks ---------------------------------------------------------------------------------------
/** Prepares its targets (not timed, not counted), then returns the attack itself, run until `until`. */
type Attack = (tally: Tally) => Promise<(until: number) => Promise<void>>;

const attacks: Record<string, Attack> = {
  // Registrations of ten files of the largest size: 99,770 chunk URLs each, the most one request may have.
  'site registration, 10 max-size files': async (tally) => (until) => registrations(tally, until, 10),
  // 100 files of the largest size in one registration (refused, 413: more chunk URLs than a request may have).
  'site registration, 100 max-size files': async (tally) => (until) => registrations(tally, until, 100),
  // The most files a site registration may carry, 1,000 chunks each: 100,000 chunk URLs in 100 files.
  'site registration, 100 files of 1,000 chunks': async (tally) => (until) =>
    registrations(tally, until, 100, thousandChunkFiles),
  'v2 create, 10 max-size files, gzip': async (tally) => async (until) => {
    await loop(until, () =>
      call(
        tally,
        'POST',
        '/v2/folders',
        { encryption: { ske: 'ske' }, files: maxFiles(10) },
        { 'accept-encoding': 'gzip' },
      ),
    );
  },
  'upload-urls of a 9,977-chunk file': async (tally) => {
    const folderId = await emptyFolder(tally);
    const owner = token();
    const reg = await call(
      tally,
      'POST',
      `/api/site/folders/${folderId}/files`,
      { files: maxFiles(1), ske: 'ske' },
      {
        'x-owner-token': owner,
      },
    );
    const fileId = (JSON.parse(reg.text) as { files: Array<{ fileId: string }> }).files[0]!.fileId;
    return (until) =>
      loop(until, () =>
        call(tally, 'POST', `/api/site/folders/${folderId}/files/${fileId}/upload-urls`, undefined, {
          'x-owner-token': owner,
          'accept-encoding': 'gzip',
        }),
      );
  },
  'listing a folder of 10,000 files, pages of 1,000': async (tally) => {
    const folderId = await emptyFolder(tally);
    const owner = token();
    const small = Array.from({ length: 100 }, (_, i) => ({ filename: `s${i}`, filesize: 1000 }));
    for (let i = 0; i < 100; i++)
      await call(
        tally,
        'POST',
        `/api/site/folders/${folderId}/files`,
        { files: small, ske: 'ske' },
        {
          'x-owner-token': owner,
        },
      );
    // Each loop walks the whole folder, a page of 1,000 files (the largest page) at a time.
    return (until) =>
      loop(until, async () => {
        let cursor: string | null = null;
        do {
          const query: string = cursor === null ? '?limit=1000' : `?limit=1000&cursor=${cursor}`;
          const page = await call(tally, 'GET', `/api/site/folders/${folderId}/files${query}`, undefined, {
            'x-owner-token': owner,
            'accept-encoding': 'gzip',
          });
          cursor = page.status === 200 ? (JSON.parse(page.text) as { nextCursor: string | null }).nextCursor : null;
        } while (cursor !== null && Date.now() < until);
      });
  },
  'slow chunk bodies (300 at 1 byte/s)': async (tally) => {
    const created = await call(tally, 'POST', '/v2/folders', {
      encryption: { ske: 'ske' },
      files: Array.from({ length: 10 }, (_, i) => ({ filename: `c${i}`, filesize: 300 * 10 * 1024 * 1024 })),
    });
    const files = (JSON.parse(created.text) as { files: Array<{ uploadUrls: Record<string, unknown> }> }).files;
    return async (until) => {
      const sockets: Socket[] = [];
      for (let i = 0; i < 300; i++) {
        const urls = files[i % 10]!.uploadUrls as { head: string; path: string; tail: string; signatures: string[] };
        const n = Math.floor(i / 10) + 1;
        const url = new URL(
          `${urls.head}${urls.path}/${String(n).padStart(5, '0')}?${urls.tail}&X-Amz-Signature=${urls.signatures[n - 1]}`,
        );
        const socket = await rawSocket();
        tally.sent++;
        socket.on('data', (d: Buffer) => {
          if (/^HTTP\/1\.1 5/.test(d.toString('latin1'))) tally.fiveXX++;
        });
        socket.write(
          `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: 10485781\r\n\r\n`,
        );
        sockets.push(socket);
      }
      const trickle = setInterval(() => {
        for (const s of sockets) if (s.writable) s.write('x');
      }, 1000);
      while (Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      clearInterval(trickle);
      for (const s of sockets) s.destroy();
    };
  },
  'idle connections (1,500)': async (tally) => async (until) => {
    const sockets: Socket[] = [];
    for (let i = 0; i < 1500; i++) {
      sockets.push(await rawSocket());
      tally.sent++;
    }
    while (Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    for (const s of sockets) s.destroy();
  },
  'bad-signature PUTs with Expect: 100-continue': async (tally) => {
    const created = await call(tally, 'POST', '/v2/folders', {
      encryption: { ske: 'ske' },
      files: [{ filename: 'x', filesize: 10 * 1024 * 1024 }],
    });
    const urls = (
      JSON.parse(created.text) as { files: Array<{ uploadUrls: { head: string; path: string; tail: string } }> }
    ).files[0]!.uploadUrls;
    const url = new URL(`${urls.head}${urls.path}/00001?${urls.tail}&X-Amz-Signature=${'0'.repeat(64)}`);
    return (until) =>
      loop(until, async () => {
        const socket = await rawSocket();
        tally.sent++;
        await new Promise<void>((resolve) => {
          socket.once('data', (d: Buffer) => {
            const text = d.toString('latin1');
            if (/^HTTP\/1\.1 5/.test(text)) tally.fiveXX++;
            // Sending the 10 MiB body after a 100 Continue is what this attack would do; it never gets one.
            if (/^HTTP\/1\.1 100/.test(text)) socket.write(randomBytes(10485781));
            socket.destroy();
            resolve();
          });
          socket.once('close', () => resolve());
          socket.write(
            `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: 10485781\r\nExpect: 100-continue\r\n\r\n`,
          );
        });
      });
  },
};

// ---- connection starvation from one address ------------------------------------------------------------
/**
 * More slow sockets than MAX_CONNECTIONS (1,000 by default) from 127.0.0.2, each sending one header line
 * every 2 s, while a well-behaved client on 127.0.0.1 opens a fresh connection for GET /healthz every
 * 100 ms: the probe's kept-alive connection alone would not show that newcomers are shut out.
 */
attacks['connection starvation (1,100 slow sockets, 2 addresses)'] = async (tally) => async (until) => {
  tally.othersFailed = 0;
  const host = new URL(base).host;
  const sockets: Socket[] = [];
  for (let i = 0; i < 1100; i++) {
    const socket = await rawSocket('127.0.0.2');
    if (!socket.destroyed) socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`);
    sockets.push(socket);
    tally.sent++;
  }
  const drip = setInterval(() => {
    for (const s of sockets) if (s.writable) s.write('X-Slow: 1\r\n');
  }, 2000);
  const other = async () => {
    const socket = await rawSocket('127.0.0.1');
    const answered = await new Promise<boolean>((resolve) => {
      socket.once('data', (d: Buffer) => {
        const text = d.toString('latin1');
        if (/^HTTP\/1\.1 5/.test(text)) tally.fiveXX++;
        resolve(/^HTTP\/1\.1 \d{3}/.test(text));
      });
      socket.once('close', () => resolve(false));
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    socket.destroy();
    if (!answered) tally.othersFailed = (tally.othersFailed ?? 0) + 1;
  };
  while (Date.now() < until) {
    await other();
    await new Promise((r) => setTimeout(r, 100));
  }
  clearInterval(drip);
  for (const s of sockets) s.destroy();
};

// ---- the mail attack ---------------------------------------------------------------------------------
/**
 * Anonymous folders, each with one file, ask for download notifications to third parties' addresses (a
 * new address every time), and their own files are downloaded again and again: before the fix, one mail
 * per download reached SMTP. Counts the mails that reached the SMTP server during the attack and in the
 * 5 s after it (the delivery loop's next rounds); at most one confirmation per address is expected,
 * within MAIL_CONFIRMATIONS_PER_CLIENT_PER_DAY and the instance budget (MAIL_BUDGET_PER_HOUR).
 */
const mailAttack = { addresses: 0, downloads: 0, mails: 0 };
attacks['mail to third parties (notifications, downloads)'] = async (tally) => {
  const folders: Array<{ folderId: string; fileId: string; owner: string }> = [];
  for (let i = 0; i < 20; i++) {
    const folderId = await emptyFolder(tally);
    const owner = token();
    const reg = await call(
      tally,
      'POST',
      `/api/site/folders/${folderId}/files`,
      { files: [{ filename: 'f', filesize: 10 }], ske: 'ske' },
      { 'x-owner-token': owner },
    );
    const file = (JSON.parse(reg.text) as { files: Array<{ fileId: string; uploadUrls: Record<string, string> }> })
      .files[0]!;
    const u = file.uploadUrls as unknown as { head: string; path: string; tail: string; signatures: string[] };
    await fetch(`${u.head}${u.path}/00001?${u.tail}&X-Amz-Signature=${u.signatures[0]}`, {
      method: 'PUT',
      body: randomBytes(10 + 21 + 17),
    }).then((r) => r.arrayBuffer());
    await call(tally, 'GET', `/api/site/folders/${folderId}/files/${file.fileId}/status`, undefined, {
      'x-owner-token': owner,
    });
    folders.push({ folderId, fileId: file.fileId, owner });
  }
  return async (until) => {
    const before = smtp.mails.length;
    let n = 0;
    await loop(until, async () => {
      const f = folders[n++ % folders.length]!;
      mailAttack.addresses++;
      await call(
        tally,
        'PUT',
        `/api/site/folders/${f.folderId}/notifications`,
        { email: `victim${n}@example.org`, onDownload: true },
        { 'x-owner-token': f.owner },
      );
      for (let d = 0; d < 5; d++) {
        mailAttack.downloads++;
        await call(tally, 'POST', `/api/site/folders/${f.folderId}/files/${f.fileId}/downloads`, undefined, {
          'x-visitor-token': token(),
        });
      }
    });
    await pause(5000);
    mailAttack.mails = smtp.mails.length - before;
  };
};

/** Server CPU (user + system, from /proc) of `count` maximum v2 creates, one at a time, in ms each. */
async function maxCreateCpuMs(count: number): Promise<number> {
  const cpuMs = async () => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const tally: Tally = { sent: 0, fiveXX: 0 };
  const body = { encryption: { ske: 'ske' }, files: maxFiles(10) };
  await call(tally, 'POST', '/v2/folders', body); // warm-up: compiled paths, first allocations
  await pause(500);
  const before = await cpuMs();
  for (let i = 0; i < count; i++) await call(tally, 'POST', '/v2/folders', body, { 'accept-encoding': 'gzip, br' });
  await pause(500); // the sockets' and garbage collector's share of the work
  return (await cpuMs()) - before;
}

// ---- the run -------------------------------------------------------------------------------------------
// Measured before the probe starts, so that its requests are not counted in.
const CREATES = 10;
const createCpuMs = (await maxCreateCpuMs(CREATES)) / CREATES;
const probe = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, 'probe', base], {
  cwd: ROOT,
  stdio: ['pipe', 'pipe', 'inherit'],
});
let probeOut = '';
probe.stdout!.on('data', (d: Buffer) => (probeOut += d.toString()));
const mark = (phase: string) => probe.stdin!.write(`${phase}\n`);

// The probe starts through tsx, which takes seconds on a busy machine: wait until it says so.
while (!probeOut.startsWith('ready\n')) await pause(100);
probeOut = '';
await pause(1000);
mark('idle');
await pause(SECONDS * 1000);

interface Row {
  name: string;
  sent: number;
  fiveXX: number;
  othersFailed: number | undefined;
  peakRss: number;
}
const rows: Row[] = [];
for (const [name, attack] of Object.entries(attacks)) {
  if (ONLY.length > 0 && !ONLY.some((o) => name.includes(o))) continue;
  // One tally: the setup's requests are not counted as sent, its 5xx answers are.
  const tally: Tally = { sent: 0, fiveXX: 0 };
  const run = await attack(tally);
  tally.sent = 0;
  await pause(1000);
  let peak = await rss();
  const sampler = setInterval(() => {
    rss().then(
      (v) => {
        peak = Math.max(peak, v);
      },
      () => {},
    );
  }, 50);
  mark(name);
  await run(Date.now() + SECONDS * 1000);
  mark('between');
  clearInterval(sampler);
  rows.push({ name, sent: tally.sent, fiveXX: tally.fiveXX, othersFailed: tally.othersFailed, peakRss: peak });
  // Let the server settle (closed sockets, garbage) before the next attack.
  await pause(3000);
}
probe.stdin!.write('stop\n');
await new Promise((r) => probe.once('exit', r));
await server.stop();
await smtp.close();
await rm(dataDir, { recursive: true, force: true });

const latencies = JSON.parse(probeOut) as Record<string, number[]>;
const pct = (values: number[] | undefined, p: number) => {
  if (!values || values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const idle50 = pct(latencies.idle, 50);
const idle99 = pct(latencies.idle, 99);
const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : v.toFixed(1));
const lines = [
  `abuse suite: ${SECONDS} s per attack, ${PARALLEL} parallel loops; idle GET /openapi.json p50 ${ms(idle50)} ms, p99 ${ms(idle99)} ms; machine load average ${loadavg()[0]!.toFixed(1)} at the end`,
  `one maximum v2 create (10 files of the largest size, 99,770 chunk URLs): ${createCpuMs.toFixed(0)} ms of server CPU (mean of ${CREATES}; target < 50 ms: ${createCpuMs < 50 ? 'met' : 'NOT met'})`,
  '| attack | requests sent | p50 ms (x idle) | p99 ms (x idle) | peak RSS MB | 5xx | others refused | targets |',
  '|---|---|---|---|---|---|---|---|',
];
for (const row of rows) {
  const p50 = pct(latencies[row.name], 50);
  const p99 = pct(latencies[row.name], 99);
  const met =
    p99 < 10 * idle99 && p99 < 250 && row.peakRss < 400 * 1024 * 1024 && row.fiveXX === 0 && !row.othersFailed;
  lines.push(
    `| ${row.name} | ${row.sent} | ${ms(p50)} (${(p50 / idle50).toFixed(1)}) | ${ms(p99)} (${(p99 / idle99).toFixed(1)}) | ${(row.peakRss / 1024 / 1024).toFixed(0)} | ${row.fiveXX} | ${row.othersFailed ?? '-'} | ${met ? 'met' : 'NOT met'} |`,
  );
}
if (mailAttack.addresses > 0)
  lines.push(
    `mail attack: ${mailAttack.addresses} third-party addresses named, ${mailAttack.downloads} downloads; ${mailAttack.mails} mails reached SMTP (before the fix: one per download)`,
  );
for (const line of lines) await record(line);
