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
