import { t } from '../i18n/index.js';
import type { FolderSession, PasswordRequired } from '../state/index.js';
import { describeError, h, notice, render, setTitle } from './ui.js';

/**
 * The password prompt of a folder that has one: the link's key alone does not decrypt it. The
 * password is checked in this browser against the folder's key check (`ske`); nothing about it
 * reaches the server. A wrong one says so, and the person tries again.
 */
export function passwordPrompt(locked: PasswordRequired, opened: (session: FolderSession) => void): void {
  setTitle(locked.info.title);
  const input = h('input', {
    type: 'password',
    id: 'folder-password',
    autocomplete: 'current-password',
    required: true,
    'aria-describedby': 'password-help',
  });
  const status = h('div', { id: 'password-status', role: 'status' });
  const button = h('button', { type: 'submit', id: 'unlock' }, t('password.open'));
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        if (!input.value) return;
        button.disabled = true;
        status.replaceChildren(t('password.checking'));
        try {
          const session = await locked.unlock(input.value);
          if (session) return opened(session);
          status.replaceChildren(notice(t('password.wrong'), 'error'));
          status.firstElementChild?.setAttribute('id', 'wrong-password');
          input.select();
        } catch (error) {
          status.replaceChildren(notice(t('password.failed', { reason: describeError(error) }), 'error'));
        }
        button.disabled = false;
      },
    },
    h('p', {}, h('label', { for: 'folder-password' }, t('password.label')), h('span', { class: 'row' }, input, button)),
    status,
  );
  render(
    h('h1', { id: 'folder-title' }, locked.info.title),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'password-h' },
      h('h2', { id: 'password-h' }, t('password.heading')),
      h('p', { id: 'password-help' }, t('password.help')),
      form,
    ),
  );
  input.focus();
}
