import { downloadsMigration } from '../download-rows.js';
import { mailMigration } from '../mail-store.js';
import { opsMigration } from '../ops-rows.js';
import { ownerMigration } from '../owner-rows.js';
import { storageCountsMigration } from '../storage-rows.js';

/**
 * Ordered schema migrations for PostgreSQL; version = index + 1. All pending ones are applied at
 * start in one transaction under an advisory lock (see PostgresMetadataStore.migrate), so any number
 * of nodes may start at once. Never edit a released entry: append a new one.
 *
 * Times are epoch milliseconds and sizes are bytes, both BIGINT (a file may be 1023 GiB); the store
 * parses them back to numbers (all stay below 2^53).
 */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE folders (
     id TEXT PRIMARY KEY,
     mode TEXT NOT NULL CHECK (mode IN ('send', 'share', 'request')),
     title TEXT NOT NULL,
     flow TEXT NOT NULL CHECK (flow IN ('empty', 'direct')),
     created_at BIGINT NOT NULL,
     ske TEXT,
     upload_auth_hash TEXT,
     owner_token_hash TEXT,
     owner_public_key TEXT,
     delete_after BIGINT NOT NULL,
     deleting_since BIGINT
   );
   CREATE INDEX folders_delete_after ON folders (delete_after);
   CREATE TABLE files (
     id TEXT PRIMARY KEY,
     folder_id TEXT NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     filename TEXT NOT NULL,
     mimetype TEXT,
     filesize BIGINT NOT NULL,
     chunk_size BIGINT NOT NULL,
     chunks INTEGER NOT NULL,
     created_at BIGINT NOT NULL,
     completed_at BIGINT,
     expires_at BIGINT NOT NULL,
     uploader_tag TEXT,
     sealed_key TEXT,
     UNIQUE (folder_id, position)
   );
   CREATE INDEX files_expires_at ON files (expires_at);`,
  // The folder's file and chunk counts, kept by every write that adds or removes files, so that the
  // folder limits and deleteAfter are O(1) (see metadata-store.ts addFiles).
  `ALTER TABLE folders ADD COLUMN file_count INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE folders ADD COLUMN chunk_count BIGINT NOT NULL DEFAULT 0;
   UPDATE folders SET
     file_count = (SELECT COUNT(*) FROM files WHERE files.folder_id = folders.id),
     chunk_count = (SELECT COALESCE(SUM(chunks), 0) FROM files WHERE files.folder_id = folders.id);`,
  // 3: the notification outbox, owners' notification settings (src/store/ops-store.ts).
  opsMigration('BIGINT'),
  // 4: the owner's settings, download counts and the activity list (issue 12, src/store/owner-rows.ts).
  ownerMigration('BIGINT'),
  // 5: the folders' and the instance's registered bytes, kept by every write that adds or removes
  // files, so that the storage quotas are checked in the insert's own transaction (src/domain/limits.ts
  // StorageQuota).
  storageCountsMigration('BIGINT'),
  // 6: the download a ticket is bound to, and the bytes it may still be sent (src/store/download-rows.ts).
  downloadsMigration('BIGINT'),
  // 7: the mail suppression list and the mail limits (issue 21.1, src/store/mail-store.ts).
  mailMigration('BIGINT'),
];
