import { siteConfig } from '../config.js';
import type { Mode, SiteNotifications } from '../core.js';
import { language, t } from '../i18n/index.js';
import type { FolderSession } from '../state/index.js';
import { announce, describeError, h } from './ui.js';

/** What the notification control acts on: an opened folder's owner, or My folders' account. */
export interface NotifyTarget {
  readonly mode: Mode;
  notifications(): Promise<SiteNotifications>;
  /** `language`: the page's, for the confirmation mail's words. */
  setNotifications(
    email: string | null,
    events: { download: boolean; upload: boolean },
    language: string,
  ): Promise<SiteNotifications>;
  clearNotifications(): Promise<SiteNotifications>;
}

/**
 * The owner's notification control: an e-mail address and the events to be told about (someone
 * downloads; in share and request folders, someone uploads). Only the owner sees it; the setting
 * is read from the server, so the page shows what the server will act on.
 */
export function notifySection(session: FolderSession): HTMLElement | null {
  if (!session.info.isOwner) return null;
  const actions = session.ownerActions;
  return notifyCard({
    mode: session.info.mode,
    notifications: async () => (await actions.notifications())!,
    setNotifications: (email, events, lang) => actions.setNotifications(email, events, lang),
    clearNotifications: () => actions.clearNotifications(),
  });
}

/**
 * The control itself. `prefix` keeps its element ids apart when a page shows several (My folders
 * shows one per folder, under a level-3 heading).
 */
export function notifyCard(target: NotifyTarget, prefix = '', level: 'h2' | 'h3' = 'h2'): HTMLElement {
  const id = (name: string) => `${prefix}${name}`;
  const uploads = target.mode !== 'send';
  const email = h('input', {
    type: 'email',
    id: id('notify-email'),
    autocomplete: 'email',
    placeholder: 'you@example.com',
  });
  const onDownload = h('input', { type: 'checkbox', id: id('notify-download') });
  const onUpload = uploads ? h('input', { type: 'checkbox', id: id('notify-upload') }) : null;
  const current = h('p', { id: id('notify-current'), role: 'status' }, t('notify.reading'));
  // Whether the address may be mailed: it gets nothing but one confirmation mail until it
  // follows the link, and nothing at all once it refused this server's mail.
  const emailState = h('p', { id: id('notify-email-status'), class: 'muted', hidden: true });
  const save = h('button', { type: 'submit', id: id('notify-save') }, t('notify.save'));
  const clear = h('button', { type: 'button', class: 'secondary', id: id('notify-clear') }, t('notify.stop'));
  // Without mail, "off" and "Stop" say and do nothing: shown only while something (a webhook) is on.
  const mail = siteConfig().mail;
  if (!mail) current.hidden = clear.hidden = true;

  const show = (s: SiteNotifications) => {
    email.value = s.email ?? '';
    onDownload.checked = s.onDownload;
    if (onUpload) onUpload.checked = s.onUpload;
    const events = s.onDownload
      ? t(s.onUpload ? 'notify.eventsBoth' : 'notify.eventsDownload')
      : s.onUpload
        ? t('notify.eventsUpload')
        : '';
    const to = s.email
      ? s.webhookUrl
        ? t('notify.toBoth', { email: s.email })
        : s.email
      : s.webhookUrl
        ? t('notify.toWebhook')
        : '';
    current.textContent = events && to ? t('notify.on', { events, to }) : t('notify.off');
    current.dataset.state = events && to ? 'on' : 'off';
    if (!mail) current.hidden = clear.hidden = !(events && to);
    const pending = s.email !== null && s.emailStatus === 'pending';
    const refused = s.email !== null && s.emailStatus === 'refused';
    emailState.hidden = !pending && !refused;
    emailState.dataset.state = s.emailStatus ?? 'none';
    emailState.textContent = pending
      ? t('notify.emailPending', { email: s.email ?? '' })
      : refused
        ? t('notify.emailRefused', { email: s.email ?? '' })
        : '';
  };
  const run = async (work: () => Promise<SiteNotifications>, done: string) => {
    save.disabled = clear.disabled = true;
    try {
      show(await work());
      announce(done);
    } catch (error) {
      current.textContent = describeError(error);
      current.dataset.state = 'error';
      current.hidden = false;
    } finally {
      save.disabled = clear.disabled = false;
    }
  };
  void run(() => target.notifications(), t('notify.loaded'));
  clear.addEventListener('click', () => void run(() => target.clearNotifications(), t('notify.stopped')));
  const heading = [
    h(level, { id: id('notify-h') }, t('notify.heading')),
    h('p', { class: 'muted' }, t('notify.private')),
    current,
  ];
  // A server without SMTP_URL refuses an address: say so before anything is typed, offer no field,
  // and keep what still works (the setting as it stands, a webhook set by the API, and stopping it).
  if (!mail)
    return h(
      'section',
      { class: 'card', 'aria-labelledby': id('notify-h'), id: id('notify') },
      ...heading,
      h('p', { id: id('notify-no-mail') }, t('notify.noMail')),
      h('div', { class: 'row' }, clear),
    );

  const form = h(
    'form',
    { id: id('notify-form') },
    h('label', { for: id('notify-email') }, t('notify.email')),
    email,
    h('div', {}, onDownload, h('label', { for: id('notify-download') }, ` ${t('notify.onDownload')}`)),
    onUpload ? h('div', {}, onUpload, h('label', { for: id('notify-upload') }, ` ${t('notify.onUpload')}`)) : null,
    h('div', { class: 'row' }, save, clear),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = email.value.trim() || null;
    void run(
      () =>
        target.setNotifications(
          address,
          { download: onDownload.checked, upload: onUpload?.checked ?? false },
          language(),
        ),
      t('notify.saved'),
    );
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': id('notify-h'), id: id('notify') },
    ...heading,
    emailState,
    form,
  );
}
