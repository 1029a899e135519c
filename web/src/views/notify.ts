import type { SiteNotifications } from '../../../src/contract/site.js';
import type { FolderSession } from '../session.js';
import { announce, describeError, h } from '../ui.js';

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
  const current = h('p', { id: 'notify-current', role: 'status' }, 'Reading the current setting…');
  const save = h('button', { type: 'submit', id: 'notify-save' }, 'Save');
  const clear = h('button', { type: 'button', class: 'secondary', id: 'notify-clear' }, 'Stop notifications');

  const show = (s: SiteNotifications) => {
    email.value = s.email ?? '';
    onDownload.checked = s.onDownload;
    if (onUpload) onUpload.checked = s.onUpload;
    const events = [s.onDownload && 'downloads', s.onUpload && 'uploads'].filter(Boolean).join(' and ');
    const to = [s.email, s.webhookUrl && 'your webhook'].filter(Boolean).join(' and ');
    current.textContent = events && to ? `You are told about ${events} at ${to}.` : 'Notifications are off.';
    current.dataset.state = events && to ? 'on' : 'off';
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
  void run(async () => (await session.notifications())!, 'Notification setting loaded');

  const form = h(
    'form',
    { id: 'notify-form' },
    h('label', { for: 'notify-email' }, 'E-mail address'),
    email,
    h('div', {}, onDownload, h('label', { for: 'notify-download' }, ' when someone downloads a file')),
    onUpload ? h('div', {}, onUpload, h('label', { for: 'notify-upload' }, ' when someone uploads a file')) : null,
    h('div', { class: 'row' }, save, clear),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = email.value.trim() || null;
    void run(
      () => session.setNotifications(address, { download: onDownload.checked, upload: onUpload?.checked ?? false }),
      'Notifications saved',
    );
  });
  clear.addEventListener('click', () => void run(() => session.clearNotifications(), 'Notifications stopped'));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'notify-h', id: 'notify' },
    h('h2', { id: 'notify-h' }, 'Notifications'),
    h(
      'p',
      { class: 'muted' },
      'Only you see this. The server keeps the address while the folder lives and deletes it with the folder.',
    ),
    current,
    form,
  );
}
