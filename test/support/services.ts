import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type CephCluster, missingCephBinaries, startCeph } from './ceph.js';
import { until } from './poll.js';
import { freePort } from './server.js';
import { which } from './which.js';

/**
 * The scale-out services for tests: PostgreSQL, Redis and an S3-compatible server, each either given
 * by the environment or started here on loopback, so that a plain `npm test` runs whatever this machine
 * can run and skips the rest with a message that says why.
 *
 * - PostgreSQL: TEST_DATABASE_URL (a role allowed to CREATE DATABASE), else a throwaway cluster from the
 *   `initdb`/`pg_ctl` binaries on PATH or under /usr/lib/postgresql/<version>/bin (as user `postgres`
 *   when running as root). Every `freshDatabase()` is a new database, so tests never see each other.
 * - Redis: TEST_REDIS_URL, else `redis-server` from PATH on a free port, without persistence.
 * - S3: TEST_S3_ENDPOINT (+ TEST_S3_ACCESS_KEY_ID, TEST_S3_SECRET_ACCESS_KEY, TEST_S3_REGION), else
 *   a throwaway Ceph cluster's RADOS Gateway (./ceph.ts), which checks signatures like S3. No test
 *   needs what only an emulator does; should one, it says why and starts its own.
 *
 * Whatever is started here is stopped by `stop()` and, should the test process die first, by an exit
 * hook, so no server outlives its test.
 */
export interface Unavailable {
  readonly skip: string;
}

/**
 * A service that cannot be had: a skip with its reason, or, when TEST_REQUIRE_SERVICES=1 (set by
 * .ci/run through scripts/ci/20-services.sh), a failure, so that CI never passes by skipping.
 */
function unavailable(reason: string): Unavailable {
  if (process.env.TEST_REQUIRE_SERVICES === '1') throw new Error(`${reason} (TEST_REQUIRE_SERVICES=1)`);
  return { skip: reason };
}

const exitHooks = new Set<() => void>();
const runExitHooks = () => {
  for (const hook of exitHooks) hook();
  exitHooks.clear();
};
process.once('exit', runExitHooks);
// The test runner stops a timed-out file with a signal, which skips 'exit': stop the servers then too.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    runExitHooks();
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  });
}

// ---------------------------------------------------------------------------------------------------
// PostgreSQL

export interface PostgresService {
  /** A URL to the server's administrative database. */
  readonly adminUrl: string;
  /** Creates an empty database and returns its URL. */
  freshDatabase(): Promise<string>;
  /** Fault injection on a server started here (null for TEST_DATABASE_URL): see ServerControl. */
  readonly control: ServerControl | null;
  stop(): Promise<void>;
}

/** Faults of a service this process started, for the fault tests (test/scale/faults.test.ts). */
export interface ServerControl {
  /** Stops the server, as an outage: connections drop and new ones are refused. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  resume(): Promise<void>;
}

/** The directory of initdb/pg_ctl: '' when they are on PATH, null when there are none. */
function postgresBinDir(): string | null {
  if (which('pg_ctl') && which('initdb')) return '';
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  return null;
}

export interface PostgresOptions {
  /**
   * Keep PostgreSQL's durable defaults (fsync, synchronous_commit) instead of the test settings that
   * trade durability for speed. Benchmarks use it.
   */
  readonly durable?: boolean;
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresService | Unavailable> {
  const given = process.env.TEST_DATABASE_URL?.trim();
  if (given) return postgresFromUrl(given, async () => {}, null);
  const binDir = postgresBinDir();
  if (binDir === null) {
    return unavailable(
      'PostgreSQL tests skipped: set TEST_DATABASE_URL, or install the PostgreSQL server binaries (initdb, pg_ctl; Debian: apt-get install postgresql-15)',
    );
  }
  const bin = (name: string) => (binDir ? join(binDir, name) : name);
  const asRoot = process.getuid?.() === 0;
  const run = (args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)]) as [string, string[]];
  const dir = mkdtempSync(join(tmpdir(), 'webfolder-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (ids.status !== 0)
      return unavailable(
        'PostgreSQL tests skipped: running as root and there is no `postgres` user to run the server as',
      );
    chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
    chmodSync(dir, 0o700);
  }
  const init = spawnSync(
    ...run([
      bin('initdb'),
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]),
    { encoding: 'utf8' },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  const fast = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${fast}`;
  const started = spawnSync(
    ...run([bin('pg_ctl'), '-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start']),
    { encoding: 'utf8' },
  );
  if (started.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pg_ctl start failed: ${started.stderr || started.stdout}`);
  }
  const stopSync = () => {
    spawnSync(...run([bin('pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  exitHooks.add(stopSync);
  // pg_ctl as an outage: a fast stop (what `pg_ctl restart -m fast` does first) ends every session.
  const pgCtl = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [command, commandArgs] = run([bin('pg_ctl'), '-D', data, ...args]);
      const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl ${args.at(-1)}: ${stderr}`))));
    });
  const control: ServerControl = {
    halt: () => pgCtl(['-m', 'fast', '-w', 'stop']),
    resume: () => pgCtl(['-l', join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start']),
  };
  return postgresFromUrl(
    `postgres://postgres@127.0.0.1:${port}/postgres`,
    async () => {
      exitHooks.delete(stopSync);
      stopSync();
    },
    control,
  );
}

async function postgresFromUrl(
  adminUrl: string,
  stopServer: () => Promise<void>,
  control: ServerControl | null,
): Promise<PostgresService> {
  // A pool, not one client: the fault tests restart the server under it.
  const admin = new pg.Pool({ connectionString: adminUrl, max: 2 });
  admin.on('error', () => {});
  await ready('PostgreSQL', async () => {
    const probe = new pg.Client({ connectionString: adminUrl });
    await probe.connect();
    await probe.end();
    return true;
  });
  const created: string[] = [];
  return {
    adminUrl,
    control,
    async freshDatabase() {
      const name = `webfolder_test_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
      await stopServer();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Redis

export interface RedisService {
  readonly url: string;
  /** Removes every key (between tests). */
  flush(): Promise<void>;
  /** Fault injection on a server started here (null for TEST_REDIS_URL). */
  readonly control: ServerControl | null;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisService | Unavailable> {
  const given = process.env.TEST_REDIS_URL?.trim();
  if (given) return redisFromUrl(given, async () => {}, null);
  const binary = which('redis-server');
  if (!binary)
    return unavailable(
      'Redis tests skipped: set TEST_REDIS_URL, or install redis-server (Debian: apt-get install redis-server)',
    );
  const port = await freePort();
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const launch = () => {
    const started = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      { stdio: 'ignore' },
    );
    child = started;
    exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
  };
  const kill = () => child?.kill('SIGKILL');
  exitHooks.add(kill);
  launch();
  const url = `redis://127.0.0.1:${port}`;
  const control: ServerControl = {
    async halt() {
      child?.kill('SIGKILL');
      await exited;
      child = null;
    },
    async resume() {
      launch();
      await ready('Redis', async () => {
        const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        probe.on('error', () => {});
        try {
          await probe.connect();
          return (await probe.ping()) === 'PONG';
        } finally {
          probe.disconnect();
        }
      });
    },
  };
  return redisFromUrl(
    url,
    async () => {
      exitHooks.delete(kill);
      child?.kill('SIGTERM');
      await exited;
    },
    control,
  );
}

async function redisFromUrl(
  url: string,
  stopServer: () => Promise<void>,
  control: ServerControl | null,
): Promise<RedisService> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  client.on('error', () => {}); // refused while the server starts: `until` retries
  await ready('Redis', async () => {
    if (client.status === 'wait') await client.connect();
    return (await client.ping()) === 'PONG';
  });
  return {
    url,
    control,
    async flush() {
      await client.flushdb();
    },
    async stop() {
      client.disconnect();
      await stopServer();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// S3

export interface S3Service {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** True for an emulator that checks no signatures (a TEST_S3_ENDPOINT never is). */
  readonly emulated: boolean;
  /** Fault injection (the gateway stopped and started again) where the tests started it. */
  readonly control: ServerControl | null;
  /** A bucket name nobody used yet (the store creates it). */
  freshBucket(): string;
  /** The S3_* configuration variables for a node using `bucket`. */
  env(bucket: string): Record<string, string>;
  stop(): Promise<void>;
}

/** The one Ceph cluster of this process (see startS3). */
let cluster: Promise<CephCluster> | null = null;

/**
 * The S3 of the tests: TEST_S3_ENDPOINT (+ TEST_S3_ACCESS_KEY_ID, TEST_S3_SECRET_ACCESS_KEY,
 * TEST_S3_REGION) when set, else a throwaway Ceph cluster's RADOS Gateway (./ceph.ts), a real S3 that
 * checks every signature. One cluster serves the whole test process (a test file): it starts on the
 * first call, later calls share it (each test uses its own bucket), and it is removed when the
 * process exits, so `stop()` of a shared cluster does nothing.
 */
export async function startS3(): Promise<S3Service | Unavailable> {
  const given = process.env.TEST_S3_ENDPOINT?.trim();
  if (given)
    return s3Service(
      given.replace(/\/+$/, ''),
      process.env.TEST_S3_ACCESS_KEY_ID ?? '',
      process.env.TEST_S3_SECRET_ACCESS_KEY ?? '',
      { emulated: false, control: null, stop: async () => {} },
    );
  const missing = missingCephBinaries();
  if (missing.length > 0)
    return unavailable(
      `S3 tests skipped: set TEST_S3_ENDPOINT, or install Ceph's RADOS Gateway (missing ${missing.join(', ')}; Debian: apt-get install --no-install-recommends ceph-mon ceph-osd radosgw)`,
    );
  if (!cluster) {
    cluster = startCeph((destroy) => exitHooks.add(destroy));
    cluster.catch(() => {
      cluster = null;
    });
  }
  const ceph = await cluster;
  return s3Service(ceph.endpoint, ceph.accessKeyId, ceph.secretAccessKey, {
    emulated: false,
    control: { halt: () => ceph.haltGateway(), resume: () => ceph.resumeGateway() },
    stop: async () => {},
  });
}

function s3Service(
  endpoint: string,
  accessKeyId: string,
  secretAccessKey: string,
  how: { emulated: boolean; control: ServerControl | null; stop: () => Promise<void> },
): S3Service {
  const region = process.env.TEST_S3_REGION ?? 'us-east-1';
  return {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    emulated: how.emulated,
    control: how.control,
    freshBucket: () => `webfolder-test-${randomBytes(6).toString('hex')}`,
    env: (bucket) => ({
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    stop: how.stop,
  };
}

export function isUnavailable(value: object): value is Unavailable {
  return 'skip' in value;
}

/** A service of a whole test file (see useService): null before the file's hooks ran or where it cannot be had. */
export interface FileService<S> {
  readonly service: S | null;
  /** Why the service is missing (a skip reason); empty while it is there. */
  readonly skip: string;
}

/**
 * Starts a service (`startPostgres`, `startS3` ...) before the file's or suite's tests and stops it
 * after; call where `before`/`after` may be registered. Where it cannot be had its tests skip with
 * the reason, except under TEST_REQUIRE_SERVICES=1 (CI), where the start throws.
 */
export function useService<S extends { stop(): Promise<void> }>(start: () => Promise<S | Unavailable>): FileService<S> {
  const held: { service: S | null; skip: string } = { service: null, skip: '' };
  before(async () => {
    const made = await start();
    if (isUnavailable(made)) held.skip = made.skip;
    else held.service = made;
  });
  after(async () => {
    await held.service?.stop();
  });
  return held;
}

/** A service is ready when `check` holds (a failing check is not ready yet); the one poll of the suites. */
function ready(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<true> {
  return until(
    `${what} to become ready`,
    () => check().catch(() => false) as Promise<boolean>,
    timeoutMs,
  ) as Promise<true>;
}
