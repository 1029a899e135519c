import type Database from 'better-sqlite3';
import { ACTIVITY_KEPT } from '../../domain/limits.js';
import { deleteAfterForChosenExpiry } from '../../domain/owner-settings.js';
import type { CountDownloadOptions, CountDownloadResult } from '../download-store.js';
import type { FileRecord, Outbox } from '../folder-store.js';
import type { ActivityRecord, SettingsChange, UpdateFolderResult } from '../owner-store.js';
import { ACTIVITY_COLUMNS, activityValues } from '../sql/activity.js';
import { refuse } from '../sql/refusal.js';
import { type FileRow, type FolderRow, toFile, toFolder } from '../sql/rows.js';

/**
 * The SQLite writes of the owner's controls and of downloads, run on the writer thread like the
 * folder writes (writes.ts), each in its own savepoint, which a refusal (../sql/refusal.ts) rolls
 * back. The PostgreSQL twin is ../postgres/owner-writes.ts.
 */
export function prepareOwnerWrites(db: Database.Database, append: (outbox: Outbox) => void) {
  const s = {
    folder: db.prepare<[string], FolderRow>('SELECT * FROM folders WHERE id = ? AND deleting_since IS NULL'),
    completeFiles: db.prepare<[string], { n: number }>(
      'SELECT COUNT(*) AS n FROM files WHERE folder_id = ? AND completed_at IS NOT NULL',
    ),
    setExpiry: db.prepare<[number, number, string]>('UPDATE folders SET expires_at = ?, delete_after = ? WHERE id = ?'),
    setFileExpiries: db.prepare<[number, string, number]>(
      'UPDATE files SET expires_at = ? WHERE folder_id = ? AND expires_at > ?',
    ),
    setMaxDownloads: db.prepare<[number | null, string]>('UPDATE folders SET max_downloads = ? WHERE id = ?'),
    setNote: db.prepare<[string | null, string]>('UPDATE folders SET note = ? WHERE id = ?'),
    setPassword: db.prepare<[string, string]>('UPDATE folders SET password = ? WHERE id = ?'),
    file: db.prepare<[string, string], FileRow>(
      `SELECT f.* FROM files f JOIN folders d ON d.id = f.folder_id
       WHERE f.folder_id = ? AND f.id = ? AND d.deleting_since IS NULL`,
    ),
    setFileLimit: db.prepare<[number | null, string, string]>(
      'UPDATE files SET max_downloads = ? WHERE folder_id = ? AND id = ?',
    ),
    count: db.prepare<[string, string, number | null, number | null], { downloads: number }>(
      `UPDATE files SET downloads = downloads + 1
       WHERE folder_id = ? AND id = ? AND (? IS NULL OR downloads < ?) RETURNING downloads`,
    ),
    forgetDownloads: db.prepare<[string, number]>('DELETE FROM downloads WHERE file_id = ? AND expires_at <= ?'),
    insertDownload: db.prepare<[string, string, number, number]>(
      'INSERT INTO downloads (id, file_id, budget, expires_at) VALUES (?, ?, ?, ?)',
    ),
    spendDownload: db.prepare<{ id: string; fileId: string; bytes: number; now: number }>(
      `UPDATE downloads SET served = served + @bytes
       WHERE id = @id AND file_id = @fileId AND expires_at > @now AND served + @bytes <= budget`,
    ),
    insertActivity: db.prepare(`INSERT INTO activity (folder_id, ${ACTIVITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    // Keeps the newest ACTIVITY_KEPT lines: one index range on (folder_id, id).
    pruneActivity: db.prepare<[string, string, number]>(
      `DELETE FROM activity WHERE folder_id = ? AND id <= (
         SELECT id FROM activity WHERE folder_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ),
  };
  const addActivity = (folderId: string, a: ActivityRecord): void => {
    s.insertActivity.run(folderId, ...activityValues(a));
    s.pruneActivity.run(folderId, folderId, ACTIVITY_KEPT);
  };
  return {
    updateFolder(folderId: string, change: SettingsChange, now: number): UpdateFolderResult {
      const row = s.folder.get(folderId);
      if (!row) return 'absent';
      const folder = toFolder(row);
      if (change.password !== undefined) {
        if (folder.settings.password !== null || s.completeFiles.get(folderId)!.n > 0) refuse('password-locked');
        s.setPassword.run(change.password!, folderId);
      }
      if (change.expiresAt !== undefined && change.expiresAt !== null) {
        const expiresAt = change.expiresAt;
        s.setFileExpiries.run(expiresAt, folderId, now);
        s.setExpiry.run(expiresAt, deleteAfterForChosenExpiry(folder, expiresAt), folderId);
      }
      if (change.maxDownloads !== undefined) s.setMaxDownloads.run(change.maxDownloads, folderId);
      if (change.note !== undefined) s.setNote.run(change.note, folderId);
      return toFolder(s.folder.get(folderId)!);
    },
    updateFile(folderId: string, fileId: string, maxDownloads: number | null): FileRecord | null {
      if (!s.file.get(folderId, fileId)) return null;
      s.setFileLimit.run(maxDownloads, folderId, fileId);
      return toFile(s.file.get(folderId, fileId)!);
    },
    countDownload(folderId: string, fileId: string, options: CountDownloadOptions): CountDownloadResult {
      const file = s.file.get(folderId, fileId);
      if (!file) return 'absent';
      let downloads = Number(file.downloads);
      if (options.count) {
        const counted = s.count.get(folderId, fileId, options.limit, options.limit);
        if (!counted) refuse('limit-reached');
        downloads = counted.downloads;
      }
      if (options.activity) addActivity(folderId, options.activity);
      const download = options.download;
      if (download) {
        s.forgetDownloads.run(fileId, download.now);
        s.insertDownload.run(download.id, fileId, download.budget, download.expiresAt);
      }
      append(options.outbox ?? []);
      return { downloads };
    },
    spendDownload(fileId: string, id: string, bytes: number, now: number): boolean {
      return s.spendDownload.run({ id, fileId, bytes, now }).changes === 1;
    },
    addActivity(folderId: string, activity: ActivityRecord): void {
      // An activity line of a folder deleted meanwhile is dropped, not an error.
      if (s.folder.get(folderId)) addActivity(folderId, activity);
    },
  };
}
