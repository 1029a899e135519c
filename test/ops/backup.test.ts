import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openConnection } from '../../src/store/sqlite/connection.js';
import { runAdmin, startCli, startNode } from '../support/cli.js';
import { entryArgv } from '../support/entries.js';
import { spawnServer, tempDir } from '../support/server.js';

/**
 * Upgrades and backups, end to end on real processes: `webfolder admin backup` copies a running
 * server's DATA_DIR (SQLite's online backup API, the blobs, the signing secret); after the data is
 * wiped and the backup copied back, the same link downloads the same bytes. A start logs each schema
 * migration it applies, and a database written by a newer version is refused with one clear line.
 */
const MIB = 1024 * 1024;
const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const scratch = async (prefix: string) => {
  const dir = await tempDir(prefix);
  dirs.push(dir);
  return dir;
};

const admin = runAdmin;

test('admin backup of a running server, wipe, restore: the link downloads the same bytes', {
  timeout: 600_000,
}, async () => {
  const dataDir = await scratch('webfolder-backup-data-');
  const work = await scratch('webfolder-backup-');
  const server = await spawnServer({ DATA_DIR: dataDir, CHUNK_SIZE_MIB: '5' });
  const port = server.port;
  const file = join(work, 'payload.bin');
  const bytes = randomBytes(11 * MIB + 5);
  await writeFile(file, bytes);
  const cli = { WEBFOLDER_SERVER: server.baseUrl, WEBFOLDER_STATE_DIR: join(work, 'state') };
  let link: string;
  const backupDir = join(work, 'backup');
  try {
    const up = await startCli(['upload', file, '--json'], cli).done;
    assert.equal(up.code, 0, up.stderr);
    link = (JSON.parse(up.stdout) as { link: string }).link;

    // Online: the server keeps running (and is busy making folders) while the backup is taken.
    const busy = Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${server.baseUrl}/v2/folders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      ),
    );
    const made = await admin(['backup', backupDir, '--json', '--data-dir', dataDir], {});
    await busy;
    assert.equal(made.code, 0, made.stderr);
    const report = JSON.parse(made.stdout) as {
      database: string;
      blobs: { files: number; bytes: number };
      signingSecret: string;
    };
    assert.equal(report.database, 'copied');
    assert.equal(report.signingSecret, 'copied');
    assert.equal(report.blobs.files, 3, 'the three chunks');
    assert.deepEqual((await readdir(backupDir)).sort(), ['backup.json', 'blobs', 'signing-secret', 'webfolder.db']);
    assert.equal((await stat(join(backupDir, 'signing-secret'))).mode & 0o777, 0o600);
    const manifest = JSON.parse(await readFile(join(backupDir, 'backup.json'), 'utf8')) as { schemaVersion: number };
    assert.ok(manifest.schemaVersion >= 4);

    const again = await admin(['backup', backupDir, '--data-dir', dataDir], {});
    assert.equal(again.code, 2, 'a backup never writes over another');
    assert.match(again.stderr, /is not empty/);
  } finally {
    assert.equal(await server.stop(), 0);
  }

  // The restore of docs/deployment.md: stop, empty DATA_DIR, copy the backup in, start.
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir);
  await cp(backupDir, dataDir, { recursive: true });
  const restored = await spawnServer({ DATA_DIR: dataDir, CHUNK_SIZE_MIB: '5' }, port);
  try {
    const down = await startCli(['download', link, join(work, 'out')], cli).done;
    assert.equal(down.code, 0, down.stderr);
    assert.ok((await readFile(join(work, 'out', 'payload.bin'))).equals(bytes), 'byte-identical after the restore');
  } finally {
    await restored.stop();
  }
});

test('a start logs each migration it applies, once; a database from a newer version is refused', {
  timeout: 300_000,
}, async () => {
  const dataDir = await scratch('webfolder-schema-');
  const first = await spawnServer({ DATA_DIR: dataDir });
  await first.stop();
  // One line for all of them.
  const migrationLines = first
    .output()
    .split('\n')
    .filter((l) => l.includes('applied schema migration'));
  assert.equal(migrationLines.length, 1, first.output());
  const applied = (JSON.parse(migrationLines[0]!) as { migrations: number[]; store: string }).migrations;
  assert.ok(applied.length >= 4, first.output());
  assert.deepEqual(
    applied,
    Array.from({ length: applied.length }, (_, i) => i + 1),
  );

  const second = await spawnServer({ DATA_DIR: dataDir });
  await second.stop();
  assert.doesNotMatch(second.output(), /applied schema migration/, 'nothing to apply the second time');

  // As a newer version would leave it: one migration more than this code knows.
  const db = openConnection(join(dataDir, 'webfolder.db'));
  db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(applied.length + 1, Date.now());
  db.close();
  const env = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  // Both launchers say it in the same one line: the server's entry and `webfolder serve`.
  for (const argv of [entryArgv('main'), [new URL('../../bin/webfolder.js', import.meta.url).pathname, 'serve']]) {
    const refused = await startNode(argv, env).done;
    assert.equal(refused.code, 1, argv.join(' '));
    const lines = refused.stderr.trim().split('\n');
    assert.equal(lines.length, 1, refused.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `^webfolder: failed to start: the SQLite database is at schema version ${applied.length + 1}, written by a newer webfolder; this version knows up to ${applied.length}\\.`,
      ),
    );
  }
});
