import { type SchemaReport, SchemaTooNewError } from '../schema.js';

/**
 * The versions to apply, in order, given the ones applied and how many migrations this version has.
 * Refuses a database with a version beyond them: its tables may mean something this code cannot know.
 */
export function pendingMigrations(store: SchemaReport['store'], applied: Iterable<number>, known: number): number[] {
  const done = new Set(applied);
  const newest = Math.max(0, ...done);
  if (newest > known) throw new SchemaTooNewError(store, newest, known);
  const pending: number[] = [];
  for (let version = 1; version <= known; version++) if (!done.has(version)) pending.push(version);
  return pending;
}
