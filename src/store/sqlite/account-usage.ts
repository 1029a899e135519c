import type Database from 'better-sqlite3';
import {
  ACCOUNT_USAGE_SELECT,
  type AccountUsage,
  type AccountUsagePage,
  type AccountUsageRow,
  type AccountUsageStore,
  toAccountUsage,
} from '../account-usage.js';
import type { SqliteWriter } from './writer.js';

/** Per-account usage of the SQLite store: reads on the calling thread, the quota through the writer. */
export class SqliteAccountUsageStore implements AccountUsageStore {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly writer: SqliteWriter,
  ) {
    this.s = {
      list: db.prepare<[string, number], AccountUsageRow>(
        `${ACCOUNT_USAGE_SELECT} WHERE a.id > ? ORDER BY a.id LIMIT ?`,
      ),
      one: db.prepare<[string], AccountUsageRow>(`${ACCOUNT_USAGE_SELECT} WHERE a.id = ?`),
    };
  }

  async listUsage(page: AccountUsagePage): Promise<AccountUsage[]> {
    return this.s.list.all(page.after ?? '', page.limit).map(toAccountUsage);
  }

  async usage(accountId: string): Promise<AccountUsage | null> {
    const row = this.s.one.get(accountId);
    return row ? toAccountUsage(row) : null;
  }

  setQuota(accountId: string, bytes: number | null): Promise<boolean> {
    return this.writer.write('setAccountQuota', accountId, bytes);
  }
}

/** The quota's write, on the writer thread. */
export function prepareAccountUsageWrites(db: Database.Database) {
  const s = {
    exists: db.prepare<[string], { id: string }>('SELECT id FROM accounts WHERE id = ?'),
    set: db.prepare<[string, number | null]>(
      `INSERT INTO account_storage (account_id, bytes, quota_bytes) VALUES (?, 0, ?)
       ON CONFLICT (account_id) DO UPDATE SET quota_bytes = excluded.quota_bytes`,
    ),
  };
  return {
    setAccountQuota(accountId: string, bytes: number | null): boolean {
      if (!s.exists.get(accountId)) return false;
      s.set.run(accountId, bytes);
      return true;
    },
  };
}

export type AccountUsageWrites = ReturnType<typeof prepareAccountUsageWrites>;
