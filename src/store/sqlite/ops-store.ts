import type Database from 'better-sqlite3';
import type { AccountFolderPage, AccountFolderSummary } from '../account-folders.js';
import type {
  FolderNotifications,
  FolderSummary,
  NewOutboxEntry,
  OpsStore,
  OutboxCounts,
  OutboxEntry,
  StoreUsage,
} from '../ops-store.js';
import {
  type AccountFolderRow,
  accountFolderParams,
  accountFoldersSql,
  toAccountFolder,
} from '../sql/account-folders.js';
import { type FolderSummaryRow, type NotificationsRow, summarySql, toNotifications, toSummary } from '../sql/ops.js';
import type { SqliteWriter } from './writer.js';

const named = (n: number) => (n === 1 ? '@limit' : '@before');

/** The ops part of the SQLite store: reads on the calling thread, writes through the writer thread. */
export class SqliteOpsStore implements OpsStore {
  private readonly reads;
  /** "My folders" pages by sort and whether they start after a cursor. */
  private readonly accountPages;

  constructor(
    db: Database.Database,
    private readonly writer: SqliteWriter,
  ) {
    const numbered = (n: number) => `@p${n}`;
    const page = (sort: 'newest' | 'expiry', cursor: boolean) =>
      db.prepare<[Record<string, string | number>], AccountFolderRow>(accountFoldersSql(numbered, sort, cursor));
    this.accountPages = {
      newest: [page('newest', false), page('newest', true)],
      expiry: [page('expiry', false), page('expiry', true)],
    } as const;
    this.reads = {
      notifications: db.prepare<[string], NotificationsRow>(
        `SELECT n.* FROM folder_notifications n JOIN folders d ON d.id = n.folder_id
         WHERE n.folder_id = ? AND d.deleting_since IS NULL`,
      ),
      usage: db.prepare<[], { folders: number; files: number; bytes: number | null; incomplete: number }>(
        `SELECT (SELECT COUNT(*) FROM folders WHERE deleting_since IS NULL) AS folders,
           COUNT(f.id) AS files, SUM(f.filesize) AS bytes,
           (SELECT COUNT(*) FROM files WHERE completed_at IS NULL) AS incomplete
         FROM files f JOIN folders d ON d.id = f.folder_id WHERE d.deleting_since IS NULL`,
      ),
      folderBytes: db.prepare<[string], { bytes: number }>('SELECT byte_count AS bytes FROM folders WHERE id = ?'),
      totalBytes: db.prepare<[], { bytes: number }>('SELECT bytes FROM storage_totals WHERE id = 1'),
      list: db.prepare<[{ limit: number }], FolderSummaryRow>(summarySql(named, false)),
      listBefore: db.prepare<[{ limit: number; before: number }], FolderSummaryRow>(summarySql(named, true)),
      outbox: db.prepare<[], { pending: number; failed: number }>(
        `SELECT COALESCE(SUM(next_attempt_at IS NOT NULL), 0) AS pending, COALESCE(SUM(next_attempt_at IS NULL), 0) AS failed
         FROM outbox`,
      ),
    };
  }

  enqueueOutbox(entries: readonly NewOutboxEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return this.writer.write('enqueueOutbox', entries);
  }

  claimOutbox(now: number, leaseMs: number, limit: number): Promise<OutboxEntry[]> {
    return this.writer.write('claimOutbox', now, leaseMs, limit);
  }

  finishOutbox(id: string): Promise<void> {
    return this.writer.write('finishOutbox', id);
  }

  retryOutbox(id: string, attempts: number, nextAttemptAt: number | null, lastError: string): Promise<void> {
    return this.writer.write('retryOutbox', id, attempts, nextAttemptAt, lastError);
  }

  async outboxCounts(): Promise<OutboxCounts> {
    const r = this.reads.outbox.get()!;
    return { pending: Number(r.pending), failed: Number(r.failed) };
  }

  setFolderNotifications(folderId: string, settings: FolderNotifications | null): Promise<boolean> {
    return this.writer.write('setFolderNotifications', folderId, settings);
  }

  async getFolderNotifications(folderId: string): Promise<FolderNotifications | null> {
    const row = this.reads.notifications.get(folderId);
    return row ? toNotifications(row) : null;
  }

  async usage(): Promise<StoreUsage> {
    const r = this.reads.usage.get()!;
    return { folders: r.folders, files: r.files, bytes: r.bytes ?? 0, incompleteFiles: r.incomplete };
  }

  async folderBytes(folderId: string): Promise<number> {
    return this.reads.folderBytes.get(folderId)?.bytes ?? 0;
  }

  async totalBytes(): Promise<number> {
    return this.reads.totalBytes.get()?.bytes ?? 0;
  }

  async accountFolders(accountId: string, now: number, page: AccountFolderPage): Promise<AccountFolderSummary[]> {
    const params = accountFolderParams(accountId, now, page);
    const statement = this.accountPages[page.sort][page.after ? 1 : 0];
    return statement.all(Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v]))).map(toAccountFolder);
  }

  async listFolders(limit: number, before?: number): Promise<FolderSummary[]> {
    const rows = before === undefined ? this.reads.list.all({ limit }) : this.reads.listBefore.all({ limit, before });
    return rows.map(toSummary);
  }

  expireFolder(folderId: string, now: number): Promise<boolean> {
    return this.writer.write('expireFolder', folderId, now);
  }
}
