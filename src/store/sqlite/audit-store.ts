import type Database from 'better-sqlite3';
import type { AuditEntry, AuditFilter, AuditPage, AuditStore, NewAuditEntry } from '../audit-store.js';
import { type AuditRow, auditWhere, toAuditEntry } from '../sql/audit.js';
import type { SqliteWriter } from './writer.js';

/** The audit log of the SQLite store: reads on the calling thread, writes through the writer thread. */
export class SqliteAuditStore implements AuditStore {
  constructor(
    private readonly db: Database.Database,
    private readonly writer: SqliteWriter,
  ) {}

  append(entry: NewAuditEntry): Promise<void> {
    return this.writer.write('appendAudit', entry);
  }

  async list(filter: AuditFilter, page: AuditPage): Promise<AuditEntry[]> {
    const { where, params } = auditWhere(filter, page, () => '?');
    const rows = this.db
      .prepare<unknown[], AuditRow>(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`)
      .all(...params, page.limit);
    return rows.map(toAuditEntry);
  }

  prune(before: number, limit: number): Promise<number> {
    return this.writer.write('pruneAudit', before, limit);
  }
}
