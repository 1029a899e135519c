/**
 * Per-account usage and quotas, read by the admin API and set by an admin: what each
 * account's folders hold (the `account_storage` counters the store's writes keep, migration 12
 * of sqlite/schema.ts) beside the account itself (sign-in's `accounts` table).
 */
export interface AccountUsage {
  readonly accountId: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly lastSeenAt: number;
  /** Registered bytes of the account's folders (0 before its first upload). */
  readonly usedBytes: number;
  /** The account's own quota; null: the instance's default (QUOTA_ACCOUNT_MIB) applies. */
  readonly quotaBytes: number | null;
}

export interface AccountUsagePage {
  /** Accounts whose id sorts after this (the previous page's last). */
  readonly after?: string;
  readonly limit: number;
}

export interface AccountUsageStore {
  /** Accounts in id order with their usage, at most `page.limit`. */
  listUsage(page: AccountUsagePage): Promise<AccountUsage[]>;
  /** One account's usage, or null when there is no such account. */
  usage(accountId: string): Promise<AccountUsage | null>;
  /** Sets the account's own quota (null: back to the default); false when there is no such account. */
  setQuota(accountId: string, bytes: number | null): Promise<boolean>;
}

type Int = number | string;
export interface AccountUsageRow {
  id: string;
  email: string | null;
  name: string | null;
  last_seen_at: Int;
  used_bytes: Int | null;
  quota_bytes: Int | null;
}

export const toAccountUsage = (r: AccountUsageRow): AccountUsage => ({
  accountId: r.id,
  email: r.email,
  name: r.name,
  lastSeenAt: Number(r.last_seen_at),
  usedBytes: Number(r.used_bytes ?? 0),
  quotaBytes: r.quota_bytes === null ? null : Number(r.quota_bytes),
});

/** The listing's SELECT; the caller adds its WHERE, ORDER BY and LIMIT. */
export const ACCOUNT_USAGE_SELECT = `SELECT a.id, a.email, a.name, a.last_seen_at, s.bytes AS used_bytes, s.quota_bytes
  FROM accounts a LEFT JOIN account_storage s ON s.account_id = a.id`;
