import { adminToken, saveAdminToken } from '../adapters/admin-token.js';
import type { SiteConfig } from '../config.js';
import { AdminClient, sitePagePath, WebfolderError } from '../core.js';
import { t } from '../i18n/index.js';
import { adminAccountsView } from './admin-accounts.js';
import { adminAuditView } from './admin-audit.js';
import { adminFoldersView } from './admin-folders.js';
import { adminStatsView } from './admin-stats.js';
import { h, main, render, setTitle } from './ui.js';

/**
 * The admin console at `/admin` (docs/organisations.md#admin-console): for a signed-in admin (their
 * session cookie proves it) or whoever types the break-glass ADMIN_TOKEN into its form (kept in this
 * tab's sessionStorage only). A frame with tabs: the folders, the statistics, and the audit log
 * (the audit helper's view, mounted here). It says plainly that titles are visible but names and
 * contents are encrypted and cannot be shown.
 */
export async function adminPage(config: SiteConfig, signal: AbortSignal): Promise<void> {
  setTitle(t('admin.title'));
  // The folder table needs more width than a folder page; the class goes when the router moves on.
  main().classList.add('wide');
  signal.addEventListener('abort', () => main().classList.remove('wide'));
  render(
    h('h1', { id: 'admin-title', tabindex: '-1' }, t('admin.title')),
    h('p', { class: 'muted' }, t('site.loading')),
  );
  const token = adminToken();
  const outcome = await probe(new AdminClient(adminBase(config), token));
  if (signal.aborted) return;
  if (outcome === 'ok') return showConsole(config, new AdminClient(adminBase(config), token), token !== null);
  if (token !== null) saveAdminToken(null);
  const signIn =
    outcome === 'refused' &&
    (await new AdminClient(adminBase(config), null).signInAvailable(`${config.base}api/account`));
  if (signal.aborted) return;
  showSignIn(
    config,
    signal,
    outcome === 'not-admin' ? t('admin.notAdmin') : token !== null ? t('admin.tokenWrong') : null,
    signIn,
  );
}

/**
 * Where the console calls the admin API: under the site's own path on the page's origin, where the
 * browser sends the session cookie (its path is the site's); BASE_URL's `/api/admin` is for the
 * token and scripts (docs/organisations.md#admin-console).
 */
function adminBase(config: SiteConfig): string {
  return config.base;
}

type Probe = 'ok' | 'refused' | 'not-admin';

/** Whether this client is an admin: the cheapest admin call, its refusal told apart. */
async function probe(client: AdminClient): Promise<Probe> {
  try {
    await client.stats();
    return 'ok';
  } catch (error) {
    if (error instanceof WebfolderError && error.status === 403) return 'not-admin';
    if (error instanceof WebfolderError && error.status === 401) return 'refused';
    throw error;
  }
}

function encryptedNote(): HTMLElement {
  return h('p', { class: 'notice', id: 'admin-encrypted' }, t('admin.encrypted'));
}

function showSignIn(config: SiteConfig, signal: AbortSignal, problem: string | null, signIn = false): void {
  const input = h('input', {
    id: 'admin-token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
    minlength: 32,
    'aria-describedby': 'admin-token-hint',
  });
  const error = h('p', { id: 'admin-token-error', class: 'field-error', role: 'alert' }, problem ?? '');
  const form = h(
    'form',
    { id: 'admin-sign-in', class: 'card' },
    // Sign-in is offered only where an identity provider is set up; else the token is the way in.
    h('p', {}, t(signIn ? 'admin.signInNeeded' : 'admin.tokenNeeded')),
    // With OIDC configured: sign in as an admin account and come back here.
    signIn
      ? h(
          'p',
          {},
          h(
            'a',
            {
              href: `${config.base}auth/login?return=${encodeURIComponent(sitePagePath('admin'))}`,
              class: 'button',
              id: 'admin-sign-in-link',
            },
            t('admin.signIn'),
          ),
        )
      : null,
    h('label', { for: 'admin-token' }, t('admin.token')),
    h(
      'div',
      { class: 'row' },
      input,
      h('button', { type: 'submit', id: 'admin-token-submit' }, t('admin.tokenSubmit')),
    ),
    h('p', { id: 'admin-token-hint', class: 'muted' }, t('admin.tokenHint')),
    error,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const token = input.value.trim();
    if (!token) return;
    const client = new AdminClient(adminBase(config), token);
    const outcome = await probe(client).catch(() => 'refused' as const);
    if (signal.aborted) return;
    if (outcome !== 'ok') {
      error.textContent = t('admin.tokenWrong');
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    saveAdminToken(token);
    showConsole(config, client, true);
  });
  render(h('h1', { id: 'admin-title', tabindex: '-1' }, t('admin.title')), encryptedNote(), form);
  input.focus();
}

function showConsole(config: SiteConfig, client: AdminClient, byToken: boolean): void {
  const tabs = [
    { id: 'folders', label: t('admin.tab.folders'), view: () => adminFoldersView(client) },
    { id: 'stats', label: t('admin.tab.stats'), view: () => adminStatsView(client) },
    {
      id: 'audit',
      label: t('admin.tab.audit'),
      view: () => adminAuditView((path, init) => client.request(path, init)),
    },
    {
      id: 'accounts',
      label: t('accounts.title'),
      view: () => adminAccountsView((path, init) => client.request(path, init)),
    },
  ];
  const panel = h('div', { id: 'admin-panel', role: 'tabpanel', tabindex: '0' });
  const buttons = tabs.map((tab) =>
    h(
      'button',
      { type: 'button', role: 'tab', id: `admin-tab-${tab.id}`, class: 'tab', 'aria-controls': 'admin-panel' },
      tab.label,
    ),
  );
  const select = (i: number, focus = false) => {
    buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(i === j));
      b.tabIndex = i === j ? 0 : -1;
    });
    panel.setAttribute('aria-labelledby', buttons[i]!.id);
    panel.replaceChildren(tabs[i]!.view());
    if (focus) buttons[i]!.focus();
  };
  buttons.forEach((b, i) => {
    b.addEventListener('click', () => select(i));
    // The tabs pattern: arrows move between tabs, Home and End to the ends; Tab goes into the panel.
    b.addEventListener('keydown', (e) => {
      const n = buttons.length;
      // In a right-to-left page the tabs run from the right: the left arrow goes on.
      const on = document.documentElement.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
      const back = on === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
      const next = { [on]: i + 1, [back]: i - 1 + n, Home: 0, End: n - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      select(next % n, true);
    });
  });
  const forget = byToken
    ? h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          id: 'admin-forget',
          onclick: () => {
            saveAdminToken(null);
            showSignIn(config, new AbortController().signal, null);
          },
        },
        t('admin.signOut'),
      )
    : null;
  render(
    h('div', { class: 'row admin-head' }, h('h1', { id: 'admin-title', tabindex: '-1' }, t('admin.title')), forget),
    encryptedNote(),
    h('div', { role: 'tablist', class: 'tabs', 'aria-label': t('admin.title') }, ...buttons),
    panel,
  );
  select(0);
  main().querySelector<HTMLElement>('#admin-title')?.focus();
}
