import type pg from 'pg';
import { ACTIVITY_KEPT } from '../../domain/limits.js';
import { deleteAfterForChosenExpiry } from '../../domain/owner-settings.js';
import type { CountDownloadOptions, CountDownloadResult, NewDownload } from '../download-store.js';
import type { FileRecord } from '../folder-store.js';
import type { ActivityRecord, SettingsChange, UpdateFolderResult } from '../owner-store.js';
import { ACTIVITY_COLUMNS, activityValues } from '../sql/activity.js';
import { refuse } from '../sql/refusal.js';
import { type FileRow, type FolderRow, toFile, toFolder } from '../sql/rows.js';
import { appendOutbox } from './ops-store.js';
import { FILE_COLUMNS, FOLDER_COLUMNS } from './sql.js';

/**
 * The PostgreSQL writes of the owner's controls and of downloads, step for step as the SQLite
 * store's (../sqlite/owner-writes.ts). Those given a client run inside the transaction their
 * caller opened (transaction.ts), where a refusal rolls back; the others are one statement each.
 */

/** MetadataStore.updateFolder. */
export async function updateFolder(
  client: pg.PoolClient,
  folderId: string,
  change: SettingsChange,
  now: number,
): Promise<UpdateFolderResult> {
  const read = async () =>
    (
      await client.query<FolderRow>(
        `SELECT ${FOLDER_COLUMNS} FROM folders WHERE id = $1 AND deleting_since IS NULL FOR UPDATE`,
        [folderId],
      )
    ).rows[0];
  const row = await read();
  if (!row) return 'absent';
  const folder = toFolder(row);
  if (change.password !== undefined) {
    const { rows } = await client.query<{ complete: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM files WHERE folder_id = $1 AND completed_at IS NOT NULL) AS complete',
      [folderId],
    );
    if (folder.settings.password !== null || rows[0]!.complete) refuse('password-locked');
    await client.query('UPDATE folders SET password = $1 WHERE id = $2', [change.password, folderId]);
  }
  if (change.expiresAt !== undefined && change.expiresAt !== null) {
    await client.query('UPDATE files SET expires_at = $1 WHERE folder_id = $2 AND expires_at > $3', [
      change.expiresAt,
      folderId,
      now,
    ]);
    await client.query('UPDATE folders SET expires_at = $1, delete_after = $2 WHERE id = $3', [
      change.expiresAt,
      deleteAfterForChosenExpiry(folder, change.expiresAt),
      folderId,
    ]);
  }
  if (change.maxDownloads !== undefined)
    await client.query('UPDATE folders SET max_downloads = $1 WHERE id = $2', [change.maxDownloads, folderId]);
  if (change.note !== undefined)
    await client.query('UPDATE folders SET note = $1 WHERE id = $2', [change.note, folderId]);
  return toFolder((await read())!);
}

/** MetadataStore.updateFile, one statement. */
export async function updateFile(
  pool: pg.Pool,
  folderId: string,
  fileId: string,
  maxDownloads: number | null,
): Promise<FileRecord | null> {
  const { rows } = await pool.query<FileRow>(
    `UPDATE files f SET max_downloads = $3 FROM folders d
     WHERE d.id = f.folder_id AND f.folder_id = $1 AND f.id = $2 AND d.deleting_since IS NULL
     RETURNING ${FILE_COLUMNS}`,
    [folderId, fileId, maxDownloads],
  );
  return rows[0] ? toFile(rows[0]) : null;
}

/** MetadataStore.countDownload. */
export async function countDownload(
  client: pg.PoolClient,
  folderId: string,
  fileId: string,
  options: CountDownloadOptions,
): Promise<CountDownloadResult> {
  const { rows } = await client.query<{ downloads: number }>(
    `SELECT f.downloads FROM files f JOIN folders d ON d.id = f.folder_id
     WHERE f.folder_id = $1 AND f.id = $2 AND d.deleting_since IS NULL`,
    [folderId, fileId],
  );
  if (!rows[0]) return 'absent';
  let downloads = rows[0].downloads;
  if (options.count) {
    // The row lock of the UPDATE orders racing counts; each re-checks the limit after the wait.
    const counted = await client.query<{ downloads: number }>(
      `UPDATE files SET downloads = downloads + 1
       WHERE folder_id = $1 AND id = $2 AND ($3::int IS NULL OR downloads < $3::int) RETURNING downloads`,
      [folderId, fileId, options.limit],
    );
    if (!counted.rows[0]) refuse('limit-reached');
    downloads = counted.rows[0].downloads;
  }
  if (options.activity) await insertActivity(client, folderId, options.activity);
  if (options.download) await insertDownload(client, fileId, options.download);
  await appendOutbox(client, options.outbox ?? []);
  return { downloads };
}

/** The download a ticket is bound to; the file's downloads whose tickets expired go. */
async function insertDownload(client: pg.PoolClient, fileId: string, download: NewDownload): Promise<void> {
  await client.query('DELETE FROM downloads WHERE file_id = $1 AND expires_at <= $2', [fileId, download.now]);
  await client.query('INSERT INTO downloads (id, file_id, budget, expires_at) VALUES ($1, $2, $3, $4)', [
    download.id,
    fileId,
    download.budget,
    download.expiresAt,
  ]);
}

/**
 * MetadataStore.spendDownload, one conditional UPDATE: its row lock orders racing fetches with the
 * same ticket (on any node), and each re-checks what is left after the wait.
 */
export async function spendDownload(
  pool: pg.Pool,
  fileId: string,
  downloadId: string,
  bytes: number,
  now: number,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE downloads SET served = served + $3
     WHERE id = $1 AND file_id = $2 AND expires_at > $4 AND served + $3 <= budget`,
    [downloadId, fileId, bytes, now],
  );
  return rowCount === 1;
}

/** MetadataStore.addActivity: a line of a folder deleted meanwhile is dropped, not an error. */
export async function addActivity(client: pg.PoolClient, folderId: string, activity: ActivityRecord): Promise<void> {
  const { rows } = await client.query('SELECT 1 FROM folders WHERE id = $1 AND deleting_since IS NULL FOR SHARE', [
    folderId,
  ]);
  if (rows.length > 0) await insertActivity(client, folderId, activity);
}

/** Adds an activity line and keeps the folder's newest ACTIVITY_KEPT (one index range on (folder_id, id)). */
async function insertActivity(client: pg.PoolClient, folderId: string, a: ActivityRecord): Promise<void> {
  await client.query(`INSERT INTO activity (folder_id, ${ACTIVITY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    folderId,
    ...activityValues(a),
  ]);
  await client.query(
    `DELETE FROM activity WHERE folder_id = $1 AND id <= (
       SELECT id FROM activity WHERE folder_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`,
    [folderId, ACTIVITY_KEPT],
  );
}
