import { createHmac } from 'node:crypto';
import { type AuditAction, type AuditDetailValue, boundedDetail, boundedText } from '../domain/audit.js';
import { ANONYMOUS, type Principal } from '../domain/principal.js';
import type { AuditActor, AuditEntry, NewAuditEntry } from '../store/audit-store.js';
import type { Services } from './services.js';

export type { AuditAction };

/** What a use case records (docs/organisations.md#audit-log). */
export interface AuditEntryInput {
  readonly action: AuditAction;
  readonly principal: Principal;
  readonly folderId?: string;
  readonly detail?: Record<string, AuditDetailValue>;
  /** The client's address; kept only as a keyed hash, and only with AUDIT_CLIENT_ADDRESS=hashed. */
  readonly clientAddress?: string;
}

/** Who acts, as the HTTP layer hands it to a use case: the principal and the client's address. */
export interface Actor {
  readonly principal: Principal;
  readonly clientAddress?: string;
}

/** The actor of calls that come from no request (tests, tools): anonymous, no address. */
export const NO_ACTOR: Actor = { principal: ANONYMOUS };

/**
 * Records one action in the audit log, after the action took effect (a crash in between loses the
 * entry, never invents one). A change that can store its entry in its own transaction takes it from
 * auditEntry instead and reports it with auditRecorded once committed: then a crash can do neither.
 * A failure to record is reported by the caller's error handling like any store failure: the
 * action itself has already happened.
 */
export async function recordAudit(services: Services, entry: AuditEntryInput): Promise<void> {
  const stored = await auditEntry(services, entry);
  await services.store.audit.append(stored);
  auditRecorded(services, stored);
}

/**
 * The entry as stored: every text bounded (src/domain/audit.ts), the client's address replaced by an
 * HMAC-SHA-256 keyed with the instance's signing secret, or dropped: the log never holds an address.
 */
export async function auditEntry(services: Services, entry: AuditEntryInput): Promise<NewAuditEntry> {
  const { audit } = services.config;
  const clientHash =
    audit.clientAddress === 'hashed' && entry.clientAddress
      ? hashAddress(services.keys.of('auditAddresses'), entry.clientAddress)
      : null;
  return {
    at: services.clock(),
    action: entry.action,
    actor: auditActor(entry.principal),
    folderId: entry.folderId ?? null,
    clientHash,
    detail: boundedDetail(entry.detail),
  };
}

/** Reports an entry its change stored (the live audit stream), once that change has committed. */
export function auditRecorded(services: Services, stored: NewAuditEntry): void {
  services.auditStream?.(stored);
}

/** The keyed hash of a client address: the same address gives the same value on every node. */
export function hashAddress(key: Buffer, address: string): string {
  return createHmac('sha256', key).update(address).digest('hex').slice(0, 32);
}

/** The principal as the log keeps it: its texts bounded, nothing of the session. */
function auditActor(principal: Principal): AuditActor {
  if (principal.kind === 'anonymous') return { kind: 'anonymous', accountId: null, email: null, name: null, via: null };
  return {
    kind: 'account',
    accountId: principal.accountId,
    email: principal.email === null ? null : boundedText(principal.email),
    name: principal.name === null ? null : boundedText(principal.name),
    via: principal.via,
  };
}

/** An entry as the admin API and the export show it: one stable shape (docs/organisations.md). */
export interface AuditView {
  readonly id: string;
  readonly at: string;
  readonly action: string;
  readonly actor: AuditActor;
  readonly folderId: string | null;
  readonly clientHash: string | null;
  readonly detail: Record<string, AuditDetailValue>;
}

export function auditView(entry: AuditEntry | (NewAuditEntry & { id?: number })): AuditView {
  return {
    id: entry.id === undefined ? '' : String(entry.id),
    at: new Date(entry.at).toISOString(),
    action: entry.action,
    actor: entry.actor,
    folderId: entry.folderId,
    clientHash: entry.clientHash,
    detail: { ...entry.detail },
  };
}
