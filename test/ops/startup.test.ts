import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { type CliRun, startNode } from '../support/cli.js';
import { entryArgv } from '../support/entries.js';
import { freePort, spawnServer, tempDir } from '../support/server.js';
import { which } from '../support/which.js';

/**
 * What a person starting the service sees: one clear line (no stack trace) when the port is taken
 * or DATA_DIR cannot be written; pretty log lines on a terminal, JSON lines otherwise.
 */
const ROOT = new URL('../../', import.meta.url).pathname;

/** The server's entry as a person starts it: exit code and output. */
function run(env: Record<string, string>): Promise<CliRun> {
  return startNode(entryArgv('main'), { HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }).done;
}

test('a port already in use stops the start with one line saying so, not a stack trace', async () => {
  const port = await freePort();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  try {
    const { code, stderr } = await run({ PORT: String(port), DATA_DIR: await tempDir() });
    assert.equal(code, 1);
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(
      lines[0]!,
      new RegExp(`^webfolder: failed to start: port ${port} on 127\\.0\\.0\\.1 is already in use`),
    );
    assert.doesNotMatch(stderr, /\n\s+at /);
  } finally {
    blocker.close();
  }
});

test('a DATA_DIR that cannot be written stops the start with one line naming it', async () => {
  const dir = await tempDir();
  const file = join(dir, 'a-file');
  await writeFile(file, 'not a directory');
  const dataDir = join(file, 'data');
  const { code, stderr } = await run({ PORT: String(await freePort()), DATA_DIR: dataDir });
  assert.equal(code, 1);
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0]!, /^webfolder: failed to start: DATA_DIR .*a-file\/data is not writable .*ENOTDIR/);
  assert.doesNotMatch(stderr, /\n\s+at /);
});

test('logs are JSON lines when stdout is not a terminal, and pretty lines with LOG_FORMAT=pretty', async () => {
  const json = await spawnServer({ DATA_DIR: await tempDir() });
  await json.stop();
  const ready = json
    .output()
    .split('\n')
    .find((l) => l.includes('webfolder is ready'));
  assert.ok(ready, json.output());
  assert.match((JSON.parse(ready) as { msg: string }).msg, /^webfolder is ready at http:\/\/127\.0\.0\.1:\d+ \(data: /);

  const pretty = await spawnServer({ DATA_DIR: await tempDir(), LOG_FORMAT: 'pretty' });
  await pretty.stop();
  const line = pretty
    .output()
    .split('\n')
    .find((l) => l.includes('webfolder is ready'));
  assert.ok(line, pretty.output());
  assert.doesNotMatch(line, /^\{/);
  assert.match(line, /INFO.*webfolder is ready/);
});

test('on a terminal (a real pty through script(1)) the default log format is pretty', async (t) => {
  const script = which('script');
  if (!script) return void t.skip('script(1) from util-linux is not installed');
  const port = await freePort();
  const dataDir = await tempDir();
  const child = spawn(script, ['-qec', [process.execPath, ...entryArgv('main')].join(' '), '/dev/null'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 30_000;
    while (!output.includes('webfolder is ready')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ready line:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    // The server is the child of script: stop it through its port's owner, the pty's process group.
    const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    assert.equal(res?.status, 200);
    child.kill('SIGTERM');
    await exited;
  }
  const ESC = String.fromCharCode(27);
  const line = output
    .split('\n')
    .find((l) => l.includes('webfolder is ready'))!
    .split(ESC)
    .map((part) => part.replace(/^\[[0-9;]*m/, ''))
    .join('');
  assert.doesNotMatch(line, /^\s*\{/);
  assert.match(line, /INFO.*webfolder is ready/);
});

test('a misspelled variable is warned about at start, naming the one it probably means', async () => {
  const node = await spawnServer({ DATA_DIR: await tempDir(), PORTT: '9000', S3_SECRET_KEY: 'x' });
  await node.stop();
  const lines = node
    .output()
    .split('\n')
    .filter((l) => l.includes('unknown configuration variable'))
    .map((l) => JSON.parse(l) as { level: number; variable: string; didYouMean?: string; msg: string });
  assert.deepEqual(
    lines.map((l) => [l.level, l.variable, l.didYouMean]),
    [
      [40, 'PORTT', 'PORT'],
      [40, 'S3_SECRET_KEY', undefined],
    ],
  );
  assert.match(lines[0]!.msg, /PORTT is ignored: did you mean PORT\?/);
});
