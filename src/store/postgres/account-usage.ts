import type pg from 'pg';
import type { AccountUsage, AccountUsagePage, AccountUsageStore } from '../account-usage.js';
import { ACCOUNT_USAGE_SELECT, type AccountUsageRow, toAccountUsage } from '../sql/account-usage.js';

/** Per-account usage of the PostgreSQL store (../account-usage.ts). */
export class PostgresAccountUsageStore implements AccountUsageStore {
  constructor(private readonly pool: pg.Pool) {}

  async listUsage(page: AccountUsagePage): Promise<AccountUsage[]> {
    const { rows } = await this.pool.query<AccountUsageRow>(
      `${ACCOUNT_USAGE_SELECT} WHERE a.id > $1 ORDER BY a.id LIMIT $2`,
      [page.after ?? '', page.limit],
    );
    return rows.map(toAccountUsage);
  }

  async usage(accountId: string): Promise<AccountUsage | null> {
    const { rows } = await this.pool.query<AccountUsageRow>(`${ACCOUNT_USAGE_SELECT} WHERE a.id = $1`, [accountId]);
    return rows[0] ? toAccountUsage(rows[0]) : null;
  }

  async setQuota(accountId: string, bytes: number | null): Promise<boolean> {
    // One statement: the account must exist; its counter row is made if missing (bytes 0 is right:
    // an account without a row has registered nothing).
    const { rowCount } = await this.pool.query(
      `INSERT INTO account_storage (account_id, bytes, quota_bytes) SELECT id, 0, $2 FROM accounts WHERE id = $1
       ON CONFLICT (account_id) DO UPDATE SET quota_bytes = excluded.quota_bytes`,
      [accountId, bytes],
    );
    return rowCount === 1;
  }
}
