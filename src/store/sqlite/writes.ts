import type Database from 'better-sqlite3';
import type { FileRecord, FolderRecord } from '../metadata-store.js';

/**
 * Every write of the SQLite store, as plain functions over one connection. They run only on the
 * writer thread (writer.ts), inside a group-commit transaction, each in its own savepoint.
 * Arguments and results cross a thread boundary, so they are plain data.
 */
export function prepareWrites(db: Database.Database) {
  const s = {
    insertFolder: db.prepare(
      `INSERT INTO folders (id, mode, title, flow, created_at, ske, upload_auth_hash, owner_token_hash, owner_public_key, delete_after)
       VALUES (@id, @mode, @title, @flow, @createdAt, @ske, @uploadAuthHash, @ownerTokenHash, @ownerPublicKey, @deleteAfter)`,
    ),
    insertFile: db.prepare(
      `INSERT INTO files (id, folder_id, position, filename, mimetype, filesize, chunk_size, chunks, created_at, completed_at, expires_at, uploader_tag, sealed_key)
       VALUES (@id, @folderId, @position, @filename, @mimetype, @filesize, @chunkSize, @chunks, @createdAt, @completedAt, @expiresAt, @uploaderTag, @sealedKey)`,
    ),
    folderLive: db.prepare<[string], { id: string }>('SELECT id FROM folders WHERE id = ? AND deleting_since IS NULL'),
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
    // ON DELETE CASCADE removes the folder's files in the same statement.
    removeFolder: db.prepare<[string]>('DELETE FROM folders WHERE id = ?'),
    deleteFile: db.prepare<[string, string]>('DELETE FROM files WHERE folder_id = ? AND id = ?'),
  };
  return {
    createFolder(folder: FolderRecord, files: readonly FileRecord[]): void {
      s.insertFolder.run(folder);
      for (const file of files) s.insertFile.run(file);
    },
    addFiles(folderId: string, files: readonly Omit<FileRecord, 'position'>[], deleteAfter: number): boolean {
      if (!s.folderLive.get(folderId)) return false; // absent or being deleted
      let position = s.nextPosition.get(folderId)!.next;
      for (const file of files) s.insertFile.run({ ...file, position: position++ });
      s.setDeleteAfter.run(deleteAfter, folderId);
      return true;
    },
    claimOwner(folderId: string, ownerTokenHash: string, ownerPublicKey: string | null, ske: string | null): boolean {
      return s.claimOwner.run(ownerTokenHash, ownerPublicKey, ske, folderId).changes === 1;
    },
    markComplete(
      folderId: string,
      fileId: string,
      completedAt: number,
      expiresAt: number,
      deleteAfter: number,
    ): boolean {
      const done = s.markComplete.run(completedAt, expiresAt, folderId, fileId).changes === 1;
      if (done) s.setDeleteAfter.run(deleteAfter, folderId);
      return done;
    },
    beginFolderDeletion(folderId: string, now: number, leaseMs: number): boolean {
      return s.beginDeletion.run(now, folderId, now, now - leaseMs).changes === 1;
    },
    finishFolderDeletion(folderId: string): void {
      s.removeFolder.run(folderId);
    },
    deleteFile(folderId: string, fileId: string): boolean {
      return s.deleteFile.run(folderId, fileId).changes === 1;
    },
  };
}

export type Writes = ReturnType<typeof prepareWrites>;
export type WriteName = keyof Writes;
