import type pg from 'pg';
import type { AccountFolderPage, AccountFolderSummary } from '../account-folders.js';
import type {
  FolderNotifications,
  FolderSummary,
  NewOutboxEntry,
  OpsStore,
  OutboxCounts,
  OutboxEntry,
  StoreUsage,
} from '../ops-store.js';
import {
  type AccountFolderRow,
  accountFolderParams,
  accountFoldersSql,
  toAccountFolder,
} from '../sql/account-folders.js';
import {
  type FolderSummaryRow,
  type NotificationsRow,
  type OutboxRow,
  summarySql,
  toNotifications,
  toOutbox,
  toSummary,
} from '../sql/ops.js';

/**
 * Stores outbox rows with one multi-row INSERT (atomic by itself, one round trip); on a transaction's
 * client, they commit with the change they report (PostgresMetadataStore). Duplicate ids are ignored.
 */
export async function appendOutbox(q: pg.Pool | pg.PoolClient, entries: readonly NewOutboxEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const values: unknown[] = [];
  const tuples = entries.map((e, i) => {
    values.push(e.id, e.eventId, e.target, e.folderId, e.payload, e.createdAt, e.nextAttemptAt);
    const b = i * 7;
    return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
  });
  await q.query(
    `INSERT INTO outbox (id, event_id, target, folder_id, payload, created_at, next_attempt_at)
     VALUES ${tuples.join(', ')} ON CONFLICT (id) DO NOTHING`,
    values,
  );
}

/**
 * The ops part of the PostgreSQL store. The outbox claim is one statement whose inner SELECT takes
 * `FOR UPDATE SKIP LOCKED`: concurrent claimers on any number of nodes skip the rows another is
 * leasing instead of waiting for it, and each due row is leased by exactly one of them.
 */
export class PostgresOpsStore implements OpsStore {
  constructor(private readonly pool: pg.Pool) {}

  async enqueueOutbox(entries: readonly NewOutboxEntry[]): Promise<void> {
    await appendOutbox(this.pool, entries);
  }

  async claimOutbox(now: number, leaseMs: number, limit: number): Promise<OutboxEntry[]> {
    const { rows } = await this.pool.query<OutboxRow>(
      `UPDATE outbox SET lease_until = $2
       WHERE id IN (
         SELECT id FROM outbox WHERE next_attempt_at <= $1 AND lease_until <= $1
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, event_id, target, folder_id, payload, created_at, attempts`,
      [now, now + leaseMs, limit],
    );
    return rows.map(toOutbox);
  }

  async finishOutbox(id: string): Promise<void> {
    await this.pool.query('DELETE FROM outbox WHERE id = $1', [id]);
  }

  async retryOutbox(id: string, attempts: number, nextAttemptAt: number | null, lastError: string): Promise<void> {
    await this.pool.query(
      'UPDATE outbox SET attempts = $1, next_attempt_at = $2, last_error = $3, lease_until = 0 WHERE id = $4',
      [attempts, nextAttemptAt, lastError.slice(0, 500), id],
    );
  }

  async outboxCounts(): Promise<OutboxCounts> {
    const { rows } = await this.pool.query<{ pending: string; failed: string }>(
      'SELECT COUNT(next_attempt_at) AS pending, COUNT(*) - COUNT(next_attempt_at) AS failed FROM outbox',
    );
    return { pending: Number(rows[0]!.pending), failed: Number(rows[0]!.failed) };
  }

  async setFolderNotifications(folderId: string, settings: FolderNotifications | null): Promise<boolean> {
    if (settings === null) {
      const { rowCount } = await this.pool.query('SELECT 1 FROM folders WHERE id = $1 AND deleting_since IS NULL', [
        folderId,
      ]);
      if (rowCount !== 1) return false;
      await this.pool.query('DELETE FROM folder_notifications WHERE folder_id = $1', [folderId]);
      return true;
    }
    // INSERT … SELECT from the live folder: nothing is inserted for an absent or dying folder.
    const { rowCount } = await this.pool.query(
      `INSERT INTO folder_notifications
         (folder_id, email, webhook_url, webhook_secret, on_download, on_upload, language, updated_at)
       SELECT id, $2, $3, $4, $5, $6, $7, $8 FROM folders WHERE id = $1 AND deleting_since IS NULL
       ON CONFLICT (folder_id) DO UPDATE SET email = excluded.email, webhook_url = excluded.webhook_url,
         webhook_secret = excluded.webhook_secret, on_download = excluded.on_download,
         on_upload = excluded.on_upload, language = excluded.language, updated_at = excluded.updated_at`,
      [
        folderId,
        settings.email,
        settings.webhookUrl,
        settings.webhookSecret,
        settings.onDownload,
        settings.onUpload,
        settings.language,
        settings.updatedAt,
      ],
    );
    return rowCount === 1;
  }

  async getFolderNotifications(folderId: string): Promise<FolderNotifications | null> {
    const { rows } = await this.pool.query<NotificationsRow>(
      `SELECT n.* FROM folder_notifications n JOIN folders d ON d.id = n.folder_id
       WHERE n.folder_id = $1 AND d.deleting_since IS NULL`,
      [folderId],
    );
    return rows[0] ? toNotifications(rows[0]) : null;
  }

  async usage(): Promise<StoreUsage> {
    const { rows } = await this.pool.query<{
      folders: string;
      files: string;
      bytes: string | null;
      incomplete: string;
    }>(
      `SELECT (SELECT COUNT(*) FROM folders WHERE deleting_since IS NULL) AS folders,
         COUNT(f.id) AS files, SUM(f.filesize) AS bytes,
         (SELECT COUNT(*) FROM files WHERE completed_at IS NULL) AS incomplete
       FROM files f JOIN folders d ON d.id = f.folder_id WHERE d.deleting_since IS NULL`,
    );
    const r = rows[0]!;
    return {
      folders: Number(r.folders),
      files: Number(r.files),
      bytes: Number(r.bytes ?? 0),
      incompleteFiles: Number(r.incomplete),
    };
  }

  async folderBytes(folderId: string): Promise<number> {
    const { rows } = await this.pool.query<{ bytes: string }>('SELECT byte_count AS bytes FROM folders WHERE id = $1', [
      folderId,
    ]);
    return Number(rows[0]?.bytes ?? 0);
  }

  async totalBytes(): Promise<number> {
    const { rows } = await this.pool.query<{ bytes: string }>('SELECT bytes FROM storage_totals WHERE id = 1');
    return Number(rows[0]?.bytes ?? 0);
  }

  async accountFolders(accountId: string, now: number, page: AccountFolderPage): Promise<AccountFolderSummary[]> {
    const sql = accountFoldersSql((n) => `$${n}`, page.sort, page.after !== undefined);
    const { rows } = await this.pool.query<AccountFolderRow>(sql, accountFolderParams(accountId, now, page));
    return rows.map(toAccountFolder);
  }

  async listFolders(limit: number, before?: number): Promise<FolderSummary[]> {
    const sql = summarySql((n) => `$${n}`, before !== undefined);
    const { rows } = await this.pool.query<FolderSummaryRow>(sql, before === undefined ? [limit] : [limit, before]);
    return rows.map(toSummary);
  }

  async expireFolder(folderId: string, now: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE folders SET delete_after = LEAST(delete_after, $2) WHERE id = $1 AND deleting_since IS NULL`,
      [folderId, now],
    );
    return rowCount === 1;
  }
}
