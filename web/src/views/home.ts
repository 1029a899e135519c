import { browserStore, handOverUnlocked } from '../adapters/storage.js';
import type { SiteConfig } from '../config.js';
import type { Mode } from '../core.js';
import { MAX_NOTE_CHARS } from '../core.js';
import { t, tParts } from '../i18n/index.js';
import { createFolder } from '../state/create.js';
import { expiryChoices } from './expiry.js';
import { describeError, h, notice, render, setTitle } from './ui.js';

/**
 * The home page: a new folder, owned by this browser from the moment it is made (create and claim
 * in one step, `POST {api}/folders`), with its expiry, download limit, password and note; then
 * the folder page.
 */
export function homePage(config: SiteConfig): void {
  setTitle();
  const hint = (id: string, text: string) => h('span', { class: 'muted hint', id }, text);
  const title = h('input', {
    type: 'text',
    id: 'new-title',
    maxlength: 200,
    autocomplete: 'off',
    'aria-describedby': 'title-help',
  });
  const mode = h(
    'select',
    { id: 'new-mode' },
    h('option', { value: 'send' }, t('home.modeSend')),
    h('option', { value: 'share' }, t('home.modeShare')),
    h('option', { value: 'request' }, t('home.modeRequest')),
  );
  // Up to the operator's maximum, the default (FREE_DOWNLOAD_HOURS) chosen and always among them.
  const choices = expiryChoices(config.maxExpiresInHours);
  if (!choices.some((c) => c.hours === config.defaultExpiresInHours))
    choices.unshift(...expiryChoices(config.defaultExpiresInHours).slice(-1));
  choices.sort((a, b) => a.hours - b.hours);
  const expiry = h(
    'select',
    { id: 'new-expiry' },
    ...choices.map((c) => h('option', { value: c.hours, selected: c.hours === config.defaultExpiresInHours }, c.label)),
  );
  const limit = h('input', {
    type: 'number',
    id: 'new-limit',
    min: 1,
    max: 1_000_000,
    inputmode: 'numeric',
    placeholder: t('owner.noLimit'),
    'aria-describedby': 'limit-help',
  });
  const password = h('input', {
    type: 'password',
    id: 'new-password',
    autocomplete: 'new-password',
    'aria-describedby': 'password-help',
  });
  const note = h('textarea', { id: 'new-note', rows: 3, maxlength: MAX_NOTE_CHARS, 'aria-describedby': 'note-help' });
  const passwordRow = h(
    'p',
    { id: 'password-row' },
    h('label', { for: 'new-password' }, t('home.passwordLabel')),
    password,
    hint('password-help', t('home.passwordHelp')),
  );
  // A request folder has no password: visitors' files are sealed to the owner's key instead.
  mode.addEventListener('change', () => {
    passwordRow.hidden = mode.value === 'request';
  });
  const status = h('div', { role: 'status', id: 'create-status' });
  const button = h('button', { type: 'submit' }, t('home.create'));
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        button.disabled = true;
        const withPassword = password.value !== '' && mode.value !== 'request';
        status.replaceChildren(t(withPassword ? 'home.creatingPassword' : 'home.creating'));
        try {
          const created = await createFolder(
            new URL(config.api, location.href).href,
            browserStore,
            {
              mode: mode.value as Mode,
              title: title.value.trim(),
              expiresInHours: Number(expiry.value),
              ...(limit.value.trim() ? { maxDownloads: Number(limit.value) } : {}),
              note: note.value.trim(),
              password: password.value,
            },
            { retry: { retries: 2 } },
          );
          // A password folder's derived key goes to its page in this tab only, once (never kept).
          if (created.unlocked) handOverUnlocked(created.folderId, created.unlocked);
          location.href = created.link;
        } catch (error) {
          status.replaceChildren(notice(t('home.createFailed', { reason: describeError(error) }), 'error'));
          button.disabled = false;
        }
      },
    },
    h('p', {}, h('label', { for: 'new-mode' }, t('home.modeLabel')), mode),
    h('p', {}, h('label', { for: 'new-title' }, t('home.titleLabel')), title, hint('title-help', t('home.titleHelp'))),
    h('p', {}, h('label', { for: 'new-expiry' }, t('home.expiryLabel')), expiry),
    h('p', {}, h('label', { for: 'new-limit' }, t('home.limitLabel')), limit, hint('limit-help', t('home.limitHelp'))),
    passwordRow,
    h('p', {}, h('label', { for: 'new-note' }, t('home.noteLabel')), note, hint('note-help', t('home.noteHelp'))),
    button,
    status,
  );
  render(
    h('h1', {}, t('home.heading')),
    h('p', {}, t('home.intro')),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'create-h' },
      h('h2', { id: 'create-h' }, t('home.newFolder')),
      form,
    ),
    h('p', { class: 'muted' }, ...tParts('home.docs', { link: h('a', { href: config.docsUrl }, t('home.docsLink')) })),
  );
}
