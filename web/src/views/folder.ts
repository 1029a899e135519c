import { startServiceWorker } from '../adapters/download.js';
import { browserStore, takeUnlocked } from '../adapters/storage.js';
import { makeThumbnail } from '../adapters/thumbnail.js';
import { xhrFetch } from '../adapters/xhr.js';
import type { SiteConfig } from '../config.js';
import { type FolderInfo, fragmentOf } from '../core.js';
import { type MessageKey, t } from '../i18n/index.js';
import { type FolderSession, type OpenFailure, openSession, parseFragment } from '../state/index.js';
import { cryptoPool } from '../workers/crypto-pool.js';
import { showError } from './error.js';
import { filesView } from './files.js';
import { notifySection } from './notify.js';
import { activitySection, ownerSection } from './owner.js';
import { passwordPrompt } from './password.js';
import { receiptSection } from './receipt.js';
import { ownerKeySection, shareSection } from './share.js';
import { showTakenDown } from './take-down.js';
import { announce, describeError, formatDuration, h, render, setTitle } from './ui.js';
import { uploadSection } from './upload.js';

const MODE_TEXT: Record<FolderInfo['mode'], MessageKey> = {
  send: 'mode.send',
  share: 'mode.share',
  request: 'mode.request',
};

/**
 * The folder page: opens the folder session (asking for the password of a folder that has one),
 * then renders it again whenever its info changes and polls it for live updates, until `signal`
 * aborts (the router drew another page: another fragment in the same tab). Resolves to the session
 * (null when the folder could not be opened), after its password when it has one.
 */
export async function folderPage(
  config: SiteConfig,
  folderId: string,
  signal?: AbortSignal,
): Promise<FolderSession | null> {
  // The page this one replaces goes at once: a folder made on the home page opens in the same
  // document, and the home page's pickers must not take a pick meant for this folder while it opens.
  render(h('p', { id: 'loading', role: 'status' }, t('site.loading')));
  const fragment = parseFragment(location.hash);
  const opened = await openSession(folderId, fragment, {
    siteApi: new URL(config.api, location.href).href,
    store: browserStore,
    transport: xhrFetch,
    thumbnailer: makeThumbnail,
    // Chunks are encrypted in the page's crypto workers, started on the first chunk (not when a
    // page only downloads); one chunk at a time, which held less memory than two (docs/decisions.md).
    chunkSource: (file) => cryptoPool(config).source(file),
    // The effective secret of a password folder this tab has just created (web/src/views/home.ts).
    ...unlockedOf(folderId),
  });
  if (signal?.aborted) return null;
  // An owner link: the owner secret is kept in this browser now; show the plain share link.
  if (fragment.ownerSecret) history.replaceState(null, '', `${location.pathname}${fragmentOf(fragment.secret)}`);
  if ('unlock' in opened) {
    // Resolves once unlocked, so that the router then holds the session (a language switch redraws it).
    return new Promise((resolve) =>
      passwordPrompt(opened, (session) => {
        if (signal?.aborted) return resolve(null);
        start(session, config, signal);
        resolve(session);
      }),
    );
  }
  if (!('client' in opened)) {
    showOpenFailure(config, opened);
    return null;
  }
  start(opened, config, signal);
  return opened;
}

function unlockedOf(folderId: string): { unlocked?: string } {
  const unlocked = takeUnlocked(folderId);
  return unlocked ? { unlocked } : {};
}

function start(session: FolderSession, config: SiteConfig, signal?: AbortSignal): void {
  // Subscribed once for the page's lifetime (one session per page load, or per fragment).
  const stopInfo = session.on('info', () => renderFolder(session, config));
  // Deleted or expired while open: say so instead of leaving buttons that can only fail.
  // Taken down: the operator's reason and note, as a fresh visitor reads them.
  const stopGone = session.on('gone', (notice) =>
    notice ? showTakenDown(config, notice) : showError(config, t('error.folderNotFound'), t('folder.gone')),
  );
  // The claim of the first upload, said to assistive technology.
  const stopAnnounce = session.uploads.on('claimed', (role) =>
    announce(t(role === 'owner' ? 'session.nowOwner' : 'session.someoneElse')),
  );
  // Live updates: others' uploads, counts, a claim, settings (polled while the page is visible).
  const stopWatch = session.watch();
  signal?.addEventListener('abort', () => {
    stopInfo();
    stopGone();
    stopAnnounce();
    stopWatch();
    session.uploads.cancel();
  });
  void startServiceWorker(config);
  renderFolder(session, config);
}

/** What each way of failing to open a folder is called and what the page says about it. */
const FAILURES: Record<Exclude<OpenFailure['kind'], 'failed' | 'taken-down'>, readonly [MessageKey, MessageKey]> = {
  expired: ['error.expired', 'error.expiredText'],
  'not-found': ['error.folderNotFound', 'error.folderNotFoundText'],
  'no-key': ['error.noKey', 'error.noKeyText'],
  'bad-key': ['error.badKey', 'error.badKeyText'],
  'wrong-key': ['error.wrongKey', 'error.wrongKeyText'],
};

function showOpenFailure(config: SiteConfig, opened: OpenFailure): void {
  if (opened.kind === 'taken-down') showTakenDown(config, opened.notice);
  else if (opened.kind === 'failed') showError(config, t('error.failed'), describeError(opened.error));
  else showError(config, t(FAILURES[opened.kind][0]), t(FAILURES[opened.kind][1]));
}

function renderFolder(session: FolderSession, config: SiteConfig): void {
  const { info } = session;
  setTitle(info.title);
  const roleText = t(info.isOwner ? 'role.owner' : info.owned ? 'role.visitor' : 'role.unclaimed');
  const files = info.rights.list ? filesView(session, config) : null;
  // What a visitor came for leads the page (count, size, expiry, note, Download all), so that it is
  // on the first screen of a phone; how the folder works follows. The owner came to pass the link
  // on: the share link with its Copy button leads the owner's page, the owner key's safekeeping
  // right under it, in view at once on a desktop and a phone after a drop.
  const owner = info.isOwner;
  const share = info.owned ? shareSection(session) : null;
  const parts: (Node | null)[] = [h('h1', { id: 'folder-title', tabindex: -1 }, info.title)];
  if (owner) parts.push(share, ownerKeySection(session));
  parts.push(files?.summary ?? noteOnly(session));
  parts.push(
    h(
      'p',
      { class: 'muted' },
      t(MODE_TEXT[info.mode]),
      ' ',
      h('span', { id: 'role', 'data-role': info.isOwner ? 'owner' : info.owned ? 'visitor' : 'unclaimed' }, roleText),
    ),
  );
  // A folder made through the API is claimed by its first upload: say so plainly, and do not
  // invite sharing until someone owns it (the home page's folders are owned from the start).
  if (!info.owned && info.createdBy === 'api')
    parts.push(h('div', { class: 'notice warning', id: 'first-upload-owner' }, t('folder.firstUploadOwns')));
  // The 24-hour rule of an empty folder is told only to whoever can upload: a send-mode visitor
  // cannot act on "Upload within …" (the owner's page tells its owner).
  if (info.uploadDeadline !== null && info.rights.upload) {
    const left = info.uploadDeadline - Date.now();
    // A request folder's owner waits for others' files: told when it goes, not asked to upload.
    const waitsForOthers = info.mode === 'request' && info.isOwner;
    const deadline = h(
      'div',
      { class: 'notice', id: 'deadline' },
      waitsForOthers
        ? t('folder.deadlineRequestOwner', { time: formatDuration(left) })
        : `${t('folder.deadline', { time: formatDuration(left) })} ${t('folder.deadlinePick')}`,
    );
    parts.push(deadline);
    // Someone else's first file, seen by a live update, ends the rule: the notice goes with it.
    const stop = session.on('changed', (now) => {
      if (!deadline.isConnected) return stop();
      if (now.uploadDeadline === null) {
        deadline.remove();
        stop();
      }
    });
  }
  if (info.rights.upload) parts.push(uploadSection(session));
  parts.push(receiptSection(session));
  if (files) parts.push(files.list);
  else
    parts.push(
      h('section', { class: 'card' }, h('h2', {}, t('files.heading')), h('p', { id: 'no-list' }, t('folder.noList'))),
    );
  if (!owner) parts.push(share);
  // The owner's settings, activity and notifications come after the files, below the fold.
  parts.push(ownerSection(session, config));
  parts.push(activitySection(session, files));
  parts.push(notifySection(session));
  render(...parts);
}

/** Request mode, visitor: no list, but the note still leads the page. */
function noteOnly(session: FolderSession): HTMLElement | null {
  if (!session.info.note) return null;
  const note = h('p', { id: 'note', class: 'note' });
  void session.note().then((text) => {
    note.textContent = text ?? '';
  });
  return h('section', { class: 'card summary', 'aria-label': t('files.summary') }, note);
}
