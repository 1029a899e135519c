import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { keyOfSecret } from '../../src/notify/signing.js';
import { COMMITS } from '../support/crash-after-commit.js';
import { until } from '../support/poll.js';
import { type HookReceiver, startHookReceiver } from '../support/receivers.js';
import { spawnServer, tempDir } from '../support/server.js';
import { isUnavailable, type PostgresService, startPostgres } from '../support/services.js';

/**
 * At-least-once events: an event is written in the same transaction as the change it reports. A
 * child process runs the use cases on a real store and is killed with SIGKILL right after one of
 * their commits (test/support/crash-after-commit.ts); a server started afterwards on the same data
 * delivers every event committed up to that point, the one of the last commit included, and nothing
 * of what never ran. With the event written after its change, the last one would be lost.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const secret = `whsec_${randomBytes(24).toString('base64')}`;

let receiver: HookReceiver;
let postgres: PostgresService | null = null;
let pgSkip = '';
before(async () => {
  receiver = await startHookReceiver(keyOfSecret(secret));
  const made = await startPostgres();
  if (isUnavailable(made)) pgSkip = made.skip;
  else postgres = made;
});
after(async () => {
  await receiver.close();
  await postgres?.stop();
});

/** Runs the child until it kills itself after commit `crashAt`; resolves with how it ended. */
function crashAfter(crashAt: number, env: Record<string, string>): Promise<{ signal: string | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/crash-after-commit.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env, CRASH_AT: String(crashAt) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (_code, signal) => resolve({ signal, output }));
  });
}

async function crashThenRestart(crashAt: number, backend: Record<string, string>): Promise<void> {
  const dataDir = await tempDir('webfolder-events-');
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: secret,
    ...backend,
  };
  try {
    receiver.received.length = 0;
    const crashed = await crashAfter(crashAt, env);
    assert.equal(crashed.signal, 'SIGKILL', `the child was to die after commit ${crashAt}:\n${crashed.output}`);
    assert.equal(receiver.received.length, 0, 'the child delivered nothing: it never ran its delivery loop');
    const expected = COMMITS.slice(0, crashAt + 1)
      .flat()
      .sort();
    const server = await spawnServer(env);
    try {
      await until(`the ${expected.length} events committed before the crash`, async () =>
        receiver.accepted().length >= expected.length ? true : undefined,
      );
      assert.deepEqual(
        receiver
          .accepted()
          .map((h) => h.json.type)
          .sort(),
        expected,
      );
      assert.ok(receiver.received.every((h) => h.valid));
      // Nothing further is pending: the outbox held exactly these.
      const ids = receiver.accepted().map((h) => h.headers['webhook-id']);
      assert.equal(new Set(ids).size, expected.length, 'each event once (no duplicate rows)');
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// Every commit of the scenario: create (empty), claim with registration, create (direct, with its
// file), completion, download, folder deletion by the sweeper.
for (const crashAt of [0, 1, 2, 3, 4, 5]) {
  test(`SQLite: killed right after commit ${crashAt} (${COMMITS[crashAt]!.join(' + ')}), its events are delivered after restart`, {
    timeout: 120_000,
  }, async () => {
    await crashThenRestart(crashAt, {});
  });
}

for (const crashAt of [1, 3, 5]) {
  test(`PostgreSQL: killed right after commit ${crashAt} (${COMMITS[crashAt]!.join(' + ')}), its events are delivered after restart`, {
    timeout: 120_000,
  }, async (t) => {
    if (!postgres) return void t.skip(pgSkip);
    await crashThenRestart(crashAt, { DATABASE_URL: await postgres.freshDatabase() });
  });
}
