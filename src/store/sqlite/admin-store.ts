import type Database from 'better-sqlite3';
import type { AdminCounts, AdminFolder, AdminFolderPage, AdminFolderQuery, AdminStore } from '../admin-store.js';
import type { TakeDown } from '../folder-record.js';
import {
  type AdminCountsRow,
  type AdminFolderRow,
  adminCountsSql,
  adminFolderSql,
  adminListSql,
  likePattern,
  toAdminCounts,
  toAdminFolder,
} from '../sql/admin.js';
import type { SqliteWriter } from './writer.js';

const named = (n: number) => `@p${n}`;
type Params = Record<string, unknown>;

/** The admin part of the SQLite store: reads on the calling thread, the take-down through the writer. */
export class SqliteAdminStore implements AdminStore {
  /** One prepared pair per sort, order and search-or-not (at most 16). */
  private readonly lists = new Map<
    string,
    { list: Database.Statement<[Params]>; count: Database.Statement<[Params]> }
  >();
  private readonly one;
  private readonly countsStatement;

  constructor(
    private readonly db: Database.Database,
    private readonly writer: SqliteWriter,
  ) {
    this.one = db.prepare<[Params], AdminFolderRow>(adminFolderSql(named));
    this.countsStatement = db.prepare<[Params], AdminCountsRow>(adminCountsSql(named));
  }

  async listFolders(query: AdminFolderQuery): Promise<AdminFolderPage> {
    const search = query.search !== undefined && query.search !== '';
    const key = `${query.sort}:${query.order}:${search}`;
    let statements = this.lists.get(key);
    if (!statements) {
      const sql = adminListSql(named, query, search);
      statements = { list: this.db.prepare(sql.list), count: this.db.prepare(sql.count) };
      this.lists.set(key, statements);
    }
    const searchParams = search ? { p1: query.search, p2: likePattern(query.search!) } : {};
    const n = search ? 2 : 0;
    const rows = statements.list.all({
      ...searchParams,
      [`p${n + 1}`]: query.limit,
      [`p${n + 2}`]: query.offset,
    }) as AdminFolderRow[];
    const { total } = statements.count.get(searchParams) as { total: number };
    return { folders: rows.map(toAdminFolder), total: Number(total) };
  }

  async getFolder(folderId: string): Promise<AdminFolder | null> {
    const row = this.one.get({ p1: folderId });
    return row ? toAdminFolder(row) : null;
  }

  takeDown(folderId: string, takeDown: TakeDown): Promise<boolean> {
    return this.writer.write('takeDown', folderId, takeDown);
  }

  async counts(now: number): Promise<AdminCounts> {
    return toAdminCounts(this.countsStatement.get({ p1: now })!);
  }
}
