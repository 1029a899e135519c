import {
  type AdminClient,
  type AdminFolderView,
  type AdminListQuery,
  TAKE_DOWN_NOTE_MAX,
  TAKE_DOWN_REASONS,
  type TakeDownReason,
} from '../core.js';
import { type MessageKey, t } from '../i18n/index.js';
import { formatDate } from './dates.js';
import { TAKE_DOWN_REASON_KEYS } from './take-down.js';
import { announce, describeError, formatBytes, h } from './ui.js';

/**
 * The console's folder table: search by title or id, sort, pages of 50, and per folder a take-down
 * (a dialog with the reason and a note) and a delete (a confirming dialog). Titles are shown;
 * names and contents are encrypted and never reach the console.
 */
const PAGE = 50;

const STATE_KEYS: Record<AdminFolderView['state'], MessageKey> = {
  active: 'admin.state.active',
  expired: 'admin.state.expired',
  'taken-down': 'admin.state.takenDown',
  'empty-ownerless': 'admin.state.emptyOwnerless',
};
const SORTS: [NonNullable<AdminListQuery['sort']>, MessageKey][] = [
  ['created', 'admin.sort.created'],
  ['size', 'admin.sort.size'],
  ['expiry', 'admin.sort.expiry'],
  ['downloads', 'admin.sort.downloads'],
];
const COLUMNS = [
  'admin.col.title',
  'admin.col.state',
  'admin.col.size',
  'admin.col.files',
  'admin.col.downloads',
  'admin.col.expiry',
  'admin.col.creator',
  'admin.col.actions',
] as const satisfies readonly MessageKey[];

/** A cell's column name, which a phone shows beside its value (the table's rows stack there). */
function cell(column: (typeof COLUMNS)[number]): { 'data-label': string } {
  return { 'data-label': t(column) };
}

export function adminFoldersView(client: AdminClient): HTMLElement {
  let offset = 0;
  const search = h('input', { id: 'admin-search', type: 'search', name: 'q', maxlength: 200, autocomplete: 'off' });
  const sort = h(
    'select',
    { id: 'admin-sort', name: 'sort' },
    ...SORTS.map(([v, k]) => h('option', { value: v }, t(k))),
  );
  const order = h(
    'select',
    { id: 'admin-order', name: 'order' },
    h('option', { value: 'desc' }, t('admin.order.desc')),
    h('option', { value: 'asc' }, t('admin.order.asc')),
  );
  const field = (label: string, control: HTMLElement) =>
    h('label', { class: 'audit-field', for: control.id }, h('span', {}, label), control);
  const form = h(
    'form',
    { class: 'audit-filter', id: 'admin-filter', role: 'search' },
    field(t('admin.search'), search),
    field(t('admin.sort'), sort),
    field(t('admin.order'), order),
    h('button', { type: 'submit', id: 'admin-search-go' }, t('admin.searchGo')),
  );
  const body = h('tbody', { id: 'admin-folders' });
  const table = h(
    'table',
    { class: 'audit-list admin-folders' },
    h('caption', { class: 'visually-hidden' }, t('admin.tab.folders')),
    h('thead', {}, h('tr', {}, ...COLUMNS.map((k) => h('th', { scope: 'col' }, t(k))))),
    body,
  );
  const status = h('p', { id: 'admin-status', class: 'muted', role: 'status' });
  const prev = h('button', { type: 'button', class: 'secondary', id: 'admin-prev' }, t('admin.prev'));
  const next = h('button', { type: 'button', class: 'secondary', id: 'admin-next' }, t('admin.next'));

  const load = async () => {
    status.textContent = t('site.loading');
    try {
      const page = await client.folders({
        q: search.value.trim(),
        sort: sort.value as AdminListQuery['sort'],
        order: order.value as 'asc' | 'desc',
        limit: PAGE,
        offset,
      });
      body.replaceChildren(...page.folders.map((f) => row(f)));
      prev.disabled = offset === 0;
      next.disabled = offset + page.folders.length >= page.total;
      status.textContent =
        page.total === 0
          ? t('admin.none')
          : t('admin.shown', { from: offset + 1, to: offset + page.folders.length, total: page.total });
      announce(status.textContent);
    } catch (error) {
      status.textContent = describeError(error);
    }
  };

  const row = (f: AdminFolderView): HTMLTableRowElement => {
    const title = f.title || t('admin.untitled');
    const takeDown = h(
      'button',
      { type: 'button', class: 'secondary', 'data-action': 'take-down' },
      t('admin.takeDown'),
    );
    const remove = h('button', { type: 'button', class: 'danger', 'data-action': 'delete' }, t('admin.delete'));
    takeDown.setAttribute('aria-label', `${t('admin.takeDown')}: ${title}`);
    remove.setAttribute('aria-label', `${t('admin.delete')}: ${title}`);
    if (f.state === 'taken-down') takeDown.disabled = true;
    takeDown.addEventListener('click', () =>
      openTakeDown(title, takeDown, async (reason, note) => {
        await client.takeDown(f.folderId, { reason, note });
        announce(t('admin.takenDown'));
        await load();
      }),
    );
    remove.addEventListener('click', () =>
      confirmDialog(t('admin.deleteConfirm', { title }), t('admin.delete'), remove, async () => {
        await client.remove(f.folderId);
        announce(t('admin.deleted'));
        await load();
      }),
    );
    return h(
      'tr',
      { 'data-folder': f.folderId },
      h('td', {}, h('div', { dir: 'auto' }, title), h('div', { class: 'muted mono' }, f.folderId)),
      h(
        'td',
        cell('admin.col.state'),
        t(STATE_KEYS[f.state]),
        f.takeDown ? h('div', { class: 'muted' }, t(TAKE_DOWN_REASON_KEYS[f.takeDown.reason])) : null,
      ),
      h('td', { ...cell('admin.col.size'), class: 'used' }, formatBytes(f.bytes)),
      h('td', cell('admin.col.files'), String(f.files)),
      h('td', cell('admin.col.downloads'), String(f.downloads)),
      h('td', { ...cell('admin.col.expiry'), class: 'used' }, formatDate(f.deleteAfter)),
      h('td', cell('admin.col.creator'), f.creator ? (f.creator.email ?? f.creator.accountId) : t('admin.anonymous')),
      h('td', {}, h('div', { class: 'admin-actions' }, takeDown, remove)),
    );
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    offset = 0;
    void load();
  });
  for (const control of [sort, order]) control.addEventListener('change', () => form.requestSubmit());
  prev.addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE);
    void load();
  });
  next.addEventListener('click', () => {
    offset += PAGE;
    void load();
  });
  void load();
  return h(
    'section',
    { id: 'admin-folders-view' },
    form,
    status,
    h('div', { class: 'table-scroll' }, table),
    h('div', { class: 'row' }, prev, next),
  );
}

/** A modal dialog (the browser's own: Escape closes it, focus stays inside), given back its opener's focus. */
function modal(opener: HTMLElement, ...children: HTMLElement[]): HTMLDialogElement {
  const dialog = h('dialog', { class: 'admin-dialog', 'aria-labelledby': 'admin-dialog-title' }, ...children);
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

function openTakeDown(
  title: string,
  opener: HTMLElement,
  done: (reason: TakeDownReason, note: string | null) => Promise<void>,
): void {
  const reason = h(
    'select',
    { id: 'take-down-reason-choice', name: 'reason', required: true, 'aria-describedby': 'take-down-reason-error' },
    // No reason is chosen for the admin: the visitor reads it, so it must be the admin's choice.
    h('option', { value: '', selected: true, disabled: true }, t('admin.chooseReason')),
    ...TAKE_DOWN_REASONS.map((r) => h('option', { value: r }, t(TAKE_DOWN_REASON_KEYS[r]))),
  );
  const note = h('textarea', { id: 'take-down-note-input', name: 'note', maxlength: TAKE_DOWN_NOTE_MAX, rows: 3 });
  const error = h('p', { class: 'field-error', role: 'alert', id: 'take-down-reason-error' });
  const submit = h('button', { type: 'submit', class: 'danger', id: 'take-down-confirm' }, t('admin.takeDown'));
  const form = h(
    'form',
    // The page checks the choice itself, in its own language (not the browser's bubble).
    { method: 'dialog', novalidate: true },
    h('h2', { id: 'admin-dialog-title' }, t('admin.takeDownTitle', { title })),
    h('p', {}, t('admin.takeDownText')),
    h('label', { for: reason.id }, t('takeDown.reasonLabel')),
    reason,
    h('label', { for: note.id }, t('admin.note')),
    note,
    error,
    h(
      'div',
      { class: 'row' },
      submit,
      h('button', { type: 'button', class: 'secondary', onclick: () => dialog.close() }, t('admin.cancel')),
    ),
  );
  const dialog = modal(opener, form);
  reason.focus();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (reason.value === '') {
      error.textContent = t('admin.reasonRequired');
      reason.setAttribute('aria-invalid', 'true');
      reason.focus();
      return;
    }
    reason.removeAttribute('aria-invalid');
    submit.disabled = true;
    try {
      await done(reason.value as TakeDownReason, note.value.trim() || null);
      dialog.close();
    } catch (failure) {
      error.textContent = describeError(failure);
      submit.disabled = false;
    }
  });
}

function confirmDialog(text: string, action: string, opener: HTMLElement, done: () => Promise<void>): void {
  const error = h('p', { class: 'field-error', role: 'alert' });
  const confirm = h('button', { type: 'button', class: 'danger', id: 'admin-confirm' }, action);
  const cancel = h('button', { type: 'button', class: 'secondary' }, t('admin.cancel'));
  const dialog = modal(
    opener,
    h('h2', { id: 'admin-dialog-title' }, text),
    error,
    h('div', { class: 'row' }, confirm, cancel),
  );
  cancel.addEventListener('click', () => dialog.close());
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    try {
      await done();
      dialog.close();
    } catch (failure) {
      error.textContent = describeError(failure);
      confirm.disabled = false;
    }
  });
  cancel.focus();
}
