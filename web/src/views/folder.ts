import type { FolderInfo } from '../../../src/contract/site.js';
import type { SiteConfig } from '../config.js';
import { startServiceWorker } from '../download.js';
import { type MessageKey, t } from '../i18n/index.js';
import { type FolderSession, type OpenFailure, openSession, parseFragment } from '../session.js';
import { browserStore } from '../storage.js';
import { makeThumbnail } from '../thumbnail.js';
import { announce, describeError, formatDuration, h, render } from '../ui.js';
import { xhrFetch } from '../xhr.js';
import { showError } from './error.js';
import { filesSection } from './files.js';
import { notifySection } from './notify.js';
import { ownerLinkSection, shareSection } from './share.js';
import { uploadSection } from './upload.js';

const MODE_TEXT: Record<FolderInfo['mode'], MessageKey> = {
  send: 'mode.send',
  share: 'mode.share',
  request: 'mode.request',
};

/**
 * The folder page: opens the folder session, then renders it again whenever its info changes, until
 * `signal` aborts (the router drew another page: another fragment in the same tab). Resolves to the
 * session (null when the folder could not be opened).
 */
export async function folderPage(
  config: SiteConfig,
  folderId: string,
  signal?: AbortSignal,
): Promise<FolderSession | null> {
  const fragment = parseFragment(location.hash);
  const opened = await openSession(folderId, fragment, {
    siteApi: new URL(config.api, location.href).href,
    store: browserStore,
    transport: xhrFetch,
    thumbnailer: makeThumbnail,
  });
  if (signal?.aborted) return null;
  // An owner link: the owner secret is kept in this browser now; show the plain share link.
  if (fragment.ownerSecret)
    history.replaceState(null, '', `${location.pathname}${fragment.secret ? `#${fragment.secret}` : ''}`);
  if (!('client' in opened)) {
    showOpenFailure(config, opened);
    return null;
  }
  // Subscribed once for the page's lifetime (one session per page load, or per fragment).
  const stopInfo = opened.on('info', () => renderFolder(opened, config));
  const stopAnnounce = opened.on('announce', announce);
  signal?.addEventListener('abort', () => {
    stopInfo();
    stopAnnounce();
    opened.cancelUpload();
  });
  void startServiceWorker(config);
  renderFolder(opened, config);
  return opened;
}

/** What each way of failing to open a folder is called and what the page says about it. */
const FAILURES: Record<Exclude<OpenFailure['kind'], 'failed'>, readonly [MessageKey, MessageKey]> = {
  expired: ['error.expired', 'error.expiredText'],
  'not-found': ['error.folderNotFound', 'error.folderNotFoundText'],
  'no-key': ['error.noKey', 'error.noKeyText'],
  'bad-key': ['error.badKey', 'error.badKeyText'],
  'wrong-key': ['error.wrongKey', 'error.wrongKeyText'],
};

function showOpenFailure(config: SiteConfig, opened: OpenFailure): void {
  if (opened.kind === 'failed') showError(config, t('error.failed'), describeError(opened.error));
  else showError(config, t(FAILURES[opened.kind][0]), t(FAILURES[opened.kind][1]));
}

function renderFolder(session: FolderSession, config: SiteConfig): void {
  const { info } = session;
  document.title = `${info.title} · webfolder`;
  const roleText = t(info.isOwner ? 'role.owner' : info.owned ? 'role.visitor' : 'role.unclaimed');
  const parts: (Node | null)[] = [
    h('h1', { id: 'folder-title' }, info.title),
    h('p', { class: 'muted' }, t(MODE_TEXT[info.mode])),
    h('p', { id: 'role', 'data-role': info.isOwner ? 'owner' : info.owned ? 'visitor' : 'unclaimed' }, roleText),
  ];
  if (info.uploadDeadline !== null) {
    const left = info.uploadDeadline - Date.now();
    parts.push(
      h(
        'div',
        { class: 'notice', id: 'deadline' },
        t('folder.deadline', { time: formatDuration(left) }),
        info.rights.upload ? ` ${t('folder.deadlinePick')}` : '',
      ),
    );
  }
  parts.push(ownerLinkSection(session));
  parts.push(shareSection(session));
  parts.push(notifySection(session));
  if (info.rights.upload) parts.push(uploadSection(session));
  if (info.rights.list) parts.push(filesSection(session, config));
  else
    parts.push(
      h('section', { class: 'card' }, h('h2', {}, t('files.heading')), h('p', { id: 'no-list' }, t('folder.noList'))),
    );
  render(...parts);
}
