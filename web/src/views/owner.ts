import type { SiteConfig } from '../config.js';
import { MAX_NOTE_CHARS } from '../core.js';
import { t } from '../i18n/index.js';
import type { FolderSession } from '../state/index.js';
import { formatDate } from './dates.js';
import { expiryChoices, selectNearest } from './expiry.js';
import { announce, describeError, h, notice, render, setTitle } from './ui.js';

/**
 * The owner's controls: how long the files stay, the folder's download limit, the note to
 * recipients, and deleting the folder. Every one is enforced by the server (PATCH/DELETE
 * {api}/folders/:id, owner only); the page only shows what it answers.
 */
export function ownerSection(session: FolderSession, config: SiteConfig): HTMLElement | null {
  const { info } = session;
  if (!info.isOwner) return null;
  const request = info.mode === 'request';
  const said = h('div', { id: 'owner-status', role: 'status' });
  const act = (what: string, work: () => Promise<unknown>) =>
    work()
      .then(() => announce(what))
      .catch((error: unknown) => said.replaceChildren(notice(describeError(error), 'error')));

  // Expiry: a new period from now (extend or shorten), up to the operator's maximum.
  const expiry = h(
    'select',
    { id: 'owner-expiry' },
    ...expiryChoices(info.maxExpiresInHours).map((c) => h('option', { value: c.hours }, c.label)),
  );
  // Preselected: the choice nearest to what is left now (so "Set" alone changes little).
  selectNearest(expiry, info.expiresAt);
  const setExpiry = h('button', { type: 'button', class: 'secondary', id: 'save-expiry' }, t('settings.setExpiry'));
  setExpiry.addEventListener(
    'click',
    () =>
      void act(t('settings.expiryChanged'), () =>
        session.ownerActions.updateFolder({ expiresAt: Date.now() + Number(expiry.value) * 3_600_000 }),
      ),
  );
  const until =
    info.expiresAt !== null ? t('settings.until', { date: formatDate(info.expiresAt) }) : t('settings.empty');

  // The folder's download limit per file (a file's own limit, under Manage, wins).
  const limit = h('input', {
    type: 'number',
    id: 'owner-limit',
    min: 1,
    max: 1_000_000,
    inputmode: 'numeric',
    placeholder: t('owner.noLimit'),
    value: info.maxDownloads ?? undefined,
  });
  const setLimit = h('button', { type: 'button', class: 'secondary', id: 'save-limit' }, t('settings.saveLimit'));
  setLimit.addEventListener(
    'click',
    () =>
      void act(t('settings.limitSaved'), () =>
        session.ownerActions.updateFolder({ maxDownloads: limit.value.trim() ? Number(limit.value) : null }),
      ),
  );

  // "One recipient": the folder's limit of 1, the one folder-wide setting the
  // server has (docs/decisions.md): every file without its own limit can then be downloaded once.
  const one = h('button', { type: 'button', class: 'secondary', id: 'one-recipient' }, t('settings.oneRecipient'));
  one.addEventListener('click', () => {
    limit.value = '1';
    void act(t('settings.limitSaved'), () => session.ownerActions.updateFolder({ maxDownloads: 1 }));
  });

  // The note, encrypted with the folder key like the names.
  const note = h('textarea', { id: 'owner-note', rows: 3, maxlength: MAX_NOTE_CHARS });
  void session.note().then((text) => {
    note.value = text ?? '';
  });
  const setNote = h('button', { type: 'button', class: 'secondary', id: 'save-note' }, t('settings.saveNote'));
  setNote.addEventListener(
    'click',
    () =>
      void act(t('settings.noteSaved'), () => session.ownerActions.updateFolder({ note: note.value.trim() || null })),
  );

  const remove = h('button', { type: 'button', class: 'danger', id: 'delete-folder' }, t('settings.delete'));
  remove.addEventListener('click', () => {
    if (!confirm(t('settings.deleteConfirm'))) return;
    remove.disabled = true;
    void session.ownerActions
      .deleteFolder()
      .then(() => {
        setTitle(t('settings.deleted'));
        render(
          h('h1', { id: 'folder-deleted' }, t('settings.deleted')),
          h('p', {}, t('settings.deletedText')),
          h('p', {}, h('a', { href: config.base }, t('settings.newFolder'))),
        );
        announce(t('settings.deleted'));
      })
      .catch((error: unknown) => {
        remove.disabled = false;
        said.replaceChildren(notice(describeError(error), 'error'));
      });
  });

  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'settings-h', id: 'owner-settings' },
    h('h2', { id: 'settings-h' }, t('settings.heading')),
    h('p', { id: 'owner-until' }, until),
    h(
      'p',
      {},
      h('label', { for: 'owner-expiry' }, t('settings.expiryLabel')),
      h('span', { class: 'row' }, expiry, setExpiry),
    ),
    // A request folder's visitors upload only and its owner has no limit: a download limit means nothing there.
    request
      ? null
      : h(
          'p',
          {},
          h('label', { for: 'owner-limit' }, t('settings.limitLabel')),
          h('span', { class: 'row' }, limit, setLimit, one),
          h('span', { class: 'muted', id: 'one-recipient-help' }, t('settings.oneRecipientHelp')),
        ),
    // The note leads the page of whoever opens the link: in a request folder, those who upload.
    h(
      'p',
      {},
      h('label', { for: 'owner-note' }, t(request ? 'settings.noteLabelRequest' : 'settings.noteLabel')),
      note,
      h('span', { class: 'row' }, setNote),
    ),
    said,
    h('p', {}, remove),
  );
}

const KIND_TEXT = { upload: 'activity.upload', download: 'activity.download', delete: 'activity.delete' } as const;

/** The newest uploads, downloads and deletions, with times (and addresses if the operator keeps them). */
export function activitySection(
  session: FolderSession,
  files: { ready: Promise<void>; names(): Map<string, string> } | null,
): HTMLElement | null {
  if (!session.info.isOwner) return null;
  const list = h('ul', { id: 'activity', class: 'activity', 'aria-busy': 'true' });
  const load = async () => {
    // A file still here is named from the list; a deleted one from its deletion's line (the
    // encrypted name the server kept, decrypted by OwnerActions), every line of it included.
    const { events, deletedNames } = await session.ownerActions.activity();
    await files?.ready;
    const known = new Map([...deletedNames, ...(files?.names() ?? [])]);
    list.removeAttribute('aria-busy');
    list.replaceChildren(
      ...(events.length
        ? events
            .slice(0, 20)
            .map((e) =>
              h(
                'li',
                { 'data-kind': e.kind },
                h('span', { class: 'muted' }, formatDate(e.at)),
                ` ${t(KIND_TEXT[e.kind])} `,
                e.fileId ? h('bdi', {}, known.get(e.fileId) ?? t('activity.gone')) : '',
                e.ip ? h('span', { class: 'muted' }, ` · ${e.ip}`) : null,
              ),
            )
        : [h('li', { class: 'muted' }, t('activity.none'))]),
    );
  };
  const section = h(
    'section',
    { class: 'card', 'aria-labelledby': 'activity-h' },
    h('h2', { id: 'activity-h' }, t('activity.heading')),
    list,
  );
  void load().catch((error: unknown) => list.replaceChildren(h('li', {}, notice(describeError(error), 'error'))));
  const stop = session.on('changed', () => {
    if (!section.isConnected) return stop();
    void load().catch(() => {});
  });
  return section;
}
