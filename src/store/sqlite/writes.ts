import type Database from 'better-sqlite3';
import { deleteAfterWith } from '../../domain/lifecycle.js';
import { folderLimitRefusal, NO_QUOTA } from '../../domain/limits.js';
import { effectiveFileExpiry } from '../../domain/owner-settings.js';
import type { NewAuditEntry } from '../audit-store.js';
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
import { prepareOwnerWrites } from './owner-writes.js';
import { prepareStorageCounts } from './storage-counts.js';

/**
 * Every write of the SQLite store, as plain functions over one connection. They run only on the
 * writer thread (writer.ts), inside a group-commit transaction, each in its own savepoint, which a
 * refusal (../sql/refusal.ts) rolls back. Arguments and results cross a thread boundary, so they are plain data. `append` stores outbox rows
 * (ops-writes.ts) and `appendAudit` an audit entry (audit-writes.ts): called inside the write, so
 * the rows share its savepoint and its commit.
 */
export function prepareWrites(
  db: Database.Database,
  append: (outbox: Outbox) => void,
  appendAudit: (entry: NewAuditEntry) => void,
) {
  const s = {
    insertFolder: db.prepare(
      `INSERT INTO folders (id, mode, title, flow, created_at, ske, upload_auth_hash, owner_token_hash, owner_public_key, delete_after,
         expires_at, max_downloads, note, password, created_by, account_id)
       VALUES (@id, @mode, @title, @flow, @createdAt, @ske, @uploadAuthHash, @ownerTokenHash, @ownerPublicKey, @deleteAfter,
         @expiresAt, @maxDownloads, @note, @password, @createdBy, @accountId)`,
    ),
    insertFile: db.prepare(
      `INSERT INTO files (id, folder_id, position, filename, mimetype, filesize, chunk_size, chunks, created_at, completed_at, expires_at, uploader_tag, sealed_key, max_downloads, downloads)
       VALUES (@id, @folderId, @position, @filename, @mimetype, @filesize, @chunkSize, @chunks, @createdAt, @completedAt, @expiresAt, @uploaderTag, @sealedKey, @maxDownloads, @downloads)`,
    ),
    folderState: db.prepare<
      [string],
      {
        delete_after: number;
        file_count: number;
        chunk_count: number;
        byte_count: number;
        expires_at: number | null;
        account_id: string | null;
      }
    >(
      'SELECT delete_after, file_count, chunk_count, byte_count, expires_at, account_id FROM folders WHERE id = ? AND deleting_since IS NULL',
    ),
    setCounts: db.prepare<[number, number, number, number, string]>(
      'UPDATE folders SET file_count = ?, chunk_count = ?, byte_count = ?, delete_after = ? WHERE id = ?',
    ),
    fileCounted: db.prepare<[string, string], { chunks: number; filesize: number; account_id: string | null }>(
      `SELECT f.chunks, f.filesize, d.account_id FROM files f JOIN folders d ON d.id = f.folder_id
       WHERE f.folder_id = ? AND f.id = ?`,
    ),
    removeCounts: db.prepare<[number, number, string]>(
      'UPDATE folders SET file_count = file_count - 1, chunk_count = chunk_count - ?, byte_count = byte_count - ? WHERE id = ?',
    ),
    folderCounted: db.prepare<[string], { byte_count: number; account_id: string | null }>(
      'SELECT byte_count, account_id FROM folders WHERE id = ?',
    ),
    nextPosition: db.prepare<[string], { next: number }>(
      'SELECT COALESCE(MAX(position) + 1, 0) AS next FROM files WHERE folder_id = ?',
    ),
    setDeleteAfter: db.prepare<[number, string]>('UPDATE folders SET delete_after = ? WHERE id = ?'),
    claimOwner: db.prepare<[string, string | null, string | null, string]>(
      'UPDATE folders SET owner_token_hash = ?, owner_public_key = ?, ske = COALESCE(ske, ?) WHERE id = ? AND owner_token_hash IS NULL AND deleting_since IS NULL',
    ),
    markComplete: db.prepare<[number, number, string, string]>(
      'UPDATE files SET completed_at = ?, expires_at = ? WHERE folder_id = ? AND id = ? AND completed_at IS NULL',
    ),
    beginDeletion: db.prepare<[number, string, number, number]>(
      'UPDATE folders SET deleting_since = ? WHERE id = ? AND delete_after <= ? AND (deleting_since IS NULL OR deleting_since <= ?)',
    ),
    beginOwnerDeletion: db.prepare<[number, number, string]>(
      'UPDATE folders SET deleting_since = ?, delete_after = MIN(delete_after, ?) WHERE id = ? AND deleting_since IS NULL',
    ),
    // ON DELETE CASCADE removes the folder's files in the same statement.
    removeFolder: db.prepare<[string]>('DELETE FROM folders WHERE id = ?'),
    deleteFile: db.prepare<[string, string]>('DELETE FROM files WHERE folder_id = ? AND id = ?'),
    setSendingUntil: db.prepare<[number, string, string]>(
      'UPDATE files SET sending_until = ? WHERE folder_id = ? AND id = ? AND completed_at IS NULL',
    ),
  };
  const counts = prepareStorageCounts(db);
  return {
    createFolder(folder: NewFolder, files: readonly NewFile[], options: CreateFolderOptions = {}): CreateFolderResult {
      const full = fullFolder(folder);
      s.insertFolder.run({ ...full, ...full.settings, settings: undefined });
      if (files.length > 0) {
        const bytes = sumBytes(files);
        counts.charge({ byteCount: 0, accountId: full.accountId }, bytes, options.quota ?? NO_QUOTA);
        for (const file of files) s.insertFile.run(fullFile(file));
        s.setCounts.run(files.length, sumChunks(files), bytes, folder.deleteAfter, folder.id);
      }
      append(options.outbox ?? []);
      if (options.audit) appendAudit(options.audit);
      return 'created';
    },
    addFiles(folderId: string, files: readonly Omit<NewFile, 'position'>[], options: AddFilesOptions): AddFilesResult {
      // The one writer thread runs the writes one at a time, so the counts read here are those the
      // insert adds to. A refusal rolls back the write's savepoint (the claim included).
      const folder = s.folderState.get(folderId);
      if (!folder) return 'absent'; // absent or being deleted
      const claim = options.claim;
      if (claim && s.claimOwner.run(claim.ownerTokenHash, claim.ownerPublicKey, claim.ske, folderId).changes !== 1)
        refuse('claim-lost');
      const held = { fileCount: folder.file_count, chunkCount: folder.chunk_count };
      const chunks = sumChunks(files);
      const limit = folderLimitRefusal(held, { files: files.length, chunks }, options.limits);
      if (limit) refuse(limit);
      const bytes = sumBytes(files);
      counts.charge({ byteCount: folder.byte_count, accountId: folder.account_id }, bytes, options.quota ?? NO_QUOTA);
      let position = s.nextPosition.get(folderId)!.next;
      const expiries = files.map((f) => effectiveFileExpiry(folder.expires_at, f.expiresAt));
      for (const [i, file] of files.entries())
        s.insertFile.run(fullFile({ ...file, position: position++, expiresAt: expiries[i]! }));
      const deleteAfter = deleteAfterWith({ deleteAfter: folder.delete_after, fileCount: folder.file_count }, expiries);
      s.setCounts.run(
        held.fileCount + files.length,
        held.chunkCount + chunks,
        folder.byte_count + bytes,
        deleteAfter,
        folderId,
      );
      append(options.outbox ?? []);
      return 'added';
    },
    claimOwner(folderId: string, ownerTokenHash: string, ownerPublicKey: string | null, ske: string | null): boolean {
      return s.claimOwner.run(ownerTokenHash, ownerPublicKey, ske, folderId).changes === 1;
    },
    markComplete(
      folderId: string,
      fileId: string,
      completedAt: number,
      ownExpiry: number,
      outbox: Outbox = [],
    ): boolean {
      const folder = s.folderState.get(folderId);
      const expiresAt = effectiveFileExpiry(folder?.expires_at ?? null, ownExpiry);
      const done = s.markComplete.run(completedAt, expiresAt, folderId, fileId).changes === 1;
      if (done && folder) {
        const state = { deleteAfter: folder.delete_after, fileCount: folder.file_count };
        s.setDeleteAfter.run(deleteAfterWith(state, [expiresAt]), folderId);
      }
      if (done) append(outbox);
      return done;
    },
    setSendingUntil(folderId: string, fileIds: readonly string[], until: number): void {
      for (const fileId of fileIds) s.setSendingUntil.run(until, folderId, fileId);
    },
    beginFolderDeletion(folderId: string, now: number, leaseMs: number): boolean {
      return s.beginDeletion.run(now, folderId, now, now - leaseMs).changes === 1;
    },
    beginOwnerDeletion(folderId: string, now: number): boolean {
      return s.beginOwnerDeletion.run(now, now, folderId).changes === 1;
    },
    finishFolderDeletion(folderId: string, outbox: Outbox = []): void {
      const folder = s.folderCounted.get(folderId);
      if (!folder || s.removeFolder.run(folderId).changes !== 1) return;
      counts.release(folder.account_id, folder.byte_count);
      append(outbox);
    },
    deleteFile(folderId: string, fileId: string, outbox: Outbox = []): boolean {
      const file = s.fileCounted.get(folderId, fileId);
      if (!file || s.deleteFile.run(folderId, fileId).changes !== 1) return false;
      s.removeCounts.run(file.chunks, file.filesize, folderId);
      counts.release(file.account_id, file.filesize);
      append(outbox);
      return true;
    },
    ...prepareOwnerWrites(db, append),
  };
}
