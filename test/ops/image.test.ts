import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCli } from '../support/cli.js';
import { until } from '../support/poll.js';
import { freePort, tempDir } from '../support/server.js';
import { which } from '../support/which.js';

/**
 * The container image (Containerfile, `npm run image`), built and run as an operator runs it: a
 * read-only root filesystem, a named volume at /data, the port published on loopback, BASE_URL set.
 * Checks /healthz and the image's HEALTHCHECK, a v2 create, the CLI uploading and downloading a file
 * through it (bytes equal), that the process is not root and tini is PID 1, what the image holds (no
 * src/, no dev dependencies, no Redoc, no compiler, no shell), a SIGTERM stop that exits 0 after
 * draining, and a new container on the same volume still serving the folder. Needs podman: CI sets
 * TEST_REQUIRE_PODMAN=1 (scripts/ci/50-image.sh) so that a missing podman fails instead of skipping.
 *
 * The build runs once per test run, here; scripts/test.sh runs this file on its own, so that a build
 * with a cold layer cache does not run beside the browser tests. CI runs this file once, on Node 24:
 * the image brings its own Node.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const podman = which('podman');
const required = process.env.TEST_REQUIRE_PODMAN === '1';
const MIB = 1024 * 1024;

function run(
  file: string,
  args: readonly string[],
  timeoutMs = 120_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 * MIB }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/**
 * How this machine runs containers: runc (crun fails on hybrid cgroups, as on these VMs) and rlimits
 * the runtime may set (the defaults cannot be raised here). WEBFOLDER_PODMAN_RUNTIME overrides.
 */
const runtime = process.env.WEBFOLDER_PODMAN_RUNTIME ?? (existsSync('/usr/sbin/runc') ? '/usr/sbin/runc' : '');
const globalArgs = runtime ? ['--runtime', runtime] : [];
const limits = ['--ulimit', 'nofile=16384:16384', '--ulimit', 'nproc=4096:4096'];
const pod = (...args: string[]) => run(podman!, [...globalArgs, ...args]);

describe('container image', { skip: !podman && !required ? 'podman is not installed' : false }, () => {
  const suffix = randomBytes(4).toString('hex');
  const volume = `webfolder-test-${suffix}`;
  const containers: string[] = [];
  let tag = '';
  let port = 0;
  let baseUrl = '';
  let dir = '';

  /** Starts a container of the image on the test's volume and waits for /healthz; returns its name. */
  async function start(name: string): Promise<{ name: string; startToHealthyMs: number }> {
    const full = `webfolder-test-${name}-${suffix}`;
    containers.push(full);
    const began = Date.now();
    const started = await pod(
      'run',
      '--detach',
      '--name',
      full,
      ...limits,
      '--read-only',
      '--publish',
      `127.0.0.1:${port}:8080`,
      '--volume',
      `${volume}:/data`,
      '--env',
      `BASE_URL=${baseUrl}`,
      '--env',
      'SHUTDOWN_GRACE_SECONDS=10',
      tag,
    );
    assert.equal(started.code, 0, started.stderr);
    await until(
      'the container to answer /healthz',
      async () => {
        const res = await fetch(`${baseUrl}/healthz`).catch(() => null);
        if (res?.status === 200) return true;
        const state = await pod('inspect', '--format', '{{.State.Status}}', full);
        if (state.stdout.trim() === 'exited') throw new Error(`container exited:\n${(await pod('logs', full)).stderr}`);
        return undefined;
      },
      120_000,
    );
    return { name: full, startToHealthyMs: Date.now() - began };
  }

  before(
    async () => {
      assert.ok(podman, 'TEST_REQUIRE_PODMAN=1 but podman is not installed (scripts/ci/50-image.sh installs it)');
      const began = Date.now();
      const built = await run('bash', ['scripts/image/build.sh'], 40 * 60_000);
      assert.equal(built.code, 0, built.stderr.slice(-4000));
      tag = built.stdout.trim().split('\n').at(-1)!;
      const seconds = Math.round((Date.now() - began) / 1000);
      const size = Number((await pod('image', 'inspect', '--format', '{{.Size}}', tag)).stdout.trim());
      process.stderr.write(`image ${tag}: built in ${seconds} s, ${(size / MIB).toFixed(1)} MiB\n`);
      port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      dir = await tempDir('webfolder-image-');
      assert.equal((await pod('volume', 'create', volume)).code, 0);
    },
    { timeout: 45 * 60_000 },
  );

  after(async () => {
    for (const name of containers) await pod('rm', '--force', '--time', '0', name);
    if (podman) await pod('volume', 'rm', '--force', volume);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the image is small and holds only what runs', async () => {
    const size = Number((await pod('image', 'inspect', '--format', '{{.Size}}', tag)).stdout.trim());
    assert.ok(size > 0 && size < 478 * 1000 * 1000, `the image weighs ${size} bytes (the first attempt: 478 MB)`);
    const config = JSON.parse((await pod('image', 'inspect', tag)).stdout)[0] as {
      Config: {
        User: string;
        ExposedPorts: Record<string, unknown>;
        Volumes: Record<string, unknown>;
        Entrypoint: string[];
      };
    };
    assert.equal(config.Config.User, '10001:10001');
    assert.ok('8080/tcp' in config.Config.ExposedPorts);
    assert.ok('/data' in config.Config.Volumes);
    assert.equal(config.Config.Entrypoint[0], '/usr/bin/tini');
  });

  test('without BASE_URL the container refuses to start, saying what to set', async () => {
    const name = `webfolder-test-nobase-${suffix}`;
    containers.push(name);
    const res = await pod('run', '--name', name, ...limits, '--read-only', tag);
    assert.equal(res.code, 2, res.stderr);
    assert.match(res.stderr, /invalid configuration: BASE_URL: is required here \(the container image\)/);
  });

  test('serves: healthz, HEALTHCHECK, a v2 create, the CLI up and down (bytes equal), not root, tini as PID 1', async () => {
    const { name, startToHealthyMs } = await start('a');
    process.stderr.write(`image: start to /healthz ${startToHealthyMs} ms\n`);
    const health = await pod('healthcheck', 'run', name);
    assert.equal(health.code, 0, `the image's HEALTHCHECK passes: ${health.stdout}${health.stderr}`);

    const created = await fetch(`${baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(created.status, 200);
    const body = (await created.json()) as { folderUrl: string };
    assert.ok(body.folderUrl.startsWith(`${baseUrl}/f/`), `links use BASE_URL: ${body.folderUrl}`);

    const file = join(dir, 'payload.bin');
    const bytes = randomBytes(12 * MIB + 3);
    await writeFile(file, bytes);
    const env = { WEBFOLDER_SERVER: baseUrl, WEBFOLDER_STATE_DIR: join(dir, 'state') };
    const up = await startCli(['upload', file, '--json'], env).done;
    assert.equal(up.code, 0, up.stderr);
    const { link } = JSON.parse(up.stdout) as { link: string };
    await writeFile(join(dir, 'link'), link);
    const down = await startCli(['download', link, join(dir, 'first')], env).done;
    assert.equal(down.code, 0, down.stderr);
    assert.ok((await readFile(join(dir, 'first', 'payload.bin'))).equals(bytes), 'downloaded bytes equal');

    const probe = await pod(
      'exec',
      name,
      'node',
      '-e',
      `const fs = require('node:fs');
       const exists = (p) => fs.existsSync(p);
       let rootWritable = true;
       try { fs.writeFileSync('/app/probe', 'x'); } catch { rootWritable = false; }
       process.stdout.write(JSON.stringify({
         uid: process.getuid(), gid: process.getgid(),
         pid1: fs.readFileSync('/proc/1/cmdline', 'utf8').split('\\0')[0],
         node: process.versions.node,
         rootWritable,
         present: ['/app/src', '/app/web', '/app/test', '/app/node_modules/redoc', '/app/node_modules/typescript',
           '/app/node_modules/vite', '/app/node_modules/better-sqlite3', '/usr/bin/gcc', '/usr/bin/make', '/bin/sh',
           '/usr/bin/apt-get'].filter(exists),
         built: ['/app/dist/main.js', '/app/dist/web/index.html', '/app/dist/docs-site/site.json'].filter(exists).length,
       }));`,
    );
    assert.equal(probe.code, 0, probe.stderr);
    const facts = JSON.parse(probe.stdout) as Record<string, unknown>;
    assert.equal(facts.uid, 10001, 'not root');
    assert.equal(facts.gid, 10001);
    assert.equal(facts.pid1, '/usr/bin/tini');
    assert.match(String(facts.node), /^24\./);
    assert.equal(facts.rootWritable, false, 'the root filesystem is read-only');
    assert.deepEqual(facts.present, [], 'no sources, dev dependencies, Redoc, compiler, shell or package manager');
    assert.equal(facts.built, 3);
    // The docs and the page are served from the build (no Redoc package, no src/ at start).
    assert.equal((await fetch(`${baseUrl}/docs/api`)).status, 200);
    assert.equal((await fetch(`${baseUrl}/`)).status, 200);
  });

  test('SIGTERM stops it cleanly (exit 0, after draining); a new container on the same volume still has the folder', async () => {
    const first = containers.find((c) => c.startsWith('webfolder-test-a-'));
    assert.ok(first, 'the serving test ran first');
    const stopped = await pod('stop', '--time', '30', first);
    assert.equal(stopped.code, 0, stopped.stderr);
    const exit = await pod('inspect', '--format', '{{.State.ExitCode}}', first);
    assert.equal(exit.stdout.trim(), '0', 'exited 0: SIGTERM reached Node through tini and was handled');
    const logs = await pod('logs', first);
    assert.match(logs.stdout + logs.stderr, /shutting down: finishing requests in flight/);
    assert.equal((await pod('rm', first)).code, 0);

    await start('b');
    const link = await readFile(join(dir, 'link'), 'utf8');
    const env = { WEBFOLDER_SERVER: baseUrl, WEBFOLDER_STATE_DIR: join(dir, 'state-b') };
    const again = await startCli(['download', link, join(dir, 'second')], env).done;
    assert.equal(again.code, 0, again.stderr);
    assert.ok(
      (await readFile(join(dir, 'second', 'payload.bin'))).equals(await readFile(join(dir, 'payload.bin'))),
      'the same bytes from the new container',
    );
  });

  test('compose.yaml (single node) with podman-compose: up, serves with BASE_URL, down', async (t) => {
    const compose = which('podman-compose');
    if (!compose) {
      assert.ok(!required, 'TEST_REQUIRE_PODMAN=1 but podman-compose is not installed');
      return void t.skip('podman-compose is not installed');
    }
    const composePort = await freePort();
    const project = `wfcompose${suffix}`;
    const env = {
      ...process.env,
      BASE_URL: `http://127.0.0.1:${composePort}`,
      WEBFOLDER_PORT: String(composePort),
      WEBFOLDER_VERSION: tag.split(':').at(-1)!,
    };
    const args = [
      ...(runtime ? [`--podman-args=--runtime ${runtime}`] : []),
      `--podman-run-args=${limits.join(' ')}`,
      '-p',
      project,
      '-f',
      'compose.yaml',
    ];
    const composeRun = (...more: string[]) =>
      new Promise<{ code: number; out: string }>((resolve) =>
        execFile(compose, [...args, ...more], { cwd: ROOT, env, timeout: 300_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? 1 : 0, out: `${stdout}${stderr}` }),
        ),
      );
    try {
      const up = await composeRun('up', '-d');
      assert.equal(up.code, 0, up.out);
      const url = `http://127.0.0.1:${composePort}`;
      await until(
        'the compose service to answer /healthz',
        async () => {
          const res = await fetch(`${url}/healthz`).catch(() => null);
          return res?.status === 200 ? true : undefined;
        },
        120_000,
      );
      const created = await fetch(`${url}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(created.status, 200);
      assert.ok(((await created.json()) as { folderUrl: string }).folderUrl.startsWith(`${url}/f/`));
      const inspect = await pod('inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', `${project}_webfolder_1`);
      assert.equal(inspect.stdout.trim(), 'true', 'read-only root filesystem');
    } finally {
      await composeRun('down', '-v');
    }
  });
});
