import { handOverFiles } from '../adapters/drop.js';
import { browserStore, handOverUnlocked } from '../adapters/storage.js';
import type { SiteConfig } from '../config.js';
import type { Mode } from '../core.js';
import { MAX_DOWNLOAD_LIMIT, MAX_NOTE_CHARS, MAX_TITLE_LENGTH } from '../core.js';
import { type MessageKey, t, tParts } from '../i18n/index.js';
import { createFolder } from '../state/create.js';
import type { PickedFile } from '../state/index.js';
import { formatDate } from './dates.js';
import { expiryChoices } from './expiry.js';
import { describeError, h, notice, render, setTitle } from './ui.js';
import { emptyNotice, pickerZone } from './upload.js';

const MODE_HELP: Record<Mode, MessageKey> = { send: 'mode.send', share: 'mode.share', request: 'mode.request' };

/** A field's "used / allowed" counter, so that nothing is cut at the limit without a word. */
function counter(field: HTMLInputElement | HTMLTextAreaElement, max: number): HTMLElement {
  const out = h('span', { class: 'muted counter', id: `${field.id}-count` });
  const paint = () => {
    out.textContent = t('home.counter', { count: field.value.length, max });
  };
  field.addEventListener('input', paint);
  paint();
  return out;
}

/**
 * The home page: a new folder, owned by this browser from the moment it is made (create and claim
 * in one step, `POST {api}/folders`), with its expiry, download limit, password and note. Dropping
 * or picking files makes the folder with these settings and starts their upload at once (drop and
 * go); "Create a folder" makes an empty one. Either way the folder's page opens in this document
 * (`open`), with the focus on its heading.
 */
export function homePage(config: SiteConfig, open: (link: string) => void): void {
  setTitle();
  const hint = (id: string, text: string) => h('span', { class: 'muted hint', id }, text);
  const title = h('input', {
    type: 'text',
    id: 'new-title',
    maxlength: MAX_TITLE_LENGTH,
    autocomplete: 'off',
    'aria-describedby': 'title-help new-title-count',
  });
  // Left empty, the folder is named by this moment in the person's language and time zone (the
  // server's own default is English and UTC); the field shows that name as its placeholder.
  const defaultTitle = () => t('home.defaultTitle', { date: formatDate(Date.now()) });
  title.placeholder = defaultTitle();
  // Short option texts (they fit a phone's select in every language); the chosen mode explained below.
  const mode = h(
    'select',
    { id: 'new-mode', 'aria-describedby': 'mode-help' },
    h('option', { value: 'send' }, t('home.modeSend')),
    h('option', { value: 'share' }, t('home.modeShare')),
    h('option', { value: 'request' }, t('home.modeRequest')),
  );
  const modeHelp = hint('mode-help', t(MODE_HELP.send));
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
    max: MAX_DOWNLOAD_LIMIT,
    inputmode: 'numeric',
    placeholder: t('owner.noLimit'),
    'aria-describedby': 'limit-help',
  });
  const limitError = h('span', { class: 'field-error', id: 'limit-error', hidden: true });
  const password = h('input', {
    type: 'password',
    id: 'new-password',
    autocomplete: 'new-password',
    'aria-describedby': 'password-help',
  });
  const note = h('textarea', {
    id: 'new-note',
    rows: 3,
    maxlength: MAX_NOTE_CHARS,
    'aria-describedby': 'note-help new-note-count',
  });
  const noteLabel = h('label', { for: 'new-note' }, t('home.noteLabel'));
  // The password's advice shows once the field is used, so that the row before the drop zone stays
  // compact; it is the field's description (read with it) either way.
  const passwordHelp = hint('password-help', t('home.passwordHelp'));
  passwordHelp.hidden = true;
  const showHelp = () => {
    passwordHelp.hidden = document.activeElement !== password && password.value === '';
  };
  password.addEventListener('focus', showHelp);
  password.addEventListener('blur', showHelp);
  password.addEventListener('input', showHelp);
  const passwordRow = h(
    'p',
    { id: 'password-row' },
    h('label', { for: 'new-password' }, t('home.passwordLabel')),
    password,
    passwordHelp,
  );
  // Visitors of a request folder upload only: they never download, so a limit means nothing there.
  const limitRow = h(
    'p',
    { id: 'limit-row' },
    h('label', { for: 'new-limit' }, t('home.limitLabel')),
    limit,
    limitError,
    hint('limit-help', t('home.limitHelp')),
  );
  // A request folder has no password: visitors' files are sealed to the owner's key instead.
  mode.addEventListener('change', () => {
    passwordRow.hidden = mode.value === 'request';
    limitRow.hidden = mode.value === 'request';
    noteLabel.textContent = t(mode.value === 'request' ? 'home.noteLabelRequest' : 'home.noteLabel');
    modeHelp.textContent = t(MODE_HELP[mode.value as Mode]);
  });

  /**
   * The limit, checked by the page (not the browser's bubble, which speaks the browser's language):
   * empty for none, or a whole number from 1 to MAX_DOWNLOAD_LIMIT. Undefined when it is wrong.
   */
  const limitValue = (): number | null | undefined => {
    const text = limit.value.trim();
    const value = Number(text);
    // A number field whose text is not a number (e.g. "1e") reads as "" but is not valid.
    const ok =
      text === '' ? !limit.validity.badInput : Number.isInteger(value) && value >= 1 && value <= MAX_DOWNLOAD_LIMIT;
    limitError.hidden = ok;
    limitError.textContent = ok ? '' : t('home.limitInvalid');
    // Also what the browser reports for the field (assistive tools read it), in the page's language.
    limit.setCustomValidity(limitError.textContent);
    if (ok) limit.removeAttribute('aria-invalid');
    else limit.setAttribute('aria-invalid', 'true');
    limit.setAttribute('aria-describedby', ok ? 'limit-help' : 'limit-error limit-help');
    if (!ok) return undefined;
    return text === '' ? null : value;
  };
  limit.addEventListener('input', () => {
    if (limit.hasAttribute('aria-invalid')) limitValue();
  });

  const status = h('div', { role: 'status', id: 'create-status' });
  const button = h('button', { type: 'submit' }, t('home.create'));
  let busy = false;
  const create = async (files: PickedFile[] | null): Promise<void> => {
    if (busy) return;
    // A limit typed before switching to request mode is not sent (nor checked): the field is hidden.
    const maxDownloads = mode.value === 'request' ? null : limitValue();
    if (maxDownloads === undefined) {
      limit.focus();
      return;
    }
    busy = button.disabled = true;
    const withPassword = password.value !== '' && mode.value !== 'request';
    status.replaceChildren(t(withPassword ? 'home.creatingPassword' : 'home.creating'));
    try {
      const created = await createFolder(
        new URL(config.api, location.href).href,
        browserStore,
        {
          mode: mode.value as Mode,
          title: title.value.trim() || defaultTitle(),
          expiresInHours: Number(expiry.value),
          ...(maxDownloads !== null ? { maxDownloads } : {}),
          note: note.value.trim(),
          password: password.value,
        },
        { retry: { retries: 2 } },
      );
      // A password folder's derived key goes to its page in this tab only, once (never kept).
      if (created.unlocked) handOverUnlocked(created.folderId, created.unlocked);
      if (files) handOverFiles(created.folderId, files);
      open(created.link);
    } catch (error) {
      status.replaceChildren(notice(t('home.createFailed', { reason: describeError(error) }), 'error'));
      busy = button.disabled = false;
    }
  };
  const form = h(
    'form',
    {
      // The page checks the fields itself, in its own language (docs/site.md).
      novalidate: true,
      onsubmit: (e: Event) => {
        e.preventDefault();
        void create(null);
      },
    },
    h(
      'p',
      {},
      h('label', { for: 'new-title' }, t('home.titleLabel')),
      title,
      counter(title, MAX_TITLE_LENGTH),
      hint('title-help', t('home.titleHelp')),
    ),
    h('p', {}, h('label', { for: 'new-expiry' }, t('home.expiryLabel')), expiry),
    limitRow,
    h('p', {}, noteLabel, note, counter(note, MAX_NOTE_CHARS), hint('note-help', t('home.noteHelp'))),
    h('p', { class: 'muted', id: 'settings-later' }, t('home.settingsLater')),
    button,
    status,
  );
  const drop = pickerZone(t('home.dropHere'), (files) => {
    // Only empty files: no folder is made for nothing, and the page says why.
    const empty = emptyNotice(files);
    if (empty && files.every((f) => f.file.size === 0)) status.replaceChildren(empty);
    else if (files.length) void create(files);
  });
  // What cannot be changed once files are in (who can do what, the password) comes before the drop
  // zone, in one compact row as Send's options; what can be changed later follows it.
  const beforeDrop = h(
    'div',
    { class: 'options-row', id: 'before-drop' },
    h('p', {}, h('label', { for: 'new-mode' }, t('home.modeLabel')), mode, modeHelp),
    passwordRow,
  );
  render(
    h('h1', {}, t('home.heading')),
    h('p', {}, t('home.intro')),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'create-h' },
      h('h2', { id: 'create-h' }, t('home.newFolder')),
      beforeDrop,
      drop,
      form,
    ),
    h('p', { class: 'muted' }, ...tParts('home.docs', { link: h('a', { href: config.docsUrl }, t('home.docsLink')) })),
  );
}
