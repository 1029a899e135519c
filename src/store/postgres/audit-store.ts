import type pg from 'pg';
import type { AuditEntry, AuditFilter, AuditPage, AuditStore, NewAuditEntry } from '../audit-store.js';
import { AUDIT_INSERT_COLUMNS, type AuditRow, auditValues, auditWhere, toAuditEntry } from '../sql/audit.js';

/** Stores one entry with `q`: a transaction's client stores it in that transaction. */
export async function appendAuditEntry(q: pg.Pool | pg.PoolClient, entry: NewAuditEntry): Promise<void> {
  await q.query(
    `INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    auditValues(entry),
  );
}

/** The audit log of the PostgreSQL store (../audit-store.ts). */
export class PostgresAuditStore implements AuditStore {
  constructor(private readonly pool: pg.Pool) {}

  append(entry: NewAuditEntry): Promise<void> {
    return appendAuditEntry(this.pool, entry);
  }

  async list(filter: AuditFilter, page: AuditPage): Promise<AuditEntry[]> {
    const { where, params } = auditWhere(filter, page, (n) => `$${n}`);
    const { rows } = await this.pool.query<AuditRow>(
      `SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT $${params.length + 1}`,
      [...params, page.limit],
    );
    return rows.map(toAuditEntry);
  }

  async prune(before: number, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 ORDER BY at LIMIT $2)',
      [before, limit],
    );
    return rowCount ?? 0;
  }
}
