import { AUDIT_ACTIONS, AUDIT_API_PATH } from '../core.js';
import { type MessageKey, t } from '../i18n/index.js';
import { formatDate } from './dates.js';
import { announce, describeError, formatBytes, h, refusalOf } from './ui.js';

/**
 * The console's audit tab (docs/organisations.md#audit-log): the newest entries first, a
 * filter by action, account, folder and time, "Show more" for the next page, and the JSON-lines
 * export of what the filter selects. Mounted by the admin console (web/src/views/admin.ts), which
 * hands in `request`: its fetch to the instance's own admin API, with the admin's credential (a
 * session cookie, or the break-glass token it holds in memory). Nothing here is a folder's content:
 * titles are not shown, names and files are encrypted and the server cannot show them.
 */
export type AdminRequest = (path: string, init?: RequestInit) => Promise<Response>;

interface AuditEntry {
  id: string;
  at: string;
  action: string;
  actor: {
    kind: 'anonymous' | 'account';
    accountId: string | null;
    email: string | null;
    name: string | null;
    via: string | null;
  };
  folderId: string | null;
  clientHash: string | null;
  detail: Record<string, string | number | boolean | null>;
}

const ACTION_KEYS: Record<(typeof AUDIT_ACTIONS)[number], MessageKey> = {
  'folder.create': 'audit.action.folderCreate',
  'folder.delete': 'audit.action.folderDelete',
  'folder.settings': 'audit.action.folderSettings',
  'file.delete': 'audit.action.fileDelete',
  'folder.take-down': 'audit.action.takeDown',
  'account.sign-in': 'audit.action.signIn',
  'account.sign-out': 'audit.action.signOut',
  'api-key.create': 'audit.action.keyCreate',
  'api-key.revoke': 'audit.action.keyRevoke',
  'quota.set': 'audit.action.quotaSet',
};

const actionName = (action: string): string =>
  action in ACTION_KEYS ? t(ACTION_KEYS[action as keyof typeof ACTION_KEYS]) : action;

/** Who acted: the account, or "admin token" for the break-glass token (which names no one), else anonymous. */
function who(entry: AuditEntry): string {
  const a = entry.actor;
  if (a.kind === 'anonymous')
    return entry.detail.via === 'admin-token' || entry.detail.by === 'admin-token'
      ? t('audit.adminToken')
      : t('audit.anonymous');
  return a.email ?? a.name ?? a.accountId ?? '';
}

/** A detail's value as the site writes it: times (`…At`, epoch ms) as dates, `bytes` as a size. */
function detailValue(key: string, value: AuditEntry['detail'][string]): string {
  if (value === null) return '—';
  if (typeof value === 'number' && /At$/.test(key)) return formatDate(value);
  if (typeof value === 'number' && key === 'bytes') return formatBytes(value);
  return String(value);
}

const detailText = (detail: AuditEntry['detail']): string =>
  Object.entries(detail)
    .map(([k, v]) => `${k}: ${detailValue(k, v)}`)
    .join(', ');

/** The audit tab: call once; it loads its first page at once. */
export function adminAuditView(request: AdminRequest): HTMLElement {
  const action = h('select', { id: 'audit-action', name: 'action' }, h('option', { value: '' }, t('audit.allActions')));
  for (const a of AUDIT_ACTIONS) action.append(h('option', { value: a }, actionName(a)));
  const account = h('input', {
    type: 'text',
    id: 'audit-account',
    name: 'account',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const folder = h('input', {
    type: 'text',
    id: 'audit-folder',
    name: 'folder',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const since = h('input', { type: 'date', id: 'audit-since', name: 'since' });
  const until = h('input', { type: 'date', id: 'audit-until', name: 'until' });
  const field = (label: string, input: HTMLElement) =>
    h('label', { class: 'audit-field', for: input.id }, h('span', {}, label), input);
  const status = h('p', { id: 'audit-status', class: 'muted', role: 'status' });
  const body = h('tbody', { id: 'audit-rows' });
  const table = h(
    'table',
    { class: 'audit-list', id: 'audit-table' },
    h('caption', { class: 'visually-hidden' }, t('audit.title')),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, t('audit.when')),
        h('th', { scope: 'col' }, t('audit.action')),
        h('th', { scope: 'col' }, t('audit.who')),
        h('th', { scope: 'col' }, t('audit.folder')),
        h('th', { scope: 'col' }, t('audit.detail')),
      ),
    ),
    body,
  );
  const more = h('button', { type: 'button', class: 'secondary', id: 'audit-more', hidden: true }, t('audit.more'));
  const exportButton = h('button', { type: 'button', class: 'secondary', id: 'audit-export' }, t('audit.export'));
  let cursor: string | null = null;

  const query = (): URLSearchParams => {
    const q = new URLSearchParams();
    if (action.value) q.set('action', action.value);
    if (account.value.trim()) q.set('account', account.value.trim());
    if (folder.value.trim()) q.set('folder', folder.value.trim());
    if (since.value) q.set('since', since.value);
    // "Until" names a day: entries of that day are included.
    if (until.value)
      q.set('until', new Date(Date.parse(`${until.value}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
    return q;
  };

  const row = (e: AuditEntry) =>
    h(
      'tr',
      { 'data-action': e.action },
      h('td', {}, h('time', { datetime: e.at }, formatDate(Date.parse(e.at)))),
      h('td', {}, actionName(e.action)),
      h(
        'td',
        {},
        who(e),
        e.actor.via ? h('span', { class: 'muted' }, ` (${e.actor.via})`) : null,
        e.clientHash
          ? h('div', { class: 'muted mono', title: t('audit.clientHash') }, e.clientHash.slice(0, 12))
          : null,
      ),
      h('td', { class: 'mono' }, e.folderId ?? '—'),
      h('td', {}, detailText(e.detail)),
    );

  const load = async (append: boolean) => {
    const q = query();
    if (append && cursor) q.set('cursor', cursor);
    status.textContent = t('site.loading');
    more.disabled = true;
    try {
      const res = await request(`${AUDIT_API_PATH}?${q}`);
      if (!res.ok) throw await refusalOf(res, 'audit log');
      const answer = (await res.json()) as { entries?: AuditEntry[]; nextCursor?: string | null };
      if (!append) body.replaceChildren();
      for (const e of answer.entries ?? []) body.append(row(e));
      cursor = answer.nextCursor ?? null;
      more.hidden = cursor === null;
      const shown = body.childElementCount;
      status.textContent = shown === 0 ? t('audit.none') : t('audit.shown', { count: shown });
      announce(status.textContent);
    } catch (error) {
      status.textContent = t('audit.failed', { error: describeError(error) });
    } finally {
      more.disabled = false;
    }
  };

  const save = async () => {
    exportButton.disabled = true;
    try {
      const res = await request(`${AUDIT_API_PATH}.jsonl?${query()}`);
      if (!res.ok) throw await refusalOf(res, 'audit export');
      const url = URL.createObjectURL(await res.blob());
      const link = h('a', { href: url, download: 'audit.jsonl', hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      status.textContent = t('audit.failed', { error: describeError(error) });
    } finally {
      exportButton.disabled = false;
    }
  };

  const form = h(
    'form',
    {
      class: 'audit-filter',
      id: 'audit-filter',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void load(false);
      },
    },
    field(t('audit.action'), action),
    field(t('audit.account'), account),
    field(t('audit.folder'), folder),
    field(t('audit.since'), since),
    field(t('audit.until'), until),
    h(
      'div',
      { class: 'row audit-actions' },
      h('button', { type: 'submit', id: 'audit-apply' }, t('audit.apply')),
      exportButton,
    ),
  );
  more.addEventListener('click', () => void load(true));
  exportButton.addEventListener('click', () => void save());
  void load(false);
  return h(
    'section',
    { class: 'admin-audit', id: 'admin-audit', 'aria-labelledby': 'audit-heading' },
    h('h2', { id: 'audit-heading' }, t('audit.title')),
    h('p', { class: 'muted' }, t('audit.intro')),
    form,
    status,
    h('div', { class: 'table-scroll' }, table),
    more,
  );
}
