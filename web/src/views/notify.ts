import { siteConfig } from '../config.js';
import type { SiteNotifications } from '../core.js';
import { t } from '../i18n/index.js';
import type { FolderSession } from '../state/index.js';
import { announce, describeError, h } from './ui.js';

/**
 * The owner's notification control: an e-mail address and the events to be told about (someone
 * downloads; in share and request folders, someone uploads). Only the owner sees it; the setting
 * is read from the server, so the page shows what the server will act on.
 */
export function notifySection(session: FolderSession): HTMLElement | null {
  if (!session.info.isOwner) return null;
  const uploads = session.info.mode !== 'send';
  const email = h('input', {
    type: 'email',
    id: 'notify-email',
    autocomplete: 'email',
    placeholder: 'you@example.com',
  });
  const onDownload = h('input', { type: 'checkbox', id: 'notify-download' });
  const onUpload = uploads ? h('input', { type: 'checkbox', id: 'notify-upload' }) : null;
  const current = h('p', { id: 'notify-current', role: 'status' }, t('notify.reading'));
  // Whether the address may be mailed (issue 21): it gets nothing but one confirmation mail until it
  // follows the link, and nothing at all once it refused this server's mail.
  const emailState = h('p', { id: 'notify-email-status', class: 'muted', hidden: true });
  const save = h('button', { type: 'submit', id: 'notify-save' }, t('notify.save'));
  const clear = h('button', { type: 'button', class: 'secondary', id: 'notify-clear' }, t('notify.stop'));

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
    } finally {
      save.disabled = clear.disabled = false;
    }
  };
  void run(async () => (await session.ownerActions.notifications())!, t('notify.loaded'));
  clear.addEventListener('click', () => void run(() => session.ownerActions.clearNotifications(), t('notify.stopped')));
  const heading = [
    h('h2', { id: 'notify-h' }, t('notify.heading')),
    h('p', { class: 'muted' }, t('notify.private')),
    current,
  ];
  // A server without SMTP_URL refuses an address: say so before anything is typed, offer no field,
  // and keep what still works (the setting as it stands, a webhook set by the API, and stopping it).
  if (!siteConfig().mail)
    return h(
      'section',
      { class: 'card', 'aria-labelledby': 'notify-h', id: 'notify' },
      ...heading,
      h('p', { id: 'notify-no-mail' }, t('notify.noMail')),
      h('div', { class: 'row' }, clear),
    );

  const form = h(
    'form',
    { id: 'notify-form' },
    h('label', { for: 'notify-email' }, t('notify.email')),
    email,
    h('div', {}, onDownload, h('label', { for: 'notify-download' }, ` ${t('notify.onDownload')}`)),
    onUpload ? h('div', {}, onUpload, h('label', { for: 'notify-upload' }, ` ${t('notify.onUpload')}`)) : null,
    h('div', { class: 'row' }, save, clear),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = email.value.trim() || null;
    void run(
      () =>
        session.ownerActions.setNotifications(address, {
          download: onDownload.checked,
          upload: onUpload?.checked ?? false,
        }),
      t('notify.saved'),
    );
  });
  return h('section', { class: 'card', 'aria-labelledby': 'notify-h', id: 'notify' }, ...heading, emailState, form);
}
