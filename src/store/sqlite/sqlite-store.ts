import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Mode } from '../../domain/modes.js';
import type { FileRecord, Flow, FolderRecord, MetadataStore } from '../metadata-store.js';
import { MIGRATIONS } from './migrations.js';

/**
 * The embedded metadata store: one SQLite file in WAL mode. better-sqlite3 is synchronous and each
 * statement takes microseconds, so the async port is satisfied without a worker thread.
 *
 * Durability: `synchronous = FULL`, so a write is on disk (fsynced) before its promise resolves,
 * and "nothing stored is lost" holds through a power cut, not only a process crash. An fsync costs
 * milliseconds, so writes use group commit: every write issued in the same event-loop turn joins
 * one transaction (each in its own savepoint, so one failing write does not undo the others) and
 * they all share its single fsync. Under load, batches grow and throughput with them.
 */
interface FolderRow {
  id: string;
  mode: string;
  title: string;
  flow: string;
  created_at: number;
  ske: string | null;
  upload_auth_hash: string | null;
  owner_token_hash: string | null;
  owner_public_key: string | null;
  delete_after: number;
}

interface FileRow {
  id: string;
  folder_id: string;
  position: number;
  filename: string;
  mimetype: string | null;
  filesize: number;
  chunk_size: number;
  chunks: number;
  created_at: number;
  completed_at: number | null;
  expires_at: number;
  uploader_tag: string | null;
  sealed_key: string | null;
}

const toFolder = (r: FolderRow): FolderRecord => ({
  id: r.id,
  mode: r.mode as Mode,
  title: r.title,
  flow: r.flow as Flow,
  createdAt: r.created_at,
  ske: r.ske,
  uploadAuthHash: r.upload_auth_hash,
  ownerTokenHash: r.owner_token_hash,
  ownerPublicKey: r.owner_public_key,
  deleteAfter: r.delete_after,
});

const toFile = (r: FileRow): FileRecord => ({
  id: r.id,
  folderId: r.folder_id,
  position: r.position,
  filename: r.filename,
  mimetype: r.mimetype,
  filesize: r.filesize,
  chunkSize: r.chunk_size,
  chunks: r.chunks,
  createdAt: r.created_at,
  completedAt: r.completed_at,
  expiresAt: r.expires_at,
  uploaderTag: r.uploader_tag,
  sealedKey: r.sealed_key,
});

export class SqliteMetadataStore implements MetadataStore {
  private readonly db: Database.Database;
  private readonly stmts;
  private queue: Array<{ write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }> = [];

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.migrate();
    const db = this.db;
    this.stmts = {
      insertFolder: db.prepare(
        `INSERT INTO folders (id, mode, title, flow, created_at, ske, upload_auth_hash, owner_token_hash, owner_public_key, delete_after)
         VALUES (@id, @mode, @title, @flow, @createdAt, @ske, @uploadAuthHash, @ownerTokenHash, @ownerPublicKey, @deleteAfter)`,
      ),
      insertFile: db.prepare(
        `INSERT INTO files (id, folder_id, position, filename, mimetype, filesize, chunk_size, chunks, created_at, completed_at, expires_at, uploader_tag, sealed_key)
         VALUES (@id, @folderId, @position, @filename, @mimetype, @filesize, @chunkSize, @chunks, @createdAt, @completedAt, @expiresAt, @uploaderTag, @sealedKey)`,
      ),
      getFolder: db.prepare<[string], FolderRow>('SELECT * FROM folders WHERE id = ? AND deleting_since IS NULL'),
      getFile: db.prepare<[string, string], FileRow>(
        'SELECT f.* FROM files f JOIN folders d ON d.id = f.folder_id WHERE f.folder_id = ? AND f.id = ? AND d.deleting_since IS NULL',
      ),
      listFiles: db.prepare<[string], FileRow>(
        'SELECT f.* FROM files f JOIN folders d ON d.id = f.folder_id WHERE f.folder_id = ? AND d.deleting_since IS NULL ORDER BY f.position',
      ),
      nextPosition: db.prepare<[string], { next: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS next FROM files WHERE folder_id = ?'),
      setDeleteAfter: db.prepare<[number, string]>('UPDATE folders SET delete_after = ? WHERE id = ?'),
      claimOwner: db.prepare<[string, string | null, string | null, string]>(
        'UPDATE folders SET owner_token_hash = ?, owner_public_key = ?, ske = COALESCE(ske, ?) WHERE id = ? AND owner_token_hash IS NULL AND deleting_since IS NULL',
      ),
      markComplete: db.prepare<[number, number, string, string]>(
        'UPDATE files SET completed_at = ?, expires_at = ? WHERE folder_id = ? AND id = ? AND completed_at IS NULL',
      ),
      foldersDue: db.prepare<[number, number], { id: string }>('SELECT id FROM folders WHERE delete_after <= ? ORDER BY delete_after LIMIT ?'),
      expiredFiles: db.prepare<[number, number, number], { folder_id: string; id: string }>(
        `SELECT f.folder_id, f.id FROM files f JOIN folders d ON d.id = f.folder_id
         WHERE f.expires_at <= ? AND d.delete_after > ? ORDER BY f.expires_at LIMIT ?`,
      ),
      beginDeletion: db.prepare<[number, string, number, number]>(
        'UPDATE folders SET deleting_since = ? WHERE id = ? AND delete_after <= ? AND (deleting_since IS NULL OR deleting_since <= ?)',
      ),
      removeFolder: db.prepare<[string]>('DELETE FROM folders WHERE id = ?'),
      deleteFile: db.prepare<[string, string]>('DELETE FROM files WHERE folder_id = ? AND id = ?'),
    };
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    const applied = new Set(this.db.prepare<[], { version: number }>('SELECT version FROM schema_migrations').all().map((r) => r.version));
    for (const [index, sql] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (applied.has(version)) continue;
      this.db.transaction(() => {
        this.db.exec(sql);
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
      })();
    }
  }

  /** Queues a write for the next group commit; resolves with its result once it is durable. */
  private commit<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    if (!this.db.open) {
      for (const item of batch) item.reject(new Error('metadata store is closed'));
      return;
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.db.transaction(() => {
        for (const item of batch) {
          try {
            // A nested transaction is a savepoint: a failing write rolls back alone.
            outcomes.push({ ok: true, value: this.db.transaction(item.write)() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      })();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  async createFolder(folder: FolderRecord, files: readonly FileRecord[]): Promise<void> {
    await this.commit(() => {
      this.stmts.insertFolder.run(folder);
      for (const file of files) this.stmts.insertFile.run(file);
    });
  }

  async getFolder(folderId: string): Promise<FolderRecord | null> {
    const row = this.stmts.getFolder.get(folderId);
    return row ? toFolder(row) : null;
  }

  async getFile(folderId: string, fileId: string): Promise<FileRecord | null> {
    const row = this.stmts.getFile.get(folderId, fileId);
    return row ? toFile(row) : null;
  }

  async listFiles(folderId: string): Promise<FileRecord[]> {
    return this.stmts.listFiles.all(folderId).map(toFile);
  }

  async addFiles(folderId: string, files: readonly Omit<FileRecord, 'position'>[], deleteAfter: number): Promise<boolean> {
    return this.commit(() => {
      if (!this.stmts.getFolder.get(folderId)) return false; // absent or being deleted
      let position = this.stmts.nextPosition.get(folderId)!.next;
      for (const file of files) this.stmts.insertFile.run({ ...file, position: position++ });
      this.stmts.setDeleteAfter.run(deleteAfter, folderId);
      return true;
    });
  }

  async claimOwner(folderId: string, ownerTokenHash: string, ownerPublicKey: string | null, ske: string | null): Promise<boolean> {
    return this.commit(() => this.stmts.claimOwner.run(ownerTokenHash, ownerPublicKey, ske, folderId).changes === 1);
  }

  async markComplete(folderId: string, fileId: string, completedAt: number, expiresAt: number, deleteAfter: number): Promise<boolean> {
    return this.commit(() => {
      const done = this.stmts.markComplete.run(completedAt, expiresAt, folderId, fileId).changes === 1;
      if (done) this.stmts.setDeleteAfter.run(deleteAfter, folderId);
      return done;
    });
  }

  async foldersDue(now: number, limit: number): Promise<string[]> {
    return this.stmts.foldersDue.all(now, limit).map((r) => r.id);
  }

  async expiredFiles(now: number, limit: number): Promise<Array<{ folderId: string; fileId: string }>> {
    return this.stmts.expiredFiles.all(now, now, limit).map((r) => ({ folderId: r.folder_id, fileId: r.id }));
  }

  async beginFolderDeletion(folderId: string, now: number, leaseMs: number): Promise<boolean> {
    return this.commit(() => this.stmts.beginDeletion.run(now, folderId, now, now - leaseMs).changes === 1);
  }

  async finishFolderDeletion(folderId: string): Promise<void> {
    // ON DELETE CASCADE removes the folder's files in the same statement.
    await this.commit(() => this.stmts.removeFolder.run(folderId));
  }

  async deleteFile(folderId: string, fileId: string): Promise<boolean> {
    return this.commit(() => this.stmts.deleteFile.run(folderId, fileId).changes === 1);
  }

  async close(): Promise<void> {
    // Writes already queued are committed first: a graceful stop loses nothing.
    if (this.queue.length > 0) this.flush();
    if (this.db.open) this.db.close();
  }
}
