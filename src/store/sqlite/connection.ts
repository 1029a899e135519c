import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { SchemaReport } from '../schema.js';
import { pendingMigrations } from '../sql/migrations.js';
import { SQLITE_MIGRATIONS } from '../sql/schema.js';

/**
 * better-sqlite3 12 on Node 20, 13 (the alias better-sqlite3-napi) on Node 22 and later: 13 needs
 * Node 22, and 12 aborts Node 24 when the garbage collector frees one of its statements outside a
 * JavaScript context (node::RemoveEnvironmentCleanupHook asserts). The two have the same API.
 */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const Driver = createRequire(import.meta.url)(
  NODE_MAJOR >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3',
) as typeof Database;

/**
 * Opens the database file with the settings every connection needs. WAL lets the main thread read
 * while the writer thread commits; `synchronous = FULL` makes each commit durable through a power
 * cut, not only a process crash.
 */
export function openConnection(path: string): Database.Database {
  const db = new Driver(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Applies the migrations not yet applied, each in its own transaction; version = index + 1. Refuses
 * (SchemaTooNewError) a database a newer version migrated further than this one knows.
 */
export function migrate(db: Database.Database, migrations: readonly string[] = SQLITE_MIGRATIONS): SchemaReport {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = db
    .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
    .all()
    .map((r) => r.version);
  const pending = pendingMigrations('sqlite', applied, migrations.length);
  for (const version of pending) {
    db.transaction(() => {
      db.exec(migrations[version - 1]!);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
    })();
  }
  return { store: 'sqlite', applied: pending, version: Math.max(0, ...applied, ...pending) };
}

/**
 * A consistent copy of the live database file at `dest`, made with SQLite's online backup API while
 * the server keeps reading and writing (WAL included: the copy is one point in time).
 */
export async function backupDatabase(source: string, dest: string): Promise<void> {
  const db = new Driver(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(dest);
  } finally {
    db.close();
  }
}
