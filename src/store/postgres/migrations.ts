import { accountsMigration } from '../account-store.js';
import { takeDownMigration } from '../admin-rows.js';
import { auditMigration } from '../audit-store.js';
import { downloadsMigration } from '../download-rows.js';
import { mailMigration } from '../mail-store.js';
import { opsMigration } from '../ops-rows.js';
import { activityNamesMigration, ownerMigration } from '../owner-rows.js';
import { folderCountsMigration, foldersMigration } from '../rows.js';
import { accountStorageMigration, storageCountsMigration } from '../storage-rows.js';

/**
 * Ordered schema migrations for PostgreSQL; version = index + 1. All pending ones are applied at
 * start in one transaction under an advisory lock (see PostgresMetadataStore.migrate), so any number
 * of nodes may start at once. Never edit a released entry: append a new one.
 *
 * Times are epoch milliseconds and sizes are bytes, both BIGINT (a file may be 1023 GiB); the store
 * parses them back to numbers (all stay below 2^53).
 */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: folders and their files.
  foldersMigration('BIGINT'),
  // 2: the folder's file and chunk counts (src/store/rows.ts folderCountsMigration).
  folderCountsMigration('BIGINT'),
  // 3: the notification outbox, owners' notification settings (src/store/ops-store.ts).
  opsMigration('BIGINT'),
  // 4: the owner's settings, download counts and the activity list (src/store/owner-rows.ts).
  ownerMigration('BIGINT'),
  // 5: the folders' and the instance's registered bytes, kept by every write that adds or removes
  // files, so that the storage quotas are checked in the insert's own transaction (src/domain/limits.ts
  // StorageQuota).
  storageCountsMigration('BIGINT'),
  // 6: the download a ticket is bound to, and the bytes it may still be sent (src/store/download-rows.ts).
  downloadsMigration('BIGINT'),
  // 7: the mail suppression list and the mail limits (src/store/mail-store.ts).
  mailMigration('BIGINT'),
  // 8: the audit log (src/store/audit-store.ts).
  auditMigration('BIGINT', 'BIGSERIAL PRIMARY KEY'),
  // 9: a deletion's encrypted file name and sealed key on its activity line
  // (src/store/owner-rows.ts).
  activityNamesMigration(),
  // 10: the operator's take-down of a folder (src/store/admin-rows.ts).
  takeDownMigration('BIGINT'),
  // 11: accounts, their sessions and API keys, and the account that made a folder
  // (src/store/account-store.ts).
  accountsMigration('BIGINT'),
  // 12: each account's registered bytes and own quota (src/store/storage-rows.ts).
  accountStorageMigration('BIGINT'),
];
