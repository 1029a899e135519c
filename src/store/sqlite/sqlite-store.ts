import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import type { CountDownloadOptions, CountDownloadResult } from '../download-store.js';
import type { FolderRecord } from '../folder-record.js';
import type {
  AddFilesOptions,
  AddFilesResult,
  CreateFolderOptions,
  CreateFolderResult,
  FileInFolder,
  FilePage,
  FileRecord,
  NewFile,
  NewFolder,
  Outbox,
} from '../folder-store.js';
import type { MetadataStore } from '../metadata-store.js';
import type { ActivityRecord, SettingsChange, UpdateFolderResult } from '../owner-store.js';
import type { SchemaReport } from '../schema.js';
import { ACTIVITY_COLUMNS, type ActivityRow, toActivity } from '../sql/activity.js';
import {
  type FileInFolderRow,
  type FileRow,
  type FolderRow,
  fileInFolderSql,
  toFile,
  toFileInFolder,
  toFolder,
} from '../sql/rows.js';
import { SqliteAccountStore } from './account-store.js';
import { SqliteAccountUsageStore } from './account-usage.js';
import { SqliteAdminStore } from './admin-store.js';
import { SqliteAuditStore } from './audit-store.js';
import { migrate, openConnection } from './connection.js';
import { SqliteMailStore } from './mail-store.js';
import { SqliteOpsStore } from './ops-store.js';
import { SqliteWriter } from './writer.js';

/**
 * The embedded metadata store: one SQLite file in WAL mode. Reads run on the calling thread (each
 * takes microseconds); writes go to a writer thread that commits durably with group commit
 * (writer.ts), so an fsync never stalls request handling. A write's promise resolves once it is on
 * disk, so a read that follows it sees it.
 */
export class SqliteMetadataStore implements MetadataStore {
  private readonly db: Database.Database;
  private readonly writer: SqliteWriter;
  private readonly reads;
  readonly outbox: SqliteOpsStore;
  readonly notificationSettings: SqliteOpsStore;
  readonly byteCounts: SqliteOpsStore;
  readonly listings: SqliteOpsStore;
  readonly admin: SqliteAdminStore;
  readonly schema: SchemaReport;
  readonly mail: SqliteMailStore;
  readonly audit: SqliteAuditStore;
  readonly usage: SqliteAccountUsageStore;
  readonly accounts: SqliteAccountStore;

  /** `path` is a database file (the writer thread opens it too, so it cannot be `:memory:`). */
  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = openConnection(path);
    this.schema = migrate(this.db);
    this.writer = new SqliteWriter(path);
    const ops = new SqliteOpsStore(this.db, this.writer); // one object over the same tables behind the four ops parts
    [this.outbox, this.notificationSettings, this.byteCounts, this.listings] = [ops, ops, ops, ops];
    this.admin = new SqliteAdminStore(this.db, this.writer);
    this.mail = new SqliteMailStore(this.db, this.writer);
    this.audit = new SqliteAuditStore(this.db, this.writer);
    this.usage = new SqliteAccountUsageStore(this.db, this.writer);
    this.accounts = new SqliteAccountStore(this.db, this.writer);
    const db = this.db;
    this.reads = {
      getFolder: db.prepare<[string], FolderRow>('SELECT * FROM folders WHERE id = ? AND deleting_since IS NULL'),
      getFile: db.prepare<[string, string], FileRow>(
        'SELECT f.* FROM files f JOIN folders d ON d.id = f.folder_id WHERE f.folder_id = ? AND f.id = ? AND d.deleting_since IS NULL',
      ),
      getFileInFolder: db.prepare<[string, string], FileInFolderRow>(fileInFolderSql(() => '?')),
      // One index range scan on (folder_id, position): a page costs the same at any depth.
      listFiles: db.prepare<[string, number, number, number], FileRow>(
        `SELECT f.* FROM files f JOIN folders d ON d.id = f.folder_id
         WHERE f.folder_id = ? AND f.position > ? AND f.expires_at > ? AND d.deleting_since IS NULL
         ORDER BY f.position LIMIT ?`,
      ),
      foldersDue: db.prepare<[number, number], { id: string }>(
        'SELECT id FROM folders WHERE delete_after <= ? ORDER BY delete_after LIMIT ?',
      ),
      activity: db.prepare<[string, number], ActivityRow>(
        `SELECT ${ACTIVITY_COLUMNS} FROM activity WHERE folder_id = ? ORDER BY id DESC LIMIT ?`,
      ),
      expiredFiles: db.prepare<[number, number, number], { folder_id: string; id: string }>(
        `SELECT f.folder_id, f.id FROM files f JOIN folders d ON d.id = f.folder_id
         WHERE f.expires_at <= ? AND d.delete_after > ? ORDER BY f.expires_at LIMIT ?`,
      ),
    };
  }

  createFolder(
    folder: NewFolder,
    files: readonly NewFile[],
    options?: CreateFolderOptions,
  ): Promise<CreateFolderResult> {
    return this.writer.write('createFolder', folder, files, options);
  }

  async getFolder(folderId: string): Promise<FolderRecord | null> {
    const row = this.reads.getFolder.get(folderId);
    return row ? toFolder(row) : null;
  }

  async getFile(folderId: string, fileId: string): Promise<FileRecord | null> {
    const row = this.reads.getFile.get(folderId, fileId);
    return row ? toFile(row) : null;
  }

  async getFileInFolder(folderId: string, fileId: string): Promise<FileInFolder | null> {
    const row = this.reads.getFileInFolder.get(folderId, fileId);
    return row ? toFileInFolder(row) : null;
  }

  async listFiles(folderId: string, page: FilePage = {}): Promise<FileRecord[]> {
    return this.reads.listFiles
      .all(folderId, page.after ?? -1, page.liveAt ?? Number.MIN_SAFE_INTEGER, page.limit ?? -1)
      .map(toFile);
  }

  addFiles(
    folderId: string,
    files: readonly Omit<NewFile, 'position'>[],
    options: AddFilesOptions,
  ): Promise<AddFilesResult> {
    return this.writer.write('addFiles', folderId, files, options);
  }

  claimOwner(
    folderId: string,
    ownerTokenHash: string,
    ownerPublicKey: string | null,
    ske: string | null,
  ): Promise<boolean> {
    return this.writer.write('claimOwner', folderId, ownerTokenHash, ownerPublicKey, ske);
  }

  markComplete(
    folderId: string,
    fileId: string,
    completedAt: number,
    expiresAt: number,
    outbox?: Outbox,
  ): Promise<boolean> {
    return this.writer.write('markComplete', folderId, fileId, completedAt, expiresAt, outbox);
  }

  setSendingUntil(folderId: string, fileIds: readonly string[], until: number): Promise<void> {
    return this.writer.write('setSendingUntil', folderId, fileIds, until);
  }

  async foldersDue(now: number, limit: number): Promise<string[]> {
    return this.reads.foldersDue.all(now, limit).map((r) => r.id);
  }

  async expiredFiles(now: number, limit: number): Promise<Array<{ folderId: string; fileId: string }>> {
    return this.reads.expiredFiles.all(now, now, limit).map((r) => ({ folderId: r.folder_id, fileId: r.id }));
  }

  beginFolderDeletion(folderId: string, now: number, leaseMs: number): Promise<boolean> {
    return this.writer.write('beginFolderDeletion', folderId, now, leaseMs);
  }

  finishFolderDeletion(folderId: string, outbox?: Outbox): Promise<void> {
    return this.writer.write('finishFolderDeletion', folderId, outbox);
  }

  deleteFile(folderId: string, fileId: string, outbox?: Outbox): Promise<boolean> {
    return this.writer.write('deleteFile', folderId, fileId, outbox);
  }

  updateFolder(folderId: string, change: SettingsChange, now: number): Promise<UpdateFolderResult> {
    return this.writer.write('updateFolder', folderId, change, now);
  }

  updateFile(folderId: string, fileId: string, maxDownloads: number | null): Promise<FileRecord | null> {
    return this.writer.write('updateFile', folderId, fileId, maxDownloads);
  }

  countDownload(folderId: string, fileId: string, options: CountDownloadOptions): Promise<CountDownloadResult> {
    return this.writer.write('countDownload', folderId, fileId, options);
  }

  spendDownload(fileId: string, downloadId: string, bytes: number, now: number): Promise<boolean> {
    return this.writer.write('spendDownload', fileId, downloadId, bytes, now);
  }

  beginOwnerDeletion(folderId: string, now: number): Promise<boolean> {
    return this.writer.write('beginOwnerDeletion', folderId, now);
  }

  addActivity(folderId: string, activity: ActivityRecord): Promise<void> {
    return this.writer.write('addActivity', folderId, activity);
  }

  async listActivity(folderId: string, limit: number): Promise<ActivityRecord[]> {
    return this.reads.activity.all(folderId, limit).map(toActivity);
  }

  async close(): Promise<void> {
    // The writer commits what is queued before it stops: a graceful stop loses nothing.
    await this.writer.close();
    if (this.db.open) this.db.close();
  }
}
