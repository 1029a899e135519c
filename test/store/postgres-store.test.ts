import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { PostgresMetadataStore } from '../../src/store/postgres/postgres-store.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/sql/schema.js';
import { isUnavailable, startPostgres, useService } from '../support/services.js';
import { metadataStoreSuite } from './metadata-store.suite.js';

// The scale-out store on a real PostgreSQL server (a throwaway cluster, or TEST_DATABASE_URL): a new
// database per test, and the peer is a second pool on it, as a second API node would have.
metadataStoreSuite('PostgreSQL', async () => {
  const pgs = await startPostgres();
  if (isUnavailable(pgs)) return pgs;
  return {
    async open() {
      const url = await pgs.freshDatabase();
      // Both open at once: the migrations' advisory lock makes that safe.
      const [store, peer] = await Promise.all([PostgresMetadataStore.open(url), PostgresMetadataStore.open(url)]);
      return { store, peer };
    },
    stop: () => pgs.stop(),
  };
});

const postgres = useService(startPostgres);

test('PostgreSQL: many nodes starting at once on an empty database apply each migration exactly once', async (t) => {
  const server = postgres.service;
  if (!server) return void t.skip(postgres.skip);
  const url = await server.freshDatabase();
  const stores = await Promise.all(Array.from({ length: 8 }, () => PostgresMetadataStore.open(url)));
  await Promise.all(stores.map((s) => s.close()));
  const again = await PostgresMetadataStore.open(url);
  await again.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(
      rows.map((r) => r.version),
      POSTGRES_MIGRATIONS.map((_, i) => i + 1),
    );
    const { rows: types } = await client.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_name IN ('folders', 'files') AND column_name IN ('created_at', 'delete_after', 'filesize', 'expires_at')`,
    );
    assert.ok(types.length >= 5 && types.every((c) => c.data_type === 'bigint'), JSON.stringify(types));
  } finally {
    await client.end();
  }
});

test('PostgreSQL: an unreachable database fails open() with the error, leaving nothing running', async (t) => {
  const server = postgres.service;
  if (!server) return void t.skip(postgres.skip);
  const url = new URL(server.adminUrl);
  url.pathname = '/no_such_database';
  await assert.rejects(PostgresMetadataStore.open(url.toString()), /no_such_database/);
});
