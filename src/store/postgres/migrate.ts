import type pg from 'pg';
import type { SchemaReport } from '../schema.js';
import { pendingMigrations } from '../sql/migrations.js';
import { POSTGRES_MIGRATIONS } from '../sql/schema.js';

/**
 * Applies the pending migrations inside the caller's transaction, after taking the advisory lock
 * `lockKey` (any number of nodes may start at once: one migrates, the others wait and find nothing
 * to do). Refuses (SchemaTooNewError) a database a newer version migrated further than this one knows.
 */
export async function migratePostgres(
  client: pg.PoolClient,
  lockKey: number,
  migrations: readonly string[] = POSTGRES_MIGRATIONS,
): Promise<SchemaReport> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
  // Checked first, so that a role without CREATE rights can start once the schema is in place.
  const { rows: exists } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!exists[0]!.present)
    await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
  const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = rows.map((r) => r.version);
  const pending = pendingMigrations('postgresql', applied, migrations.length);
  for (const version of pending) {
    await client.query(migrations[version - 1]!);
    await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [version, Date.now()]);
  }
  return { store: 'postgresql', applied: pending, version: Math.max(0, ...applied, ...pending) };
}
