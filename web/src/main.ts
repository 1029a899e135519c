import { siteConfig } from './config.js';
import { sitePageOf } from './core.js';
import { chooseLanguage, languageSwitch } from './i18n/choose.js';
import { t } from './i18n/index.js';
import type { FolderSession } from './state/index.js';
import { accountKeysPage } from './views/account-keys.js';
import { accountMenu, signInOutcome } from './views/account-menu.js';
import { adminPage } from './views/admin.js';
import { showError } from './views/error.js';
import { folderPage } from './views/folder.js';
import { homePage } from './views/home.js';
import { myFoldersPage } from './views/my-folders.js';
import { watchConnection } from './views/offline.js';
import { h } from './views/ui.js';

/**
 * The page's entry: the router. Each page is a view (web/src/views); the folder page's state and
 * protocols live in the DOM-free session (web/src/state), its transfers in src/transfer.
 */
const config = siteConfig();
await chooseLanguage();
document.getElementById('home-link')?.setAttribute('href', config.base);

/** The page on screen: aborted when the router draws another (its session stops drawing and uploading). */
let page: AbortController | null = null;
let session: FolderSession | null = null;
/** The path the router last drew. */
let routed = '';

/**
 * Draws the page of the address bar. `focusHeading`: a folder the home page has just made (opened
 * in this document, so that dropped files survive) gets the focus on its share link (or heading), not the body.
 */
function route(focusHeading = false): void {
  page?.abort();
  routed = location.pathname;
  page = new AbortController();
  const { signal } = page;
  session = null;
  const rest = location.pathname.startsWith(config.base) ? location.pathname.slice(config.base.length) : '';
  const shown = sitePageOf(rest);
  if (shown.kind === 'folder')
    void folderPage(config, shown.folderId, signal).then((opened) => {
      if (signal.aborted) return;
      session = opened ?? null;
      // The owner's next step: the share link (its Copy button follows), else the heading.
      if (focusHeading) (document.getElementById('share-link') ?? document.getElementById('folder-title'))?.focus();
    });
  else if (shown.kind === 'home') {
    homePage(config, openMade);
    // A sign-in that made no session comes back here with ?signin=…: say what happened, once.
    const outcome = signInOutcome();
    if (outcome) document.getElementById('main')?.prepend(outcome);
  } else if (shown.kind === 'myFolders') myFoldersPage(config, signal);
  else if (shown.kind === 'account') void accountKeysPage(config);
  else if (shown.kind === 'admin') void adminPage(config, signal);
  else showError(config, t('error.pageNotFound'), t('error.pageNotFoundText'));
}

/** Opens a folder the home page made, in this document (a new history entry: Back returns home). */
function openMade(link: string): void {
  history.pushState(null, '', link);
  route(true);
}
// Back and Forward between pages; a fragment-only change is the hashchange listener's (below).
window.addEventListener('popstate', () => {
  if (location.pathname !== routed) route();
});

/** The header's words and the language switch (drawn again when the language changes). */
function header(): void {
  const tag = document.querySelector('header.top .tag');
  if (tag) tag.textContent = t('site.tagline');
  const skip = document.querySelector<HTMLAnchorElement>('a.skip');
  if (skip) skip.textContent = t('site.skip');
  void accountMenu(config);
  const loading = document.getElementById('loading');
  if (loading) loading.textContent = t('site.loading');
  footer();
  watchConnection(config);
  document.getElementById('language')?.remove();
  document.querySelector('header.top')?.append(
    languageSwitch(() => {
      header();
      // A folder page redraws from its session (a running upload keeps its progress); others route again.
      if (session) void session.refresh().catch(() => route());
      else route();
    }),
  );
}

/**
 * The foot of every page: the operator's legal pages (IMPRINT_URL, PRIVACY_URL) when set, and the
 * release with the start of its manifest's hash, linked to how to check it (the whole hash in its
 * title). Not words to translate: a name, a version and a hash.
 */
function footer(): void {
  document.getElementById('site-footer')?.remove();
  const release = config.release;
  const links = [
    config.imprintUrl && h('a', { href: config.imprintUrl, rel: 'noreferrer', id: 'imprint-link' }, t('site.imprint')),
    config.privacyUrl && h('a', { href: config.privacyUrl, rel: 'noreferrer', id: 'privacy-link' }, t('site.privacy')),
    release &&
      h(
        'a',
        {
          href: `${config.docsUrl}/security#verifying-an-instance`,
          rel: 'noreferrer',
          id: 'release-link',
          title: `site manifest sha256 ${release.manifest}`,
        },
        `webfolder ${release.version} · sha256 ${release.manifest.slice(0, 16)}`,
      ),
  ].filter((a): a is HTMLAnchorElement => Boolean(a));
  if (links.length > 0) document.body.append(h('footer', { class: 'site', id: 'site-footer' }, ...links));
}

// The skip link moves focus without touching the fragment: the fragment is the folder's key.
document.querySelector('a.skip')?.addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('main')?.focus();
});

// Only the part after # changed (a corrected link pasted into the same tab): open the folder again.
window.addEventListener('hashchange', () => {
  if (location.hash !== '#main') route();
});

header();
route();
