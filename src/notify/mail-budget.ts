import type { MailLimits } from '../config/config.js';
import type { MailAllowance } from '../store/mail-store.js';
import type { MetadataStore } from '../store/metadata-store.js';

/**
 * What a mail may cost, spent when it is about to be sent (so a mail dropped before that costs
 * nothing): every mail takes one from the instance's hourly and daily budget (MAIL_BUDGET_PER_*),
 * and a notification digest one from its folder's and its address's daily allowance too. The
 * counters are in the metadata store, so the budget is the instance's, not each node's.
 */
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export interface MailBudget {
  spendInstance(now: number): Promise<boolean>;
  /** One digest of `folderId` for the period that began at `period`: at most one per period. */
  spendDigest(folderId: string, addressKey: string, period: string, now: number): Promise<boolean>;
}

export function mailBudget(limits: MailLimits, store: MetadataStore): MailBudget {
  const instance: MailAllowance[] = [
    { key: 'instance-hour', windowMs: HOUR_MS, limit: limits.budgetPerHour },
    { key: 'instance-day', windowMs: DAY_MS, limit: limits.budgetPerDay },
  ];
  return {
    spendInstance: (now) => store.mail.spend(instance, now),
    spendDigest: (folderId, addressKey, period, now) =>
      store.mail.spend(
        [
          ...instance,
          // Keyed by the period, counted over a day: a second digest of the same period is refused.
          { key: `digest-period:${folderId}:${period}`, windowMs: DAY_MS, limit: 1 },
          { key: `digest-folder:${folderId}`, windowMs: DAY_MS, limit: limits.perFolderPerDay },
          { key: `digest-address:${addressKey}`, windowMs: DAY_MS, limit: limits.perAddressPerDay },
        ],
        now,
      ),
  };
}
