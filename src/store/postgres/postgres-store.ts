import type pg from 'pg';
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
import { auditValues } from '../sql/audit.js';
import {
  type FileInFolderRow,
  type FileRow,
  type FolderRow,
  fileInFolderSql,
  fullFolder,
  toFile,
  toFileInFolder,
  toFolder,
} from '../sql/rows.js';

const FILE_IN_FOLDER = fileInFolderSql((n) => `$${n}`);

import { PostgresAccountStore } from './account-store.js';
import { PostgresAccountUsageStore } from './account-usage.js';
import { PostgresAdminStore } from './admin-store.js';
import { PostgresAuditStore } from './audit-store.js';
import { PostgresMailStore } from './mail-store.js';
import { migratePostgres } from './migrate.js';
import { appendOutbox, PostgresOpsStore } from './ops-store.js';
import { openPool } from './outage.js';
import { addActivity, countDownload, spendDownload, updateFile, updateFolder } from './owner-writes.js';
import { FILE_COLUMNS, FOLDER_COLUMNS, folderParams, INSERT_FOLDER, INSERT_FOLDER_WITH_AUDIT } from './sql.js';
import { DELETE_FILE_SQL, DELETE_FOLDER_SQL } from './storage-counts.js';
import { inTransaction } from './transaction.js';
import { addFiles, createFolder, markComplete } from './writes.js';

/**
 * The scale-out metadata store: PostgreSQL through a pg Pool, shared by any number of API nodes.
 *
 * - Migrations (../sql/schema.ts) run at open, all pending ones in one transaction that first takes a
 *   transaction-scoped advisory lock: nodes starting together queue on the lock, and each later one
 *   finds the work done.
 * - Multi-statement operations (createFolder, addFiles, markComplete, and any write given outbox
 *   rows, which commit with it: see Outbox) run in a transaction (transaction.ts), as in the SQLite
 *   store; a refusal is thrown and rolls the transaction back (../sql/refusal.ts). Single-statement
 *   ones rely on PostgreSQL's row locking: under READ COMMITTED a
 *   conditional UPDATE that waited for a concurrent one re-checks its WHERE clause against the new
 *   row, so claimOwner and beginFolderDeletion have exactly one winner however many callers race.
 * - BIGINT columns arrive from pg as strings; ../sql/rows.ts parses them back to numbers, so the global
 *   pg type parsers are left alone.
 */
const MIGRATION_LOCK_KEY = 0x77666d67; // 'wfmg': one fixed 64-bit advisory lock key for migrations

export interface PostgresStoreOptions {
  /** Pool size per node (default 10). */
  readonly maxConnections?: number;
}

export class PostgresMetadataStore implements MetadataStore {
  private closed = false;
  readonly outbox: PostgresOpsStore;
  readonly notificationSettings: PostgresOpsStore;
  readonly byteCounts: PostgresOpsStore;
  readonly listings: PostgresOpsStore;
  readonly admin: PostgresAdminStore;
  schema: SchemaReport = { store: 'postgresql', applied: [], version: 0 };
  readonly mail: PostgresMailStore;
  readonly audit: PostgresAuditStore;
  readonly usage: PostgresAccountUsageStore;
  readonly accounts: PostgresAccountStore;

  private constructor(private readonly pool: pg.Pool) {
    const ops = new PostgresOpsStore(pool); // one object over the same tables behind the four ops parts
    [this.outbox, this.notificationSettings, this.byteCounts, this.listings] = [ops, ops, ops, ops];
    this.admin = new PostgresAdminStore(pool);
    this.mail = new PostgresMailStore(pool);
    this.audit = new PostgresAuditStore(pool);
    this.usage = new PostgresAccountUsageStore(pool);
    this.accounts = new PostgresAccountStore(pool);
  }

  /** Connects, applies pending migrations and returns the store. Rejects if the database is unreachable. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresMetadataStore> {
    const pool = openPool(url, options.maxConnections ?? 10);
    const store = new PostgresMetadataStore(pool);
    try {
      await store.migrate();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return store;
  }

  private async migrate(): Promise<void> {
    this.schema = await this.transaction((client) => migratePostgres(client, MIGRATION_LOCK_KEY));
  }

  /**
   * A single-statement write and the outbox rows that report it: the statement alone when there are
   * none (one round trip), else both in one transaction, the rows kept only if `tookEffect`.
   */
  private async withOutbox<T>(
    outbox: Outbox | undefined,
    work: (q: pg.Pool | pg.PoolClient) => Promise<T>,
    tookEffect: (result: T) => boolean,
  ): Promise<T> {
    if (!outbox?.length) return work(this.pool);
    return this.transaction(async (client) => {
      const result = await work(client);
      if (tookEffect(result)) await appendOutbox(client, outbox);
      return result;
    });
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  async createFolder(
    folder: NewFolder,
    files: readonly NewFile[],
    options: CreateFolderOptions = {},
  ): Promise<CreateFolderResult> {
    const { outbox = [], audit } = options;
    // The empty-folder flow without outbox rows is one statement, atomic by itself: one round trip.
    if (files.length === 0 && outbox.length === 0) {
      const params = folderParams(fullFolder(folder));
      if (audit) await this.pool.query(INSERT_FOLDER_WITH_AUDIT, [...params, ...auditValues(audit)]);
      else await this.pool.query(INSERT_FOLDER, params);
      return 'created';
    }
    return this.transaction((client) => createFolder(client, folder, files, options));
  }

  async getFolder(folderId: string): Promise<FolderRecord | null> {
    const { rows } = await this.pool.query<FolderRow>(
      `SELECT ${FOLDER_COLUMNS} FROM folders WHERE id = $1 AND deleting_since IS NULL`,
      [folderId],
    );
    return rows[0] ? toFolder(rows[0]) : null;
  }

  async getFile(folderId: string, fileId: string): Promise<FileRecord | null> {
    const { rows } = await this.pool.query<FileRow>(
      `SELECT ${FILE_COLUMNS} FROM files f JOIN folders d ON d.id = f.folder_id
       WHERE f.folder_id = $1 AND f.id = $2 AND d.deleting_since IS NULL`,
      [folderId, fileId],
    );
    return rows[0] ? toFile(rows[0]) : null;
  }

  async getFileInFolder(folderId: string, fileId: string): Promise<FileInFolder | null> {
    const { rows } = await this.pool.query<FileInFolderRow>(FILE_IN_FOLDER, [folderId, fileId]);
    return rows[0] ? toFileInFolder(rows[0]) : null;
  }

  async listFiles(folderId: string, page: FilePage = {}): Promise<FileRecord[]> {
    // One index range scan on (folder_id, position): a page costs the same at any depth.
    const { rows } = await this.pool.query<FileRow>(
      `SELECT ${FILE_COLUMNS} FROM files f JOIN folders d ON d.id = f.folder_id
       WHERE f.folder_id = $1 AND f.position > $2 AND f.expires_at > $3 AND d.deleting_since IS NULL
       ORDER BY f.position LIMIT $4`,
      [folderId, page.after ?? -1, page.liveAt ?? Number.MIN_SAFE_INTEGER, page.limit ?? null],
    );
    return rows.map(toFile);
  }

  async addFiles(
    folderId: string,
    files: readonly Omit<NewFile, 'position'>[],
    options: AddFilesOptions,
  ): Promise<AddFilesResult> {
    return this.transaction((client) => addFiles(client, folderId, files, options));
  }

  async claimOwner(
    folderId: string,
    ownerTokenHash: string,
    ownerPublicKey: string | null,
    ske: string | null,
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE folders SET owner_token_hash = $1, owner_public_key = $2, ske = COALESCE(ske, $3)
       WHERE id = $4 AND owner_token_hash IS NULL AND deleting_since IS NULL`,
      [ownerTokenHash, ownerPublicKey, ske, folderId],
    );
    return rowCount === 1;
  }

  async setSendingUntil(folderId: string, fileIds: readonly string[], until: number): Promise<void> {
    await this.pool.query(
      'UPDATE files SET sending_until = $1 WHERE folder_id = $2 AND id = ANY($3::text[]) AND completed_at IS NULL',
      [until, folderId, [...fileIds]],
    );
  }

  async markComplete(
    folderId: string,
    fileId: string,
    completedAt: number,
    ownExpiry: number,
    outbox?: Outbox,
  ): Promise<boolean> {
    return this.transaction((client) => markComplete(client, folderId, fileId, completedAt, ownExpiry, outbox));
  }

  async foldersDue(now: number, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT id FROM folders WHERE delete_after <= $1 ORDER BY delete_after LIMIT $2',
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  async expiredFiles(now: number, limit: number): Promise<Array<{ folderId: string; fileId: string }>> {
    const { rows } = await this.pool.query<{ folder_id: string; id: string }>(
      `SELECT f.folder_id, f.id FROM files f JOIN folders d ON d.id = f.folder_id
       WHERE f.expires_at <= $1 AND d.delete_after > $1 ORDER BY f.expires_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({ folderId: r.folder_id, fileId: r.id }));
  }

  async beginFolderDeletion(folderId: string, now: number, leaseMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE folders SET deleting_since = $1
       WHERE id = $2 AND delete_after <= $1 AND (deleting_since IS NULL OR deleting_since <= $3)`,
      [now, folderId, now - leaseMs],
    );
    return rowCount === 1;
  }

  async beginOwnerDeletion(folderId: string, now: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE folders SET deleting_since = $1, delete_after = LEAST(delete_after, $1)
       WHERE id = $2 AND deleting_since IS NULL`,
      [now, folderId],
    );
    return rowCount === 1;
  }

  async finishFolderDeletion(folderId: string, outbox?: Outbox): Promise<void> {
    // ON DELETE CASCADE removes the folder's files in the same statement.
    await this.withOutbox(
      outbox,
      (q) => q.query<{ removed: number }>(DELETE_FOLDER_SQL, [folderId]),
      (r) => r.rows[0]!.removed === 1,
    );
  }

  async deleteFile(folderId: string, fileId: string, outbox?: Outbox): Promise<boolean> {
    // One statement: the file goes and the folder's counts follow, or neither.
    return this.withOutbox(outbox, (q) => this.deleteFileRow(q, folderId, fileId), Boolean);
  }

  private async deleteFileRow(q: pg.Pool | pg.PoolClient, folderId: string, fileId: string): Promise<boolean> {
    const { rows } = await q.query<{ removed: number }>(DELETE_FILE_SQL, [folderId, fileId]);
    return rows[0]!.removed === 1;
  }

  updateFolder(folderId: string, change: SettingsChange, now: number): Promise<UpdateFolderResult> {
    return this.transaction((client) => updateFolder(client, folderId, change, now));
  }

  updateFile(folderId: string, fileId: string, maxDownloads: number | null): Promise<FileRecord | null> {
    return updateFile(this.pool, folderId, fileId, maxDownloads);
  }

  countDownload(folderId: string, fileId: string, options: CountDownloadOptions): Promise<CountDownloadResult> {
    return this.transaction((client) => countDownload(client, folderId, fileId, options));
  }

  spendDownload(fileId: string, downloadId: string, bytes: number, now: number): Promise<boolean> {
    return spendDownload(this.pool, fileId, downloadId, bytes, now);
  }

  addActivity(folderId: string, activity: ActivityRecord): Promise<void> {
    return this.transaction((client) => addActivity(client, folderId, activity));
  }

  async listActivity(folderId: string, limit: number): Promise<ActivityRecord[]> {
    const { rows } = await this.pool.query<ActivityRow>(
      `SELECT ${ACTIVITY_COLUMNS} FROM activity WHERE folder_id = $1 ORDER BY id DESC LIMIT $2`,
      [folderId, limit],
    );
    return rows.map(toActivity);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
