import type Database from 'better-sqlite3';
import type { FolderNotifications, NewOutboxEntry, OutboxEntry } from '../ops-store.js';
import { type OutboxRow, toOutbox } from '../sql/ops.js';

/**
 * The SQLite writes of the ops tables (../ops-store.ts), run on the writer thread like the folder
 * writes (writes.ts). One writer thread per process and SQLite's write lock across processes make
 * the outbox claim (select then lease) atomic.
 */
export function prepareOpsWrites(db: Database.Database) {
  const s = {
    enqueue: db.prepare(
      `INSERT OR IGNORE INTO outbox (id, event_id, target, folder_id, payload, created_at, next_attempt_at)
       VALUES (@id, @eventId, @target, @folderId, @payload, @createdAt, @nextAttemptAt)`,
    ),
    due: db.prepare<[number, number, number], OutboxRow>(
      `SELECT id, event_id, target, folder_id, payload, created_at, attempts FROM outbox
       WHERE next_attempt_at <= ? AND lease_until <= ? ORDER BY next_attempt_at LIMIT ?`,
    ),
    lease: db.prepare<[number, string]>('UPDATE outbox SET lease_until = ? WHERE id = ?'),
    finish: db.prepare<[string]>('DELETE FROM outbox WHERE id = ?'),
    retry: db.prepare<[number, number | null, string, string]>(
      'UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, lease_until = 0 WHERE id = ?',
    ),
    folderLive: db.prepare<[string], { id: string }>('SELECT id FROM folders WHERE id = ? AND deleting_since IS NULL'),
    upsertNotifications: db.prepare(
      `INSERT INTO folder_notifications
         (folder_id, email, webhook_url, webhook_secret, on_download, on_upload, language, updated_at)
       VALUES (@folderId, @email, @webhookUrl, @webhookSecret, @onDownload, @onUpload, @language, @updatedAt)
       ON CONFLICT (folder_id) DO UPDATE SET email = excluded.email, webhook_url = excluded.webhook_url,
         webhook_secret = excluded.webhook_secret, on_download = excluded.on_download,
         on_upload = excluded.on_upload, language = excluded.language, updated_at = excluded.updated_at`,
    ),
    deleteNotifications: db.prepare<[string]>('DELETE FROM folder_notifications WHERE folder_id = ?'),
    expire: db.prepare<[number, string, number]>(
      'UPDATE folders SET delete_after = ? WHERE id = ? AND deleting_since IS NULL AND delete_after > ?',
    ),
  };
  return {
    enqueueOutbox(entries: readonly NewOutboxEntry[]): void {
      for (const entry of entries) s.enqueue.run(entry);
    },
    claimOutbox(now: number, leaseMs: number, limit: number): OutboxEntry[] {
      const rows = s.due.all(now, now, limit);
      for (const row of rows) s.lease.run(now + leaseMs, row.id);
      return rows.map(toOutbox);
    },
    finishOutbox(id: string): void {
      s.finish.run(id);
    },
    retryOutbox(id: string, attempts: number, nextAttemptAt: number | null, lastError: string): void {
      s.retry.run(attempts, nextAttemptAt, lastError.slice(0, 500), id);
    },
    setFolderNotifications(folderId: string, settings: FolderNotifications | null): boolean {
      if (!s.folderLive.get(folderId)) return false;
      if (settings === null) s.deleteNotifications.run(folderId);
      else
        s.upsertNotifications.run({
          folderId,
          ...settings,
          onDownload: settings.onDownload ? 1 : 0,
          onUpload: settings.onUpload ? 1 : 0,
        });
      return true;
    },
    expireFolder(folderId: string, now: number): boolean {
      // A folder already due keeps its time: the sweeper takes it either way.
      if (!s.folderLive.get(folderId)) return false;
      s.expire.run(now, folderId, now);
      return true;
    },
  };
}
