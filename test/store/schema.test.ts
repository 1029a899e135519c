import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { migratePostgres } from '../../src/store/postgres/migrate.js';
import { PostgresMetadataStore } from '../../src/store/postgres/postgres-store.js';
import { SchemaTooNewError } from '../../src/store/schema.js';
import { pendingMigrations } from '../../src/store/sql/migrations.js';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '../../src/store/sql/schema.js';
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

/** A folder and its notification settings as a store at the previous schema version wrote them. */
const OLD_FOLDER = `INSERT INTO folders (id, mode, title, flow, created_at, delete_after)
  VALUES ('old-folder', 'share', 't', 'empty', 1, 9999999999999)`;
const oldSettings = (yes: string) => `INSERT INTO folder_notifications
  (folder_id, email, webhook_url, webhook_secret, on_download, on_upload, updated_at)
  VALUES ('old-folder', 'owner@example.org', NULL, NULL, ${yes}, ${yes}, 5)`;
const UPGRADED = {
  email: 'owner@example.org',
  webhookUrl: null,
  webhookSecret: null,
  onDownload: true,
  onUpload: true,
  language: null,
  updatedAt: 5,
};

test('SQLite: a store at the previous schema version upgrades, its notification settings kept (English)', async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, 'webfolder.db');
    const { openConnection, migrate } = await import('../../src/store/sqlite/connection.js');
    const db = openConnection(path);
    migrate(db, SQLITE_MIGRATIONS.slice(0, -1));
    db.exec(OLD_FOLDER);
    db.exec(oldSettings('1'));
    db.close();
    const store = new SqliteMetadataStore(path);
    try {
      assert.deepEqual(store.schema.applied, [SQLITE_MIGRATIONS.length]);
      assert.deepEqual(await store.notificationSettings.getFolderNotifications('old-folder'), UPGRADED);
    } finally {
      await store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL: a store at the previous schema version upgrades, its notification settings kept (English)', async (t) => {
  const server = postgres.service;
  if (!server) return void t.skip(postgres.skip);
  const url = await server.freshDatabase();
  const pool = new pg.Pool({ connectionString: url });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await migratePostgres(client, 1, POSTGRES_MIGRATIONS.slice(0, -1));
    await client.query(OLD_FOLDER);
    await client.query(oldSettings('true'));
    await client.query('COMMIT');
  } finally {
    client.release();
    await pool.end();
  }
  const store = await PostgresMetadataStore.open(url);
  try {
    assert.deepEqual(store.schema.applied, [POSTGRES_MIGRATIONS.length]);
    assert.deepEqual(await store.notificationSettings.getFolderNotifications('old-folder'), UPGRADED);
  } finally {
    await store.close();
  }
});

/** Every column of the database as `table.column` and whether it may be null, and the indexes made by name. */
interface Shape {
  readonly columns: string[];
  readonly indexes: string[];
}

async function sqliteShape(path: string): Promise<Shape> {
  const { openConnection } = await import('../../src/store/sqlite/connection.js');
  const db = openConnection(path);
  try {
    // A PRIMARY KEY column is NOT NULL in PostgreSQL; SQLite leaves a non-INTEGER key nullable.
    const columns = db
      .prepare<[], { line: string }>(
        `SELECT m.name || '.' || p.name || (CASE WHEN p."notnull" = 1 OR p.pk > 0 THEN ' not null' ELSE '' END) AS line
         FROM sqlite_master m JOIN pragma_table_info(m.name) p
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`,
      )
      .all()
      .map((r) => r.line);
    const indexes = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'",
      )
      .all()
      .map((r) => r.name);
    return { columns: columns.sort(), indexes: indexes.sort() };
  } finally {
    db.close();
  }
}

async function postgresShape(url: string): Promise<Shape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ line: string }>(
      `SELECT table_name || '.' || column_name || (CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END) AS line
       FROM information_schema.columns WHERE table_schema = current_schema()`,
    );
    // The indexes of PRIMARY KEY and UNIQUE constraints are named by PostgreSQL (…_pkey, …_key).
    const indexes = await client.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()
       AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key'`,
    );
    return { columns: columns.rows.map((r) => r.line).sort(), indexes: indexes.rows.map((r) => r.name).sort() };
  } finally {
    await client.end();
  }
}

test('both engines end with the same tables, columns, nullability and indexes', async (t) => {
  const server = postgres.service;
  if (!server) return void t.skip(postgres.skip);
  const dir = await tempDir();
  try {
    const path = join(dir, 'webfolder.db');
    await new SqliteMetadataStore(path).close();
    const url = await server.freshDatabase();
    await (await PostgresMetadataStore.open(url)).close();
    const [lite, post] = [await sqliteShape(path), await postgresShape(url)];
    assert.ok(lite.columns.includes('folders.delete_after not null'), lite.columns.join('\n'));
    assert.ok(lite.columns.length > 80 && lite.indexes.length > 10, JSON.stringify(lite));
    assert.deepEqual(post, lite);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
