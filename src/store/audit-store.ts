import type { AuditAction, AuditDetailValue } from '../domain/audit.js';

/**
 * The audit log: one row per recorded action, shared by every node through the metadata
 * store. Rows are written by src/app/audit.ts (already bounded there), read newest first by the admin
 * listing and export, and deleted by the sweeper once older than AUDIT_RETENTION_DAYS.
 */
export interface AuditActor {
  readonly kind: 'anonymous' | 'account';
  readonly accountId: string | null;
  readonly email: string | null;
  readonly name: string | null;
  /** How an account proved itself ('session', 'api-key'); null for anonymous. */
  readonly via: string | null;
}

export interface NewAuditEntry {
  readonly at: number;
  readonly action: AuditAction;
  readonly actor: AuditActor;
  readonly folderId: string | null;
  /** A keyed hash of the client's address, only when the operator enabled it (AUDIT_CLIENT_ADDRESS). */
  readonly clientHash: string | null;
  readonly detail: Readonly<Record<string, AuditDetailValue>>;
}

export interface AuditEntry extends NewAuditEntry {
  /** Increasing with every entry: the listing's order and its cursor. */
  readonly id: number;
}

/** What the listing is narrowed to; every property given must hold. `since` inclusive, `until` exclusive. */
export interface AuditFilter {
  readonly action?: string;
  readonly accountId?: string;
  readonly folderId?: string;
  readonly since?: number;
  readonly until?: number;
}

export interface AuditPage {
  /** Only entries older than this id (the previous page's last): newest first. */
  readonly before?: number;
  readonly limit: number;
}

export interface AuditStore {
  append(entry: NewAuditEntry): Promise<void>;
  /** Entries matching `filter`, newest first, at most `page.limit`. */
  list(filter: AuditFilter, page: AuditPage): Promise<AuditEntry[]>;
  /** Deletes up to `limit` entries recorded before `before`; answers how many went. */
  prune(before: number, limit: number): Promise<number>;
}

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
