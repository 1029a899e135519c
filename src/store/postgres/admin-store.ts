import type pg from 'pg';
import type { AdminCounts, AdminFolder, AdminFolderPage, AdminFolderQuery, AdminStore } from '../admin-store.js';
import type { TakeDown } from '../folder-record.js';
import {
  type AdminCountsRow,
  type AdminFolderRow,
  adminCountsSql,
  adminFolderSql,
  adminListSql,
  likePattern,
  takeDownSql,
  toAdminCounts,
  toAdminFolder,
} from '../sql/admin.js';

const dollar = (n: number) => `$${n}`;

/** The admin part of the PostgreSQL store (../sql/admin.ts holds the statements both stores run). */
export class PostgresAdminStore implements AdminStore {
  constructor(private readonly pool: pg.Pool) {}

  async listFolders(query: AdminFolderQuery): Promise<AdminFolderPage> {
    const search = query.search !== undefined && query.search !== '';
    const sql = adminListSql(dollar, query, search);
    const searchParams = search ? [query.search, likePattern(query.search!)] : [];
    const [list, count] = await Promise.all([
      this.pool.query<AdminFolderRow>(sql.list, [...searchParams, query.limit, query.offset]),
      this.pool.query<{ total: string }>(sql.count, searchParams),
    ]);
    return { folders: list.rows.map(toAdminFolder), total: Number(count.rows[0]!.total) };
  }

  async getFolder(folderId: string): Promise<AdminFolder | null> {
    const { rows } = await this.pool.query<AdminFolderRow>(adminFolderSql(dollar), [folderId]);
    return rows[0] ? toAdminFolder(rows[0]) : null;
  }

  async takeDown(folderId: string, t: TakeDown): Promise<boolean> {
    const { rowCount } = await this.pool.query(takeDownSql(dollar), [t.at, t.reason, t.note, folderId]);
    return rowCount === 1;
  }

  async counts(now: number): Promise<AdminCounts> {
    const { rows } = await this.pool.query<AdminCountsRow>(adminCountsSql(dollar), [now]);
    return toAdminCounts(rows[0]!);
  }
}
