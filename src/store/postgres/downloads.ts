import type pg from 'pg';
import type { NewDownload } from '../download-store.js';

/** The downloads tickets are bound to, on PostgreSQL (migration 6 of schema.ts). */
export async function insertDownload(client: pg.PoolClient, fileId: string, download: NewDownload): Promise<void> {
  await client.query('DELETE FROM downloads WHERE file_id = $1 AND expires_at <= $2', [fileId, download.now]);
  await client.query('INSERT INTO downloads (id, file_id, budget, expires_at) VALUES ($1, $2, $3, $4)', [
    download.id,
    fileId,
    download.budget,
    download.expiresAt,
  ]);
}

/**
 * One conditional UPDATE: its row lock orders racing fetches with the same ticket (on any node),
 * and each re-checks what is left after the wait.
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
