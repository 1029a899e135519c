import type { AccountsListQuery, QuotaBody } from '../contract/admin-audit.js';
import type { AccountUsage } from '../store/account-usage.js';
import { type Actor, recordAudit } from './audit.js';
import { notFound } from './errors.js';
import type { Services } from './services.js';

/**
 * Per-account quotas for admins (docs/organisations.md#per-account-quotas): every account
 * with what its folders hold and its quota, and setting an account's own quota (or returning it to
 * QUOTA_ACCOUNT_MIB). What binds is the store's check in each registration's transaction (the
 * `account_storage` counters): a quota lowered below what an account holds refuses its next
 * registration and deletes nothing.
 */
const PAGE_DEFAULT = 100;

export interface AccountView {
  readonly accountId: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly lastSeenAt: string | null;
  readonly usedBytes: number;
  readonly quotaBytes: number | null;
}

const view = (a: AccountUsage): AccountView => ({
  accountId: a.accountId,
  email: a.email,
  name: a.name,
  lastSeenAt: a.lastSeenAt > 0 ? new Date(a.lastSeenAt).toISOString() : null,
  usedBytes: a.usedBytes,
  quotaBytes: a.quotaBytes,
});

export async function listAccounts(
  services: Services,
  query: AccountsListQuery,
): Promise<{ accounts: AccountView[]; defaultQuotaBytes: number | null; nextCursor: string | null }> {
  const limit = query.limit === undefined ? PAGE_DEFAULT : Number(query.limit);
  const rows = await services.store.usage.listUsage({
    limit: limit + 1,
    ...(query.cursor !== undefined ? { after: query.cursor } : {}),
  });
  const page = rows.slice(0, limit);
  return {
    accounts: page.map(view),
    defaultQuotaBytes: services.config.quotas.accountBytes,
    nextCursor: rows.length > limit ? page[page.length - 1]!.accountId : null,
  };
}

/** Sets the account's own quota (null: the default), records `quota.set`, answers the account. */
export async function setAccountQuota(
  services: Services,
  accountId: string,
  body: QuotaBody,
  actor: Actor,
  by: 'account' | 'admin-token',
): Promise<AccountView> {
  if (!(await services.store.usage.setQuota(accountId, body.bytes))) throw notFound('no such account');
  await recordAudit(services, {
    ...actor,
    action: 'quota.set',
    detail: { accountId, bytes: body.bytes, ...(by === 'admin-token' ? { by } : {}) },
  });
  const account = await services.store.usage.usage(accountId);
  if (!account) throw notFound('no such account');
  return view(account);
}
