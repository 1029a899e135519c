import type { AccountUsage } from '../account-usage.js';

/** An account's usage as both SQL stores read it: the account beside its counters. */
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
