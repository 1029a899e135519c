import type Database from 'better-sqlite3';
import type { AccountUsage, AccountUsagePage, AccountUsageStore } from '../account-usage.js';
import { ACCOUNT_USAGE_SELECT, type AccountUsageRow, toAccountUsage } from '../sql/account-usage.js';
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
