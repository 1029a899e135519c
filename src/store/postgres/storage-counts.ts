import type pg from 'pg';
import { overFolderQuota, type StorageQuota } from '../../domain/limits.js';
import { refuse } from '../sql/refusal.js';
import type { CountedFolder } from '../sql/rows.js';

/**
 * The registered-bytes counters behind the storage quotas on PostgreSQL (src/domain/limits.ts
 * StorageQuota; migrations 5 and 12 of ../sql/schema.ts): the folder's `byte_count` (written by the caller
 * with the folder's other counts, on the row it locked), the instance's one `storage_totals` row and
 * the account's `account_storage` row. The SQLite twin is ../sqlite/storage-counts.ts.
 *
 * Each counter's conditional UPDATE takes its row lock: racing registrations from any number of
 * nodes wait for the one before them to commit, then re-evaluate the condition against the
 * committed bytes (READ COMMITTED), so a check and its addition are one step. Every write locks in
 * the same order, folder row, instance row, account row, so no two wait on each other in a cycle.
 */
export async function charge(
  client: pg.PoolClient,
  folder: CountedFolder,
  bytes: number,
  quota: StorageQuota,
): Promise<void> {
  if (overFolderQuota(folder.byteCount, bytes, quota)) refuse('folder-quota');
  const total = await client.query(
    'UPDATE storage_totals SET bytes = bytes + $1 WHERE id = 1 AND ($2::bigint IS NULL OR bytes + $1 <= $2::bigint)',
    [bytes, quota.instanceBytes],
  );
  if (total.rowCount !== 1) refuse('instance-quota');
  if (folder.accountId === null) return;
  await client.query(
    'INSERT INTO account_storage (account_id, bytes) VALUES ($1, 0) ON CONFLICT (account_id) DO NOTHING',
    [folder.accountId],
  );
  const account = await client.query(
    `UPDATE account_storage SET bytes = bytes + $2 WHERE account_id = $1
     AND (COALESCE(quota_bytes, $3::bigint) IS NULL OR bytes + $2 <= COALESCE(quota_bytes, $3::bigint))`,
    [folder.accountId, bytes, quota.accountBytes],
  );
  if (account.rowCount !== 1) refuse('account-quota');
}

/**
 * A file's delete that counts its bytes less against the folder, the instance and the account, and
 * lowers the folder's file and chunk counts, in one statement.
 */
export const DELETE_FILE_SQL = `WITH gone AS (DELETE FROM files WHERE folder_id = $1 AND id = $2 RETURNING chunks, filesize),
  counted AS (
    UPDATE folders SET file_count = file_count - 1, chunk_count = chunk_count - (SELECT chunks FROM gone),
      byte_count = byte_count - (SELECT filesize FROM gone)
    WHERE id = $1 AND EXISTS (SELECT 1 FROM gone)
  ),
  total AS (UPDATE storage_totals SET bytes = bytes - (SELECT filesize FROM gone) WHERE id = 1 AND EXISTS (SELECT 1 FROM gone)),
  account AS (
    UPDATE account_storage SET bytes = bytes - (SELECT filesize FROM gone)
    WHERE account_id = (SELECT account_id FROM folders WHERE id = $1) AND EXISTS (SELECT 1 FROM gone)
  )
  SELECT COUNT(*)::int AS removed FROM gone`;

/** A folder's record removal (its files go by cascade) that counts its bytes less against the instance and the account. */
export const DELETE_FOLDER_SQL = `WITH gone AS (DELETE FROM folders WHERE id = $1 RETURNING byte_count, account_id),
  total AS (UPDATE storage_totals SET bytes = bytes - (SELECT byte_count FROM gone) WHERE id = 1 AND EXISTS (SELECT 1 FROM gone)),
  account AS (
    UPDATE account_storage SET bytes = bytes - (SELECT byte_count FROM gone)
    WHERE account_id = (SELECT account_id FROM gone)
  )
  SELECT COUNT(*)::int AS removed FROM gone`;
