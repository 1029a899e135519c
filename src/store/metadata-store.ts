import type { AccountStore } from './account-store.js';
import type { AccountUsageStore } from './account-usage.js';
import type { AdminStore } from './admin-store.js';
import type { AuditStore } from './audit-store.js';
import type { FolderDeletion } from './deletion-store.js';
import type { DownloadCounts } from './download-store.js';
import type { FolderStore } from './folder-store.js';
import type { MailStore } from './mail-store.js';
import type { ByteCounts, FolderListings, NotificationSettingsStore, OutboxStore } from './ops-store.js';
import type { OwnerControls } from './owner-store.js';
import type { SchemaReport } from './schema.js';

/**
 * The metadata port: everything the server keeps but the bytes. Implemented by the SQLite store
 * (embedded default, sqlite/) and the PostgreSQL store (scale-out, postgres/), both checked by one
 * shared suite (test/store/metadata-store.suite.ts). Times are epoch milliseconds supplied by the
 * caller: a store never reads a clock.
 *
 * One part per use, each in its own file with its records, so a caller depends on the part it uses:
 * the parts over the folders and files tables (the core every upload uses, deletion, the owner's
 * controls, downloads) are methods of the store itself; the parts over tables of their own are
 * properties. The records callers use most are re-exported here.
 */
export type { FolderRecord, FolderSettings } from './folder-record.js';
export type { AddFilesResult, FileInFolder, FileRecord, NewFolder, Outbox, OwnerClaim } from './folder-store.js';
export type { ActivityRecord } from './owner-store.js';

export interface MetadataStore extends FolderStore, FolderDeletion, OwnerControls, DownloadCounts {
  /** The notification outbox (ops-store.ts). */
  readonly outbox: OutboxStore;
  /** The owners' notification settings (ops-store.ts). */
  readonly notificationSettings: NotificationSettingsStore;
  /** Byte counts for quotas, metrics and stats (ops-store.ts). */
  readonly byteCounts: ByteCounts;
  /** Folder listings and the take-down (ops-store.ts). */
  readonly listings: FolderListings;
  /** The admin console's queries and the take-down (admin-store.ts). */
  readonly admin: AdminStore;
  /** The mail suppression list and the mail limits' counters (mail-store.ts). */
  readonly mail: MailStore;
  /** The audit log (audit-store.ts). */
  readonly audit: AuditStore;
  /** Each account's registered bytes and own quota (account-usage.ts). */
  readonly usage: AccountUsageStore;
  /** Accounts, sessions and API keys (account-store.ts). */
  readonly accounts: AccountStore;
  /** The schema version, and the migrations this start applied (logged by the server). */
  readonly schema: SchemaReport;
  close(): Promise<void>;
}
