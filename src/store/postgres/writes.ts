import type pg from 'pg';
import { deleteAfterWith } from '../../domain/lifecycle.js';
import { folderLimitRefusal, NO_QUOTA } from '../../domain/limits.js';
import { effectiveFileExpiry } from '../../domain/owner-settings.js';
import type {
  AddFilesOptions,
  AddFilesResult,
  CreateFolderOptions,
  CreateFolderResult,
  NewFile,
  NewFolder,
  Outbox,
} from '../folder-store.js';
import { refuse } from '../sql/refusal.js';
import { fullFile, fullFolder, sumBytes, sumChunks } from '../sql/rows.js';
import { appendAuditEntry } from './audit-store.js';
import { appendOutbox } from './ops-store.js';
import { fileParams, folderParams, INSERT_FILE, INSERT_FOLDER, SET_COUNTS } from './sql.js';
import { charge } from './storage-counts.js';

/**
 * The PostgreSQL store's folder writes of many statements, each run inside the transaction its
 * caller opened (postgres-store.ts, transaction.ts), step for step as the SQLite store's
 * (../sqlite/writes.ts): a refusal is thrown (../sql/refusal.ts) and rolls back every step before it.
 */

/** MetadataStore.createFolder with files or outbox rows. */
export async function createFolder(
  client: pg.PoolClient,
  folder: NewFolder,
  files: readonly NewFile[],
  options: CreateFolderOptions,
): Promise<CreateFolderResult> {
  const full = fullFolder(folder);
  await client.query(INSERT_FOLDER, folderParams(full));
  if (files.length > 0) {
    const bytes = sumBytes(files);
    await charge(client, { byteCount: 0, accountId: full.accountId }, bytes, options.quota ?? NO_QUOTA);
    for (const file of files) await client.query(INSERT_FILE, fileParams(fullFile(file)));
    await client.query(SET_COUNTS, [files.length, sumChunks(files), bytes, folder.deleteAfter, folder.id]);
  }
  await appendOutbox(client, options.outbox ?? []);
  if (options.audit) await appendAuditEntry(client, options.audit);
  return 'created';
}

/** MetadataStore.addFiles. */
export async function addFiles(
  client: pg.PoolClient,
  folderId: string,
  files: readonly Omit<NewFile, 'position'>[],
  options: AddFilesOptions,
): Promise<AddFilesResult> {
  // Locking the folder row serialises concurrent appends (positions stay dense and unique, the
  // counts and limits exact) and makes a concurrent beginFolderDeletion wait, then see the new
  // deleteAfter.
  const { rows: found } = await client.query<{
    delete_after: string;
    file_count: number;
    chunk_count: string;
    byte_count: string;
    expires_at: string | null;
    account_id: string | null;
  }>(
    'SELECT delete_after, file_count, chunk_count, byte_count, expires_at, account_id FROM folders WHERE id = $1 AND deleting_since IS NULL FOR UPDATE',
    [folderId],
  );
  const folder = found[0];
  if (!folder) return 'absent'; // absent or being deleted
  const claim = options.claim;
  if (claim) {
    const claimed = await client.query(
      'UPDATE folders SET owner_token_hash = $1, owner_public_key = $2, ske = COALESCE(ske, $3) WHERE id = $4 AND owner_token_hash IS NULL',
      [claim.ownerTokenHash, claim.ownerPublicKey, claim.ske, folderId],
    );
    if (claimed.rowCount !== 1) refuse('claim-lost');
  }
  const held = { fileCount: folder.file_count, chunkCount: Number(folder.chunk_count) };
  const chunks = sumChunks(files);
  const limit = folderLimitRefusal(held, { files: files.length, chunks }, options.limits);
  if (limit) refuse(limit);
  const bytes = sumBytes(files);
  const byteCount = Number(folder.byte_count);
  await charge(client, { byteCount, accountId: folder.account_id }, bytes, options.quota ?? NO_QUOTA);
  const { rows } = await client.query<{ next: number }>(
    'SELECT COALESCE(MAX(position) + 1, 0)::int AS next FROM files WHERE folder_id = $1',
    [folderId],
  );
  let position = rows[0]!.next;
  const chosen = folder.expires_at === null ? null : Number(folder.expires_at);
  const expiries = files.map((f) => effectiveFileExpiry(chosen, f.expiresAt));
  for (const [i, file] of files.entries())
    await client.query(INSERT_FILE, fileParams(fullFile({ ...file, position: position++, expiresAt: expiries[i]! })));
  const deleteAfter = deleteAfterWith(
    { deleteAfter: Number(folder.delete_after), fileCount: folder.file_count },
    expiries,
  );
  await client.query(SET_COUNTS, [
    held.fileCount + files.length,
    held.chunkCount + chunks,
    byteCount + bytes,
    deleteAfter,
    folderId,
  ]);
  await appendOutbox(client, options.outbox ?? []);
  return 'added';
}

/** MetadataStore.markComplete. */
export async function markComplete(
  client: pg.PoolClient,
  folderId: string,
  fileId: string,
  completedAt: number,
  ownExpiry: number,
  outbox: Outbox = [],
): Promise<boolean> {
  // The folder row first, locked: it orders concurrent completions, appends and expiry changes
  // of the same folder, and its chosen expiry (if any) is the file's.
  const { rows } = await client.query<{ delete_after: string; file_count: number; expires_at: string | null }>(
    'SELECT delete_after, file_count, expires_at FROM folders WHERE id = $1 FOR UPDATE',
    [folderId],
  );
  const folder = rows[0];
  const expiresAt = effectiveFileExpiry(
    folder?.expires_at === null || folder === undefined ? null : Number(folder.expires_at),
    ownExpiry,
  );
  const { rowCount } = await client.query(
    'UPDATE files SET completed_at = $1, expires_at = $2 WHERE folder_id = $3 AND id = $4 AND completed_at IS NULL',
    [completedAt, expiresAt, folderId, fileId],
  );
  if (rowCount !== 1) return false;
  if (folder) {
    const state = { deleteAfter: Number(folder.delete_after), fileCount: folder.file_count };
    await client.query('UPDATE folders SET delete_after = $1 WHERE id = $2', [
      deleteAfterWith(state, [expiresAt]),
      folderId,
    ]);
  }
  await appendOutbox(client, outbox);
  return true;
}
