import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { until } from '../support/poll.js';
import { freePort, tempDir } from '../support/server.js';

/**
 * A production install, the Node ecosystem's way: `npm pack` of the built tree, then `npm install -g`
 * of the tarball into a prefix of its own. The installed `webfolder serve` must start without a
 * build: no tsc, no Vite, no src/ and no Redoc package are there (Redoc is a devDependency; the docs
 * build wrote what the docs routes serve), and the installed `webfolder verify-site` finds it to be
 * the package's release. `npm test` builds dist/ first, which `npm pack` ships.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

function run(file: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, timeout: 20 * 60_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * better-sqlite3 12's binary for this Node in the installed tree `app`. Its install script compiles
 * it from source here (no prebuilt binary is reachable), a minute and a half of one core. `npm ci`
 * of this checkout already ran that script, for this Node and for the version the package depends
 * on: when the versions match, that binary is copied in (what the install script would have made);
 * otherwise the install script runs.
 */
async function nativeSqlite(app: string): Promise<void> {
  const version = async (dir: string) =>
    (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const ours = join(ROOT, 'node_modules', 'better-sqlite3');
  const theirs = join(app, 'node_modules', 'better-sqlite3');
  const binary = join('build', 'Release', 'better_sqlite3.node');
  if (existsSync(join(ours, binary)) && (await version(ours)) === (await version(theirs))) {
    await mkdir(join(theirs, 'build', 'Release'), { recursive: true });
    await copyFile(join(ours, binary), join(theirs, binary));
    return;
  }
  const rebuilt = await run('npm', ['rebuild', 'better-sqlite3', '--loglevel=error'], { cwd: app });
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
}

describe('production install (npm pack + npm install -g)', () => {
  let dir = '';
  let prefix = '';
  let app = '';
  // Only Node and the system's tools: nothing of the checkout's node_modules/.bin (tsc, vite, tsx).
  const env = () => ({
    PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: dir,
    LOG_LEVEL: 'info',
  });
  const servers: ChildProcess[] = [];

  before(
    async () => {
      dir = await tempDir('webfolder-install-');
      prefix = join(dir, 'prefix');
      const packed = await run('npm', ['pack', '--silent', '--pack-destination', dir]);
      assert.equal(packed.code, 0, packed.stderr);
      const tarball = join(dir, packed.stdout.trim().split('\n').at(-1)!);
      // Install scripts are skipped: Node 22 and later load better-sqlite3 13's prebuilt Node-API
      // binary; on Node 20, better-sqlite3 12 needs a binary built for this Node (see below).
      const installed = await run('npm', [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--ignore-scripts',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        tarball,
      ]);
      assert.equal(installed.code, 0, installed.stderr);
      app = join(prefix, 'lib', 'node_modules', 'webfolder');
      if (NODE_MAJOR < 22) await nativeSqlite(app);
    },
    { timeout: 25 * 60_000 },
  );

  after(async () => {
    for (const child of servers) if (child.exitCode === null) child.kill('SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function serve(extra: Record<string, string>, port: number) {
    const baseUrl = `http://127.0.0.1:${port}`;
    const child = spawn(join(prefix, 'bin', 'webfolder'), ['serve'], {
      cwd: dir,
      env: { ...env(), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, `data-${port}`), ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push(child);
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await until(
      'the installed server to answer',
      async () => {
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${output}`);
        const res = await fetch(`${baseUrl}/healthz`).catch(() => null);
        return res?.status === 200 ? true : undefined;
      },
      120_000,
    );
    return {
      baseUrl,
      output: () => output,
      stop: async () => {
        child.kill('SIGTERM');
        return exited;
      },
    };
  }

  test('the package holds the build, not the sources, the build tools or Redoc', async () => {
    const top = (await readdir(app)).sort();
    assert.deepEqual(top, ['README.md', 'bin', 'dist', 'docs', 'node_modules', 'package.json']);
    for (const absent of ['typescript', 'vite', 'tsx', 'redoc', '@biomejs'])
      assert.ok(!existsSync(join(app, 'node_modules', absent)), `${absent} is not installed`);
    const version = await run(join(prefix, 'bin', 'webfolder'), ['--version'], { env: env() });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^webfolder \d+\.\d+\.\d+/);
  });

  test('webfolder serve starts and serves the API, the page and the docs (at /docs and at another path)', async () => {
    const server = await serve({}, await freePort());
    try {
      const created = await fetch(`${server.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(created.status, 200);
      await created.arrayBuffer();
      for (const path of ['/', '/docs/', '/docs/api', '/docs/configuration']) {
        const res = await fetch(`${server.baseUrl}${path}`);
        assert.equal(res.status, 200, path);
        await res.arrayBuffer();
      }
      assert.match(server.output(), /webfolder is ready/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    // Another DOCS_URL path is rendered once at start, from docs/ and the build's own assets.
    const port = await freePort();
    const other = await serve({ DOCS_URL: `http://127.0.0.1:${port}/handbook` }, port);
    try {
      for (const path of ['/handbook/', '/handbook/api']) {
        const res = await fetch(`${other.baseUrl}${path}`);
        assert.equal(res.status, 200, path);
        await res.arrayBuffer();
      }
      // The installed CLI verifies the installed server against the package's own site manifest,
      // its docs' assets served at the other path included.
      const verified = await run(join(prefix, 'bin', 'webfolder'), ['verify-site', other.baseUrl], { env: env() });
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
      assert.ok(
        verified.stdout.includes(
          `trusted manifest: the installed package (${join(app, 'dist', 'site-manifest.json')})`,
        ),
        verified.stdout,
      );
    } finally {
      assert.equal(await other.stop(), 0);
    }
  });
});
