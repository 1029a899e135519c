import type { FolderInfo } from '../../../src/contract/site.js';
import type { SiteConfig } from '../config.js';
import { startServiceWorker } from '../download.js';
import { type FolderSession, openSession, parseFragment } from '../session.js';
import { browserStore } from '../storage.js';
import { announce, describeError, formatDuration, h, render } from '../ui.js';
import { xhrFetch } from '../xhr.js';
import { showError } from './error.js';
import { filesSection } from './files.js';
import { notifySection } from './notify.js';
import { ownerLinkSection, shareSection } from './share.js';
import { uploadSection } from './upload.js';

const MODE_TEXT: Record<FolderInfo['mode'], string> = {
  send: 'Send: the owner uploads, everyone with the link downloads.',
  share: 'Share: everyone with the link uploads and downloads.',
  request: 'Request: visitors upload; only the owner can see and download the files.',
};

/** The folder page: opens the folder session, then renders it again whenever its info changes. */
export async function folderPage(config: SiteConfig, folderId: string): Promise<void> {
  const fragment = parseFragment(location.hash);
  const opened = await openSession(folderId, fragment, {
    siteApi: new URL(config.api, location.href).href,
    store: browserStore,
    transport: xhrFetch,
  });
  // An owner link: the owner secret is kept in this browser now; show the plain share link.
  if (fragment.ownerSecret)
    history.replaceState(null, '', `${location.pathname}${fragment.secret ? `#${fragment.secret}` : ''}`);
  if (!('client' in opened)) {
    switch (opened.kind) {
      case 'expired':
        return showError(
          config,
          'This folder has expired',
          'This folder has expired and its files are gone. Empty folders are deleted 24 hours after they are created; files when their download period ends.',
        );
      case 'not-found':
        return showError(
          config,
          'Folder not found',
          'This folder does not exist. It may have expired (empty folders are deleted after 24 hours, files after their download period) or been deleted, or the link is mistyped.',
        );
      case 'no-key':
        return showError(
          config,
          'This link has no key',
          'The link is missing its key: the part after # at its end. Ask for the complete link; the server never has the key, so it cannot be recovered here.',
        );
      case 'bad-key':
        return showError(
          config,
          'This link’s key is damaged',
          'The key at the end of the link (after #) is not valid. Copy the complete link again.',
        );
      case 'wrong-key':
        return showError(
          config,
          'Wrong key for this folder',
          'The key at the end of this link (after #) does not open this folder. Check that you copied the whole link.',
        );
      default:
        return showError(config, 'Something went wrong', describeError(opened.error));
    }
  }
  // Subscribed once for the page's lifetime (one session per page load).
  opened.on('info', () => renderFolder(opened, config));
  opened.on('announce', announce);
  void startServiceWorker(config);
  renderFolder(opened, config);
}

function renderFolder(session: FolderSession, config: SiteConfig): void {
  const { info } = session;
  document.title = `${info.title} · webfolder`;
  const roleText = info.isOwner
    ? 'You own this folder.'
    : info.owned
      ? 'You are a visitor.'
      : 'Nobody owns this folder yet: the first person to upload becomes its owner.';
  const parts: (Node | null)[] = [
    h('h1', { id: 'folder-title' }, info.title),
    h('p', { class: 'muted' }, MODE_TEXT[info.mode]),
    h('p', { id: 'role', 'data-role': info.isOwner ? 'owner' : info.owned ? 'visitor' : 'unclaimed' }, roleText),
  ];
  if (info.uploadDeadline !== null) {
    const left = info.uploadDeadline - Date.now();
    parts.push(
      h(
        'div',
        { class: 'notice', id: 'deadline' },
        `This folder is empty. Upload within ${formatDuration(left)} or it will be deleted.`,
        info.rights.upload ? ' Pick or drop files below to start.' : '',
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
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Files'),
        h(
          'p',
          { id: 'no-list' },
          'Only the owner of this folder can see and download its files. What you upload is encrypted so that only the owner can open it — not even other visitors with this link.',
        ),
      ),
    );
  render(...parts);
}
