import type { SiteConfig } from '../config.js';
import { type ApiKeyView, createApiKey, listApiKeys, revokeApiKey, signInUrl, sitePagePath } from '../core.js';
import { t } from '../i18n/index.js';
import { currentAccount } from './account-menu.js';
import { formatDate } from './dates.js';
import { announce, describeError, h, notice, render, setTitle } from './ui.js';

/**
 * The API-keys panel at `<site>/account`: make a key (shown once, here), see each key's
 * name, when it was made and last used, and revoke it. Self-contained: another page (My folders) may
 * mount `apiKeysPanel` as it is.
 */
export async function accountKeysPage(config: SiteConfig): Promise<void> {
  setTitle(t('keys.title'));
  const view = await currentAccount(config);
  if (!view?.account) {
    const login = signInUrl(config.base, sitePagePath('account'));
    render(
      h('h1', { tabindex: -1 }, t('keys.title')),
      h(
        'section',
        { class: 'card', id: 'keys-signed-out' },
        h('p', {}, t('keys.signInFirst')),
        view?.signInAvailable ? h('p', {}, h('a', { href: login, class: 'button' }, t('account.signIn'))) : null,
      ),
    );
    return;
  }
  render(h('h1', { tabindex: -1 }, t('keys.title')), apiKeysPanel(config));
}

export function apiKeysPanel(config: SiteConfig): HTMLElement {
  const list = h('ul', { class: 'keys', id: 'keys-list' });
  const shown = h('div', { id: 'key-shown' });
  const name = h('input', { type: 'text', id: 'key-name', maxlength: 60, required: true, autocomplete: 'off' });
  const make = h('button', { type: 'submit', id: 'key-create' }, t('keys.create'));
  const form = h('form', { class: 'key-form' }, h('label', { for: 'key-name' }, t('keys.name')), name, make);
  const status = h('p', { role: 'status', class: 'muted' });

  const row = (key: ApiKeyView): HTMLElement => {
    const revoke = h('button', { type: 'button', class: 'danger' }, t('keys.revoke'));
    revoke.setAttribute('aria-label', `${t('keys.revoke')}: ${key.name}`);
    revoke.addEventListener('click', () => {
      revoke.disabled = true;
      void revokeApiKey(config.base, key.id)
        .then(async () => {
          announce(t('keys.revoked'));
          await refresh();
        })
        .catch((error: unknown) => {
          revoke.disabled = false;
          status.textContent = describeError(error);
        });
    });
    const used =
      key.lastUsedAt === null ? t('keys.neverUsed') : t('keys.lastUsed', { date: formatDate(key.lastUsedAt) });
    return h(
      'li',
      { class: 'key-row' },
      h('strong', {}, key.name),
      h('span', { class: 'muted' }, `${t('keys.made', { date: formatDate(key.createdAt) })} · ${used}`),
      revoke,
    );
  };

  const refresh = async () => {
    try {
      const keys = await listApiKeys(config.base);
      list.replaceChildren(...(keys.length ? keys.map(row) : [h('li', { class: 'muted' }, t('keys.none'))]));
    } catch (error) {
      status.textContent = describeError(error);
    }
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!name.value.trim()) return;
    make.disabled = true;
    void createApiKey(config.base, name.value.trim())
      .then(async (made) => {
        name.value = '';
        const value = h('input', {
          type: 'text',
          readonly: true,
          id: 'key-value',
          value: made.apiKey,
          class: 'key-value',
        });
        const copy = h('button', { type: 'button' }, t('keys.copy'));
        copy.addEventListener('click', () => {
          void navigator.clipboard?.writeText(made.apiKey).then(() => announce(t('keys.copied')));
        });
        shown.replaceChildren(notice(t('keys.shownOnce'), 'ok'), h('div', { class: 'key-copy' }, value, copy));
        value.select();
        await refresh();
      })
      .catch((error: unknown) => {
        status.textContent = describeError(error);
      })
      .finally(() => {
        make.disabled = false;
      });
  });

  void refresh();
  return h('section', { class: 'card', id: 'api-keys' }, h('p', {}, t('keys.intro')), form, shown, list, status);
}
