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
 * Ordered schema migrations; version = index + 1. Applied at start, each in its own transaction.
 * Never edit a released entry: append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: folders and their files.
  foldersMigration('INTEGER'),
  // 2: the folder's file and chunk counts (src/store/rows.ts folderCountsMigration).
  folderCountsMigration('INTEGER'),
  // 3: the notification outbox, owners' notification settings (src/store/ops-store.ts).
  opsMigration('INTEGER'),
  // 4: the owner's settings, download counts and the activity list (src/store/owner-rows.ts).
  ownerMigration('INTEGER'),
  // 5: the folders' and the instance's registered bytes, kept by every write that adds or removes
  // files, so that the storage quotas are checked in the insert's own transaction (src/domain/limits.ts
  // StorageQuota).
  storageCountsMigration('INTEGER'),
  // 6: the download a ticket is bound to, and the bytes it may still be sent (src/store/download-rows.ts).
  downloadsMigration('INTEGER'),
  // 7: the mail suppression list and the mail limits (src/store/mail-store.ts).
  mailMigration('INTEGER'),
  // 8: the audit log (src/store/audit-store.ts).
  auditMigration('INTEGER', 'INTEGER PRIMARY KEY AUTOINCREMENT'),
  // 9: a deletion's encrypted file name and sealed key on its activity line
  // (src/store/owner-rows.ts).
  activityNamesMigration(),
  // 10: the operator's take-down of a folder (src/store/admin-rows.ts).
  takeDownMigration('INTEGER'),
  // 11: accounts, their sessions and API keys, and the account that made a folder
  // (src/store/account-store.ts).
  accountsMigration('INTEGER'),
  // 12: each account's registered bytes and own quota (src/store/storage-rows.ts).
  accountStorageMigration('INTEGER'),
];
