import type Database from 'better-sqlite3';
import { overFolderQuota, type StorageQuota } from '../../domain/limits.js';
import { refuse } from '../sql/refusal.js';
import type { CountedFolder } from '../sql/rows.js';

/**
 * The registered-bytes counters behind the storage quotas on SQLite (src/domain/limits.ts
 * StorageQuota; migrations 5 and 12 of ../sql/schema.ts): the folder's `byte_count` (written by the caller
 * with the folder's other counts), the instance's one `storage_totals` row and the account's
 * `account_storage` row. The writer thread runs one write at a time and holds the database's write
 * lock, so a check and its addition are one step. The PostgreSQL twin is ../postgres/storage-counts.ts.
 */
export function prepareStorageCounts(db: Database.Database) {
  const s = {
    // An addition happens only while the total stays within the limit given (null: none).
    addTotal: db.prepare<{ adding: number; limit: number | null }>(
      'UPDATE storage_totals SET bytes = bytes + @adding WHERE id = 1 AND (@limit IS NULL OR bytes + @adding <= @limit)',
    ),
    removeTotal: db.prepare<[number]>('UPDATE storage_totals SET bytes = bytes - ? WHERE id = 1'),
    // The account's row is made on its first registration; an addition happens only within its own
    // quota, or the default (@default) when it has none; neither: no limit.
    ensureAccount: db.prepare<[string]>(
      'INSERT INTO account_storage (account_id, bytes) VALUES (?, 0) ON CONFLICT (account_id) DO NOTHING',
    ),
    addAccount: db.prepare<{ id: string; adding: number; default: number | null }>(
      `UPDATE account_storage SET bytes = bytes + @adding WHERE account_id = @id
       AND (COALESCE(quota_bytes, @default) IS NULL OR bytes + @adding <= COALESCE(quota_bytes, @default))`,
    ),
    removeAccount: db.prepare<[number, string]>('UPDATE account_storage SET bytes = bytes - ? WHERE account_id = ?'),
  };
  return {
    /**
     * Counts `bytes` more against the folder, the instance and the folder's account, in that order,
     * each within its quota; refuses ('folder-quota', 'instance-quota', 'account-quota') at the
     * first one the bytes would break, which rolls back what the write did before.
     */
    charge(folder: CountedFolder, bytes: number, quota: StorageQuota): void {
      if (overFolderQuota(folder.byteCount, bytes, quota)) refuse('folder-quota');
      if (s.addTotal.run({ adding: bytes, limit: quota.instanceBytes }).changes !== 1) refuse('instance-quota');
      if (folder.accountId === null) return;
      s.ensureAccount.run(folder.accountId);
      const added = s.addAccount.run({ id: folder.accountId, adding: bytes, default: quota.accountBytes });
      if (added.changes !== 1) refuse('account-quota');
    },
    /** Counts `bytes` less against the instance and the account: files of theirs were deleted. */
    release(accountId: string | null, bytes: number): void {
      s.removeTotal.run(bytes);
      if (accountId !== null) s.removeAccount.run(bytes, accountId);
    },
  };
}
