import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { buildServer, type Webfolder } from '../../src/server.js';
import { entryArgv } from './entries.js';

/**
 * Real servers for tests: the whole service listening on a loopback port over real files in a fresh
 * temporary DATA_DIR. `startServer` runs it in the test process; `spawnServer` runs the server's entry
 * (src/main.ts, or its build: entries.ts) as a child process (for restarts, kill -9 and anything that must not share the test's memory).
 */
/**
 * A port no one listens on, for a listener a test configures by number (METRICS_PORT, a proxy's
 * upstream, a restarted node). It is drawn below the kernel's ephemeral range (32768-60999 on Linux),
 * where `listen(0)` and outgoing connections take their ports: a port from that range, probed and
 * released, could be handed to another test process's connection before the caller binds it (seen
 * as EADDRINUSE when CI runs many test files at once). Two callers drawing the same port at once is
 * left to chance (1 in 12,000) and to the probe.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (await isFree(port)) return port;
  }
  throw new Error('no free port below the ephemeral range after 50 draws');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function tempDir(prefix = 'webfolder-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export interface RunningServer {
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly server: Webfolder;
  close(): Promise<void>;
}

/**
 * Starts the service in-process. `env` overrides configuration variables (DATA_DIR defaults to a temp dir);
 * `sweeper: false` keeps the sweeper from running, so a test can see a folder past its deadline.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { readonly sweeper?: boolean; readonly port?: number } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const ownDataDir = env.DATA_DIR ? null : await tempDir();
  const dataDir = env.DATA_DIR ?? ownDataDir!;
  const config = loadConfig({ HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'silent', ...env, DATA_DIR: dataDir });
  const server = await buildServer(config, {
    logger: env.LOG_LEVEL ? undefined : false,
    ...(options.sweeper === false ? { sweeper: false } : {}),
  });
  try {
    await server.app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    baseUrl: config.baseUrl,
    dataDir,
    server,
    async close() {
      await server.close();
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** The server's environment, or a step run first that answers it and the port (an OpenID provider's redirect). */
export type ServerPlan =
  | Record<string, string>
  | (() => Promise<{ readonly env: Record<string, string>; readonly port?: number }>);

/** What a suite opens beside its server (a browser): closed before the server stops. */
export interface Closable {
  close(): Promise<void>;
}

/** A suite's server (`useServer`), and the directory and what was opened in it when `open` was given. */
export interface ServedSuite<B extends Closable> extends RunningServer {
  /** The suite's temporary directory, with `prefix` or `open` (files to upload, the browser's profile). */
  readonly dir: string;
  /** What `open` opened (a browser). */
  readonly opened: B;
}

/**
 * Registers a suite's hooks: the service started in this process before its tests (`startServer`
 * with `plan`'s environment and port, and `sweeper`) and closed after them. With `prefix` or `open`,
 * a temporary directory (named with `prefix`) comes first, and what `open` opens with it (a browser)
 * after the server; that is closed before the server stops, and the directory removed last. Call at
 * a file's top level or inside `describe`; read the fields inside tests, or in hooks of a `describe`
 * (Node 20 runs a file's top-level `before` hooks at the same time: another top-level hook may find
 * the server not yet up).
 */
export function useServer<B extends Closable = never>(
  plan: ServerPlan = {},
  options: { readonly sweeper?: boolean; readonly prefix?: string; readonly open?: (dir: string) => Promise<B> } = {},
): ServedSuite<B> {
  const suite = {} as { server?: RunningServer; dir?: string; opened?: B };
  before(async () => {
    if (options.open || options.prefix) suite.dir = await tempDir(options.prefix);
    const { env, port } = typeof plan === 'function' ? await plan() : { env: plan, port: undefined };
    suite.server = await startServer(env, {
      ...(port === undefined ? {} : { port }),
      ...(options.sweeper === undefined ? {} : { sweeper: options.sweeper }),
    });
    if (options.open) suite.opened = await options.open(suite.dir!);
  });
  after(async () => {
    await suite.opened?.close();
    await suite.server?.close();
    if (suite.dir) await rm(suite.dir, { recursive: true, force: true });
  });
  const up = <T>(what: T | undefined): T => {
    if (what === undefined) throw new Error("the suite's server is started by its before hook: read it in tests");
    return what;
  };
  return {
    get baseUrl() {
      return up(suite.server).baseUrl;
    },
    get dataDir() {
      return up(suite.server).dataDir;
    },
    get server() {
      return up(suite.server).server;
    },
    get dir() {
      return up(suite.dir);
    },
    get opened() {
      return up(suite.opened);
    },
    close: () => up(suite.server).close(),
  };
}

export interface SpawnedServer {
  readonly baseUrl: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

const ROOT = new URL('../../', import.meta.url).pathname;

/** The METRICS_TOKEN spawned servers get, so that tests and benches can read their /metrics. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';

/** A spawned server's /metrics text (with TEST_METRICS_TOKEN). */
export async function scrapeMetrics(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  return res.text();
}

/** Runs the server (`entryArgv('main')`) in a child process and waits until it answers HTTP. */
export async function spawnServer(env: Record<string, string>, port?: number): Promise<SpawnedServer> {
  const usePort = port ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, entryArgv('main'), {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(usePort),
      LOG_LEVEL: 'info',
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${usePort}`;
  // Generous: under load (CI on 2 shared cores) tsx's first compile of the source alone has taken 20-30 s.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/`, { headers: { accept: 'application/json' } });
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    port: usePort,
    child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
