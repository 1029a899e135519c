import type pg from 'pg';
import type { StorageQuota } from '../../domain/limits.js';

/**
 * The instance's registered-bytes counter on PostgreSQL (migration 5 of schema.ts).
 *
 * One row that every insert and delete of a file changes in its own transaction. The UPDATE's row
 * lock orders racing registrations from any number of nodes: each waits for the one before it to
 * commit, then re-evaluates its condition against the committed total (READ COMMITTED), so the
 * check and the addition are one step. Writers lock the folder row first and this row second, so
 * the two locks never wait on each other in opposite orders.
 */
export async function takeTotal(client: pg.PoolClient, bytes: number, quota: StorageQuota): Promise<boolean> {
  const { rowCount } = await client.query(
    'UPDATE storage_totals SET bytes = bytes + $1 WHERE id = 1 AND ($2::bigint IS NULL OR bytes + $1 <= $2::bigint)',
    [bytes, quota.instanceBytes],
  );
  return rowCount === 1;
}

/** A thrown refusal: rolls back the transaction's earlier writes (the instance total) with it. */
export class AccountQuotaRefused extends Error {
  override name = 'AccountQuotaRefused';
}

/**
 * Counts `bytes` more against the account that made the folder, within its own quota or
 * the default; nothing when the folder has no account. Taken after the instance counter, the same
 * order in every write: folder row, instance row, account row. The row is made on first use; the
 * conditional UPDATE's row lock orders racing registrations of one account on every node, and is
 * re-evaluated against the committed bytes after the wait, as the instance counter is.
 */
export async function takeAccount(
  client: pg.PoolClient,
  accountId: string | null,
  bytes: number,
  quota: StorageQuota,
): Promise<void> {
  if (accountId === null) return;
  await client.query(
    'INSERT INTO account_storage (account_id, bytes) VALUES ($1, 0) ON CONFLICT (account_id) DO NOTHING',
    [accountId],
  );
  const { rowCount } = await client.query(
    `UPDATE account_storage SET bytes = bytes + $2 WHERE account_id = $1
     AND (COALESCE(quota_bytes, $3::bigint) IS NULL OR bytes + $2 <= COALESCE(quota_bytes, $3::bigint))`,
    [accountId, bytes, quota.accountBytes],
  );
  if (rowCount !== 1) throw new AccountQuotaRefused();
}

/** A file delete that also lowers the folder's counts and the instance's total, in one statement. */
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

/** A folder's record removal (its files go by cascade) that lowers the instance's total by its bytes. */
export const DELETE_FOLDER_SQL = `WITH gone AS (DELETE FROM folders WHERE id = $1 RETURNING byte_count, account_id),
  total AS (UPDATE storage_totals SET bytes = bytes - (SELECT byte_count FROM gone) WHERE id = 1 AND EXISTS (SELECT 1 FROM gone)),
  account AS (
    UPDATE account_storage SET bytes = bytes - (SELECT byte_count FROM gone)
    WHERE account_id = (SELECT account_id FROM gone)
  )
  SELECT COUNT(*)::int AS removed FROM gone`;

export const sumBytes = (files: readonly { readonly filesize: number }[]) =>
  files.reduce((sum, f) => sum + f.filesize, 0);
