/**
 * The schema's version, shared by both stores' migration runners: migrations are an ordered array
 * (version = index + 1, sql/schema.ts), and the
 * versions a database has applied are rows of its `schema_migrations` table.
 */
export interface SchemaReport {
  readonly store: 'sqlite' | 'postgresql';
  /** The migrations this start applied, in order (empty when the schema was current). */
  readonly applied: readonly number[];
  /** The schema version the database is at now. */
  readonly version: number;
}

/** A database whose schema a newer webfolder wrote: this version would misread it, so it refuses to start. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
  constructor(
    readonly store: SchemaReport['store'],
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the ${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database is at schema version ${found}, written by a newer webfolder; this version knows up to ${known}. Run the newer version again, or restore a backup made before the upgrade (docs/deployment.md#upgrades).`,
    );
  }
}
