import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { PG_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { PostgresMetadataStore } from '../../src/store/postgres/postgres-store.js';
import { pendingMigrations, SchemaTooNewError } from '../../src/store/schema.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { SqliteMetadataStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/server.js';
import { startPostgres, useService } from '../support/services.js';

/** The migration runners of both stores: what a start applied, and a schema newer than the code refused. */

test('pendingMigrations: the missing versions in order; a version past the known ones is refused', () => {
  assert.deepEqual(pendingMigrations('sqlite', [], 3), [1, 2, 3]);
  assert.deepEqual(pendingMigrations('sqlite', [1, 2], 3), [3]);
  assert.deepEqual(pendingMigrations('sqlite', [1, 2, 3], 3), []);
  assert.throws(
    () => pendingMigrations('postgresql', [1, 2, 3, 4], 3),
    (error: unknown) => {
      assert.ok(error instanceof SchemaTooNewError);
      assert.match(
        error.message,
        /PostgreSQL database is at schema version 4, written by a newer webfolder; this version knows up to 3/,
      );
      return true;
    },
  );
});

test('SQLite: the first open reports every migration, the next none; a newer schema is refused', async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, 'webfolder.db');
    const first = new SqliteMetadataStore(path);
    assert.deepEqual(first.schema, {
      store: 'sqlite',
      applied: MIGRATIONS.map((_, i) => i + 1),
      version: MIGRATIONS.length,
    });
    await first.close();
    const second = new SqliteMetadataStore(path);
    assert.deepEqual(second.schema.applied, []);
    assert.equal(second.schema.version, MIGRATIONS.length);
    await second.close();
    const { openConnection } = await import('../../src/store/sqlite/connection.js');
    const db = openConnection(path);
    db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(MIGRATIONS.length + 1, 0);
    db.close();
    assert.throws(() => new SqliteMetadataStore(path), SchemaTooNewError);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const postgres = useService(startPostgres);

test('PostgreSQL: the first open reports every migration, the next none; a newer schema is refused', async (t) => {
  const server = postgres.service;
  if (!server) return void t.skip(postgres.skip);
  const url = await server.freshDatabase();
  const first = await PostgresMetadataStore.open(url);
  assert.deepEqual(
    first.schema.applied,
    PG_MIGRATIONS.map((_, i) => i + 1),
  );
  await first.close();
  const second = await PostgresMetadataStore.open(url);
  assert.deepEqual(second.schema, { store: 'postgresql', applied: [], version: PG_MIGRATIONS.length });
  await second.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)', [PG_MIGRATIONS.length + 1]);
  await client.end();
  await assert.rejects(PostgresMetadataStore.open(url), SchemaTooNewError);
});
