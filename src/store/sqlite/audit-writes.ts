import type Database from 'better-sqlite3';
import type { NewAuditEntry } from '../audit-store.js';
import { AUDIT_INSERT_COLUMNS, auditValues } from '../sql/audit.js';

/** The audit log's writes, on the writer thread. */
export function prepareAuditWrites(db: Database.Database) {
  const s = {
    insert: db.prepare(`INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    prune: db.prepare<[number, number]>(
      'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ? ORDER BY at LIMIT ?)',
    ),
  };
  return {
    appendAudit(entry: NewAuditEntry): void {
      s.insert.run(...auditValues(entry));
    },
    pruneAudit(before: number, limit: number): number {
      return s.prune.run(before, limit).changes;
    },
  };
}
