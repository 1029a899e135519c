import type { SiteConfig } from '../config.js';
import { type AccountFolder, MAX_DOWNLOAD_LIMIT, signInUrl, sitePagePath } from '../core.js';
import { type MessageKey, t } from '../i18n/index.js';
import { MyFolders, type MyFoldersSort } from '../state/index.js';
import { apiKeysPanel } from './account-keys.js';
import { formatDate } from './dates.js';
import { expiryChoices, selectNearest } from './expiry.js';
import { notifyCard } from './notify.js';
import { announce, describeError, formatBytes, h, main, notice, render, setTitle } from './ui.js';

/**
 * "My folders", at `<site>/me`: the folders the signed-in account made on any device, with
 * the owner's controls that need no key (expiry, download limit, notifications, delete). It says
 * plainly that opening the files needs the link: the server never holds a folder's key, and this
 * browser keeps no link either (only the owner secret of folders it made, which opens nothing).
 */
const STATE_TEXT: Record<AccountFolder['state'], MessageKey> = {
  empty: 'me.stateEmpty',
  uploading: 'me.stateUploading',
  ready: 'me.stateReady',
  'taken-down': 'me.stateTakenDown',
};
const ACTIVITY_TEXT: Record<NonNullable<AccountFolder['lastActivity']>['kind'], MessageKey> = {
  upload: 'activity.upload',
  download: 'activity.download',
  delete: 'activity.delete',
};
const MODE_TEXT: Record<AccountFolder['mode'], MessageKey> = {
  send: 'home.modeSend',
  share: 'home.modeShare',
  request: 'home.modeRequest',
};

export function myFoldersPage(config: SiteConfig, signal: AbortSignal): void {
  setTitle(t('me.heading'));
  const state = new MyFolders({ base: config.base, api: config.api });
  const heading = h('h1', { id: 'me-title', tabindex: -1 }, t('me.heading'));
  const keyNote = h('p', { class: 'notice', id: 'me-key-note' }, t('me.keyNote'));
  const body = h('div', { id: 'me-body', 'aria-busy': 'true' }, h('p', { class: 'muted' }, t('site.loading')));
  render(heading, keyNote, body);

  const sort = h(
    'select',
    { id: 'me-sort' },
    h('option', { value: 'newest' }, t('me.sortNewest')),
    h('option', { value: 'expiry' }, t('me.sortExpiry')),
  );
  sort.addEventListener('change', () => void show(sort.value as MyFoldersSort));

  /** Loads the first page in `order` and draws the list (or why there is none). */
  async function show(order: MyFoldersSort): Promise<void> {
    body.setAttribute('aria-busy', 'true');
    try {
      await state.load(order);
    } catch (error) {
      if (signal.aborted) return;
      body.removeAttribute('aria-busy');
      body.replaceChildren(notice(describeError(error), 'error'));
      return;
    }
    if (signal.aborted) return;
    body.removeAttribute('aria-busy');
    if (!state.signedIn) {
      body.replaceChildren(signedOut(config));
      return;
    }
    draw();
    // The person's API keys (sign-in's panel, web/src/views/account-keys.ts), once, below the list.
    if (!document.getElementById('me-keys'))
      main().append(
        h(
          'section',
          { id: 'me-keys', 'aria-labelledby': 'me-keys-h' },
          h('h2', { id: 'me-keys-h' }, t('keys.title')),
          apiKeysPanel(config),
        ),
      );
  }

  function draw(): void {
    if (state.folders.length === 0) {
      body.replaceChildren(
        h(
          'section',
          { class: 'card', id: 'me-empty' },
          h('p', {}, t('me.empty')),
          h('p', {}, h('a', { href: config.base, class: 'button' }, t('error.newFolder'))),
        ),
      );
      return;
    }
    const list = h('ul', { class: 'my-folders', id: 'my-folders' }, ...state.folders.map((f) => row(f)));
    const more = state.nextCursor
      ? h('button', { type: 'button', class: 'secondary', id: 'me-more' }, t('me.more'))
      : null;
    more?.addEventListener('click', () => {
      more.disabled = true;
      void state
        .more()
        .then(() => {
          // The focus goes to the first row the click added, not back to the top.
          const first = list.children.length;
          draw();
          document.querySelectorAll<HTMLElement>('#my-folders > li h2')[first]?.focus();
        })
        .catch((error: unknown) => more.replaceWith(notice(describeError(error), 'error')));
    });
    body.replaceChildren(
      h('p', { class: 'row me-sort' }, h('label', { for: 'me-sort' }, t('me.sortLabel')), sort),
      list,
      ...(more ? [more] : []),
    );
  }

  /** One folder: what the server knows of it, and its controls behind "Manage". */
  function row(f: AccountFolder): HTMLElement {
    const id = (name: string) => `me-${f.folderId}-${name}`;
    const facts = [
      t(MODE_TEXT[f.mode]),
      t('files.count', { count: f.fileCount }),
      formatBytes(f.totalSize),
      t('files.downloads', { count: f.downloads }),
    ].join(' · ');
    const activity = f.lastActivity
      ? t('me.lastActivity', { what: t(ACTIVITY_TEXT[f.lastActivity.kind]), date: formatDate(f.lastActivity.at) })
      : t('me.noActivity');
    return h(
      'li',
      { class: 'my-folder', 'data-folder': f.folderId, 'aria-labelledby': id('title') },
      h('h2', { id: id('title'), class: 'my-folder-title', tabindex: -1 }, f.title),
      h(
        'p',
        { class: 'muted' },
        h('span', { class: `state state-${f.state}`, 'data-state': f.state }, t(STATE_TEXT[f.state])),
        ` · ${facts}`,
      ),
      h('p', { class: 'me-until' }, untilText(f)),
      h('p', { class: 'muted me-activity' }, activity),
      f.password ? h('p', { class: 'muted' }, t('me.password')) : null,
      // A taken-down folder serves nothing and takes no change: the operator's decision stands.
      f.state === 'taken-down' ? h('p', { class: 'muted' }, t('me.takenDown')) : manage(f, id),
    );
  }

  /** Expiry, limit, notifications and delete: the controls the account may use without the key. */
  function manage(f: AccountFolder, id: (name: string) => string): HTMLElement {
    const said = h('div', { id: id('status'), role: 'status' });
    const fail = (error: unknown) => said.replaceChildren(notice(describeError(error), 'error'));
    const done = (what: string) => {
      said.replaceChildren(notice(what, 'ok'));
      announce(what);
    };

    const expiry = h(
      'select',
      { id: id('expiry') },
      ...expiryChoices(config.maxExpiresInHours).map((c) => h('option', { value: c.hours }, c.label)),
    );
    selectNearest(expiry, f.expiresAt ?? f.deleteAfter);
    const setExpiry = h(
      'button',
      { type: 'button', class: 'secondary', id: id('set-expiry') },
      t('settings.setExpiry'),
    );
    setExpiry.addEventListener('click', () => {
      void state
        .setExpiry(f.folderId, Number(expiry.value))
        .then(() => done(t('settings.expiryChanged')))
        .then(redrawRow)
        .catch(fail);
    });

    const limit = h('input', {
      type: 'number',
      id: id('limit'),
      min: 1,
      max: MAX_DOWNLOAD_LIMIT,
      inputmode: 'numeric',
      placeholder: t('owner.noLimit'),
      value: f.maxDownloads ?? undefined,
    });
    const setLimit = h('button', { type: 'button', class: 'secondary', id: id('set-limit') }, t('settings.saveLimit'));
    setLimit.addEventListener('click', () => {
      const value = limit.value.trim();
      void state
        .setLimit(f.folderId, value ? Number(value) : null)
        .then(() => done(t('settings.limitSaved')))
        .then(redrawRow)
        .catch(fail);
    });

    const remove = h('button', { type: 'button', class: 'danger', id: id('delete') }, t('settings.delete'));
    remove.addEventListener('click', () => {
      if (!confirm(t('settings.deleteConfirm'))) return;
      remove.disabled = true;
      void state
        .delete(f.folderId)
        .then(() => {
          announce(t('me.deleted', { title: f.title }));
          draw();
          heading.focus();
        })
        .catch((error: unknown) => {
          remove.disabled = false;
          fail(error);
        });
    });

    // Notifications are read when the panel is first opened: one request per folder opened, not per row.
    const panel = h('details', { class: 'me-manage', id: id('manage') });
    // "Manage" on screen (the title is just above); the folder's name for a screen reader.
    const summary = h('summary', { 'aria-label': t('owner.manageNamed', { name: f.title }) }, t('owner.manage'));
    let notifications: HTMLElement | null = null;
    panel.addEventListener('toggle', () => {
      if (!panel.open || notifications) return;
      notifications = notifyCard(
        {
          mode: f.mode,
          notifications: () => state.notifications(f.folderId),
          setNotifications: (email, events, language) =>
            state.setNotifications(
              f.folderId,
              f.mode === 'send'
                ? { email, onDownload: events.download, language }
                : { email, onDownload: events.download, onUpload: events.upload, language },
            ),
          clearNotifications: () => state.clearNotifications(f.folderId),
        },
        id(''),
        'h3',
      );
      remove.parentElement?.before(notifications);
    });

    function redrawRow(): void {
      const now = state.folders.find((x) => x.folderId === f.folderId);
      if (!now) return;
      const shown = main().querySelector(`li[data-folder="${f.folderId}"] .me-until`);
      if (shown) shown.textContent = untilText(now);
    }

    panel.append(
      summary,
      h(
        'p',
        {},
        h('label', { for: id('expiry') }, t('settings.expiryLabel')),
        h('span', { class: 'row' }, expiry, setExpiry),
      ),
      h(
        'p',
        {},
        h('label', { for: id('limit') }, t('settings.limitLabel')),
        h('span', { class: 'row' }, limit, setLimit),
      ),
      said,
      h('p', {}, remove),
    );
    return panel;
  }

  void show('newest');
}

/** When its files go: an empty folder is deleted at its upload deadline unless a file arrives. */
function untilText(f: AccountFolder): string {
  if (f.state === 'empty' && f.expiresAt === null) return t('me.emptyUntil', { date: formatDate(f.deleteAfter) });
  return t('settings.until', { date: formatDate(f.expiresAt ?? f.deleteAfter) });
}

/** Signed out (or the session ended): what the page is for, and the way to sign in. */
function signedOut(config: SiteConfig): HTMLElement {
  // The sign-in comes back to this page (sign-in's own rule for the address, src/transfer/account.ts).
  const login = signInUrl(config.base, sitePagePath('myFolders'));
  return h(
    'section',
    { class: 'card', id: 'me-signed-out' },
    h('p', {}, t('me.signedOut')),
    h('p', {}, h('a', { href: login, class: 'button', id: 'me-sign-in' }, t('me.signIn'))),
  );
}
