import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { PostgresMetadataStore } from '../../src/store/postgres/postgres-store.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/schema.js';
import { SchemaTooNewError } from '../../src/store/schema.js';
import { pendingMigrations } from '../../src/store/sql/migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/schema.js';
import { SqliteMetadataStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/server.js';
import { startPostgres, useService } from '../support/services.js';

/** The migration runners of both stores: what a start applied, and a schema newer than the code refused. */

/**
 * The words PostgreSQL uses where SQLite has INTEGER, longest first: the only differences allowed
 * between the two schemas (src/store/sqlite/schema.ts, src/store/postgres/schema.ts).
 */
const DIALECT: readonly [postgres: string, sqlite: string][] = [
  ['BIGSERIAL PRIMARY KEY', 'INTEGER PRIMARY KEY AUTOINCREMENT'],
  ['BIGINT', 'INTEGER'],
  ['BOOLEAN', 'INTEGER'],
];

test('the PostgreSQL schema is the SQLite one, migration for migration, but for the dialect words', () => {
  const asSqlite = (sql: string) => DIALECT.reduce((text, [pg, lite]) => text.replaceAll(pg, lite), sql);
  assert.equal(POSTGRES_MIGRATIONS.length, SQLITE_MIGRATIONS.length);
  for (const [i, sql] of POSTGRES_MIGRATIONS.entries())
    assert.equal(asSqlite(sql), SQLITE_MIGRATIONS[i], `migration ${i + 1}`);
  assert.ok(
    POSTGRES_MIGRATIONS.some((sql) => sql.includes('BIGINT')),
    'times and sizes are 64-bit',
  );
});

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
      applied: SQLITE_MIGRATIONS.map((_, i) => i + 1),
      version: SQLITE_MIGRATIONS.length,
    });
    await first.close();
    const second = new SqliteMetadataStore(path);
    assert.deepEqual(second.schema.applied, []);
    assert.equal(second.schema.version, SQLITE_MIGRATIONS.length);
    await second.close();
    const { openConnection } = await import('../../src/store/sqlite/connection.js');
    const db = openConnection(path);
    db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
      SQLITE_MIGRATIONS.length + 1,
      0,
    );
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
    POSTGRES_MIGRATIONS.map((_, i) => i + 1),
  );
  await first.close();
  const second = await PostgresMetadataStore.open(url);
  assert.deepEqual(second.schema, { store: 'postgresql', applied: [], version: POSTGRES_MIGRATIONS.length });
  await second.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)', [
    POSTGRES_MIGRATIONS.length + 1,
  ]);
  await client.end();
  await assert.rejects(PostgresMetadataStore.open(url), SchemaTooNewError);
});
