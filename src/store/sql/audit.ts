import type { AuditAction, AuditDetailValue } from '../../domain/audit.js';
import type { AuditActor, AuditEntry, AuditFilter, AuditPage, NewAuditEntry } from '../audit-store.js';

/** The row both dialects store. */
export interface AuditRow {
  id: number | string;
  at: number | string;
  action: string;
  actor: string;
  folder_id: string | null;
  client_hash: string | null;
  detail: string;
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    at: Number(row.at),
    action: row.action as AuditAction,
    actor: JSON.parse(row.actor) as AuditActor,
    folderId: row.folder_id,
    clientHash: row.client_hash,
    detail: JSON.parse(row.detail) as Record<string, AuditDetailValue>,
  };
}

/** The columns of an entry as stored, in the order of AUDIT_INSERT_COLUMNS. */
export const auditValues = (e: NewAuditEntry): unknown[] => [
  e.at,
  e.action,
  e.actor.accountId,
  JSON.stringify(e.actor),
  e.folderId,
  e.clientHash,
  JSON.stringify(e.detail),
];
export const AUDIT_INSERT_COLUMNS = 'at, action, account_id, actor, folder_id, client_hash, detail';

/**
 * The WHERE clause and parameters of a listing, for a dialect whose n-th parameter is `param(n)`
 * (`?` for SQLite, `$n` for PostgreSQL): one source for both stores.
 */
export function auditWhere(
  filter: AuditFilter,
  page: AuditPage,
  param: (n: number) => string,
): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace('?', param(params.length)));
  };
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.accountId !== undefined) add('account_id = ?', filter.accountId);
  if (filter.folderId !== undefined) add('folder_id = ?', filter.folderId);
  if (filter.since !== undefined) add('at >= ?', filter.since);
  if (filter.until !== undefined) add('at < ?', filter.until);
  if (page.before !== undefined) add('id < ?', page.before);
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}
