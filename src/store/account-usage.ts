/**
 * Per-account usage and quotas, read by the admin API and set by an admin: what each
 * account's folders hold (the `account_storage` counters the store's writes keep, migration 12
 * of sql/schema.ts) beside the account itself (sign-in's `accounts` table).
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
