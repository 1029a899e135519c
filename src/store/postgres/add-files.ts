import type pg from 'pg';
import { deleteAfterWith } from '../../domain/lifecycle.js';
import { folderLimitRefusal, NO_QUOTA, overFolderQuota } from '../../domain/limits.js';
import { effectiveFileExpiry } from '../../domain/owner-settings.js';
import type { AddFilesOptions, AddFilesResult, NewFile } from '../metadata-store.js';
import { fullFile } from '../sql/rows.js';
import { appendOutbox } from './ops-store.js';
import { fileParams, INSERT_FILE } from './sql.js';
import { sumBytes, takeAccount, takeTotal } from './storage-counts.js';

/** PostgresMetadataStore.addFiles inside its transaction (see MetadataStore.addFiles). */
export async function appendFiles(
  client: pg.PoolClient,
  folderId: string,
  files: readonly Omit<NewFile, 'position'>[],
  options: AddFilesOptions,
): Promise<AddFilesResult> {
  // Locking the folder row serialises concurrent appends (positions stay dense and unique, the
  // counts and limits exact) and makes a concurrent beginFolderDeletion wait, then see the new
  // deleteAfter. Every refusal is decided before anything is written; a throw rolls back all.
  const { rows: found } = await client.query<{
    delete_after: string;
    file_count: number;
    chunk_count: string;
    byte_count: string;
    owner_token_hash: string | null;
    expires_at: string | null;
    account_id: string | null;
  }>(
    'SELECT delete_after, file_count, chunk_count, byte_count, owner_token_hash, expires_at, account_id FROM folders WHERE id = $1 AND deleting_since IS NULL FOR UPDATE',
    [folderId],
  );
  const folder = found[0];
  if (!folder) return 'absent';
  const held = { fileCount: folder.file_count, chunkCount: Number(folder.chunk_count) };
  const chunks = files.reduce((sum, f) => sum + f.chunks, 0);
  const refusal = folderLimitRefusal(held, { files: files.length, chunks }, options.limits);
  if (refusal) return refusal;
  const quota = options.quota ?? NO_QUOTA;
  const bytes = sumBytes(files);
  if (overFolderQuota(Number(folder.byte_count), bytes, quota)) return 'folder-quota';
  const claim = options.claim;
  if (claim && folder.owner_token_hash !== null) return 'claim-lost';
  if (!(await takeTotal(client, bytes, quota))) return 'instance-quota';
  // Throws AccountQuotaRefused, which rolls the instance total back (the caller answers 'account-quota').
  await takeAccount(client, folder.account_id, bytes, quota);
  if (claim) {
    await client.query(
      'UPDATE folders SET owner_token_hash = $1, owner_public_key = $2, ske = COALESCE(ske, $3) WHERE id = $4',
      [claim.ownerTokenHash, claim.ownerPublicKey, claim.ske, folderId],
    );
  }
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
  await client.query(
    'UPDATE folders SET delete_after = $1, file_count = $2, chunk_count = $3, byte_count = byte_count + $4 WHERE id = $5',
    [deleteAfter, held.fileCount + files.length, held.chunkCount + chunks, bytes, folderId],
  );
  await appendOutbox(client, options.outbox ?? []);
  return 'added';
}
