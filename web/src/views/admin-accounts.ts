import { ACCOUNTS_API_PATH } from '../core.js';
import { t } from '../i18n/index.js';
import type { AdminRequest } from './admin-audit.js';
import { formatDate } from './dates.js';
import { announce, describeError, formatBytes, h, refusalOf } from './ui.js';

/**
 * The console's accounts tab (docs/organisations.md#per-account-quotas): every account that
 * signed in, what its folders hold, and its quota, which an admin sets here (in MB) or returns to the
 * instance's default (QUOTA_ACCOUNT_MIB). Mounted by the admin console, which hands in `request`
 * (see admin-audit.ts).
 */
interface AccountUsage {
  accountId: string;
  email: string | null;
  name: string | null;
  lastSeenAt: string | null;
  usedBytes: number;
  /** The account's own quota; null: the default applies. */
  quotaBytes: number | null;
}

interface AccountsAnswer {
  accounts: AccountUsage[];
  defaultQuotaBytes: number | null;
  nextCursor: string | null;
}

/**
 * The quota field is in MB of 1,000,000 bytes, the unit the page shows sizes in (formatBytes): an
 * admin who types 4 reads "4 MB" beside it, not 4.19 MB.
 */
const MB = 1_000_000;

const failure = (res: Response) => refusalOf(res, 'accounts');

/** The accounts tab: call once; it loads its first page at once. */
export function adminAccountsView(request: AdminRequest): HTMLElement {
  const status = h('p', { id: 'accounts-status', class: 'muted', role: 'status' });
  const defaults = h('p', { id: 'accounts-default' });
  const body = h('tbody', { id: 'accounts-rows' });
  const more = h(
    'button',
    { type: 'button', class: 'secondary', id: 'accounts-more', hidden: true },
    t('accounts.more'),
  );
  let cursor: string | null = null;
  let defaultQuota: number | null = null;

  const quotaText = (a: AccountUsage) =>
    a.quotaBytes !== null
      ? formatBytes(a.quotaBytes)
      : defaultQuota !== null
        ? t('accounts.isDefault', { size: formatBytes(defaultQuota) })
        : t('accounts.noQuota');

  const row = (a: AccountUsage): HTMLTableRowElement => {
    const label = a.email ?? a.name ?? a.accountId;
    const inputId = `quota-${a.accountId}`;
    const input = h('input', {
      type: 'number',
      id: inputId,
      class: 'quota-input',
      min: 0,
      step: 1,
      inputmode: 'numeric',
      value: a.quotaBytes === null ? '' : String(Math.round(a.quotaBytes / MB)),
      'aria-label': t('accounts.quotaLabel', { account: label }),
    });
    const quotaCell = h('td', { class: 'quota' }, quotaText(a));
    const set = async (bytes: number | null) => {
      try {
        const res = await request(`${ACCOUNTS_API_PATH}/${encodeURIComponent(a.accountId)}/quota`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ bytes }),
        });
        if (!res.ok) throw await failure(res);
        const updated = (await res.json()) as AccountUsage;
        a.quotaBytes = updated.quotaBytes;
        quotaCell.textContent = quotaText(a);
        input.value = a.quotaBytes === null ? '' : String(Math.round(a.quotaBytes / MB));
        status.textContent = t('accounts.saved', { account: label });
        announce(status.textContent);
      } catch (error) {
        status.textContent = t('accounts.failed', { error: describeError(error) });
      }
    };
    const form = h(
      'form',
      {
        class: 'row quota-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const mb = Number(input.value);
          if (input.value.trim() === '' || !Number.isInteger(mb) || mb < 0) {
            input.focus();
            return;
          }
          void set(mb * MB);
        },
      },
      input,
      h('button', { type: 'submit' }, t('accounts.save')),
      h('button', { type: 'button', class: 'secondary', onclick: () => void set(null) }, t('accounts.useDefault')),
    );
    return h(
      'tr',
      { 'data-account': a.accountId },
      h('td', {}, label, label !== a.accountId ? h('div', { class: 'muted mono' }, a.accountId) : null),
      h('td', {}, a.lastSeenAt ? h('time', { datetime: a.lastSeenAt }, formatDate(Date.parse(a.lastSeenAt))) : '—'),
      h('td', { class: 'used' }, formatBytes(a.usedBytes)),
      quotaCell,
      h('td', {}, form),
    );
  };

  const load = async (append: boolean) => {
    status.textContent = t('site.loading');
    try {
      const res = await request(
        `${ACCOUNTS_API_PATH}${append && cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      if (!res.ok) throw await failure(res);
      const answer = (await res.json()) as AccountsAnswer;
      defaultQuota = answer.defaultQuotaBytes;
      defaults.textContent =
        defaultQuota === null ? t('accounts.noDefault') : t('accounts.default', { size: formatBytes(defaultQuota) });
      if (!append) body.replaceChildren();
      for (const a of answer.accounts) body.append(row(a));
      cursor = answer.nextCursor;
      more.hidden = cursor === null;
      status.textContent = body.childElementCount === 0 ? t('accounts.none') : '';
    } catch (error) {
      status.textContent = t('accounts.failed', { error: describeError(error) });
    }
  };
  more.addEventListener('click', () => void load(true));
  void load(false);
  return h(
    'section',
    { class: 'admin-accounts', id: 'admin-accounts', 'aria-labelledby': 'accounts-heading' },
    h('h2', { id: 'accounts-heading' }, t('accounts.title')),
    h('p', { class: 'muted' }, t('accounts.intro')),
    defaults,
    status,
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'audit-list', id: 'accounts-table' },
        h('caption', { class: 'visually-hidden' }, t('accounts.title')),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, t('accounts.account')),
            h('th', { scope: 'col' }, t('accounts.lastSeen')),
            h('th', { scope: 'col' }, t('accounts.used')),
            h('th', { scope: 'col' }, t('accounts.quota')),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('accounts.save'))),
          ),
        ),
        body,
      ),
    ),
    more,
  );
}
