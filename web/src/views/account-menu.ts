import type { SiteConfig } from '../config.js';
import { type AccountView, getAccount, signInUrl, signOut, sitePagePath } from '../core.js';
import { type MessageKey, t } from '../i18n/index.js';
import { h, notice } from './ui.js';

/**
 * The header's account corner: "Sign in" where the instance has sign-in, the person's
 * name with a menu (My folders, API keys, sign out) once signed in, nothing on an instance without
 * sign-in. Also says what became of a sign-in that did not end in a session (`?signin=…`, set by
 * the server's callback), once, above the page.
 */
const OUTCOMES: Record<string, MessageKey> = {
  refused: 'signin.refused',
  cancelled: 'signin.cancelled',
  failed: 'signin.failed',
  expired: 'signin.expired',
};

let known: AccountView | null = null;

/** Who is signed in, asked once per page load (the header and the keys page share it). */
export async function currentAccount(config: SiteConfig): Promise<AccountView | null> {
  if (known) return known;
  try {
    known = await getAccount(config.base);
  } catch {
    known = null;
  }
  return known;
}

/** Draws (again) the account corner into the page's header. */
export async function accountMenu(config: SiteConfig): Promise<void> {
  const view = await currentAccount(config);
  document.getElementById('account-menu')?.remove();
  const header = document.querySelector('header.top');
  if (!header || !view?.signInAvailable) return;
  const returnTo = location.pathname.startsWith(config.base) ? `/${location.pathname.slice(config.base.length)}` : '/';
  if (!view.account) {
    header.append(
      h(
        'a',
        { id: 'account-menu', class: 'account-link', href: signInUrl(config.base, returnTo) },
        t('account.signIn'),
      ),
    );
    return;
  }
  const out = h('button', { type: 'button', id: 'sign-out' }, t('account.signOut'));
  out.addEventListener('click', () => {
    out.disabled = true;
    void signOut(config.base)
      .catch(() => undefined)
      .then(() => location.assign(config.base));
  });
  const who = view.account.name ?? view.account.email ?? t('account.menu');
  header.append(
    h(
      'details',
      { id: 'account-menu', class: 'account-menu' },
      h('summary', {}, who),
      h(
        'div',
        { class: 'account-items' },
        view.account.email ? h('span', { class: 'muted' }, view.account.email) : null,
        h('a', { href: `${config.base}${sitePagePath('myFolders').slice(1)}` }, t('account.myFolders')),
        h(
          'a',
          { href: `${config.base}${sitePagePath('account').slice(1)}`, id: 'account-keys-link' },
          t('account.keys'),
        ),
        out,
      ),
    ),
  );
}

/** The notice of a sign-in that made no session, or null; the parameter leaves the address bar. */
export function signInOutcome(): HTMLElement | null {
  const params = new URLSearchParams(location.search);
  const outcome = params.get('signin');
  if (!outcome) return null;
  params.delete('signin');
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  const key = OUTCOMES[outcome];
  if (!key) return null;
  const box = notice(t(key), outcome === 'cancelled' ? 'info' : 'error');
  box.id = 'signin-outcome';
  return box;
}
