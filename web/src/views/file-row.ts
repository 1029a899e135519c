import { thumbnailUrl } from '../adapters/thumbnail.js';
import type { SiteConfig } from '../config.js';
import { t } from '../i18n/index.js';
import type { FolderSession, OpenedFile } from '../state/index.js';
import { arriving, canThumbnail, downloadable, stoppedUpload, typeIcon, type Viewer } from '../state/preview.js';
import { icon } from './icons.js';
import { describeError, formatBytes, h, notice } from './ui.js';
import { openViewer } from './viewer.js';

/** What a row needs of its list: the session, the viewer of the files loaded so far, and the list's actions. */
export interface RowContext {
  readonly session: FolderSession;
  readonly config: SiteConfig;
  /** The viewer stepping through the files loaded so far (replaced as the list reloads). */
  viewer(): Viewer;
  /** Whether the list is a grid of thumbnails (an image folder). */
  grid(): boolean;
  /** Watches a thumbnail box and makes its image as it comes into view; null without IntersectionObserver. */
  readonly thumbnails: IntersectionObserver | null;
  /** Downloads a file; `saved`: its bytes the viewer already decrypted (saved as they are, nothing fetched). */
  download(opened: OpenedFile, saved?: Blob): void;
  /** Loads the list again (after the owner changed a file's limit). */
  reload(): void;
}

type Thumbnailed = HTMLElement & { makeThumbnail?: () => void };

/**
 * What a visitor's used-up file says. The count that used it up may be this page's own: a download
 * running or paused here (its Download stays off: a second one would need a count the file has not
 * got, and "Try again now" on the line above goes on with the ticket) or interrupted with its ticket
 * kept (its Download goes on with it). "Download limit reached" alone would read as locked out.
 */
function usedUpKey(
  session: FolderSession,
  fileId: string,
): 'files.downloadInProgress' | 'files.retryHeld' | 'files.limitReached' {
  if (session.info.isOwner) return 'files.limitReached';
  if (session.reader.downloading(fileId)) return 'files.downloadInProgress';
  return session.reader.holdsTicket(fileId) ? 'files.retryHeld' : 'files.limitReached';
}

/** The downloads of a file: the owner sees the count and the limit; a visitor what is left. */
export function downloadCounts(session: FolderSession, o: OpenedFile): HTMLElement {
  const f = o.file;
  const count = t('files.downloads', { count: f.downloads });
  const text =
    f.downloadsLeft === null
      ? count
      : f.downloadsLeft === 0
        ? t(usedUpKey(session, f.fileId))
        : t('files.downloadsLeft', { count: f.downloadsLeft });
  return h(
    'span',
    {
      class: 'muted count',
      'data-downloads': f.downloads,
      'data-left': f.downloadsLeft === null ? 'none' : f.downloadsLeft,
    },
    session.info.isOwner && f.downloadsLeft !== null ? `${count} · ${text}` : text,
  );
}

/**
 * A file still arriving (its upload is running): how much of it the server holds, from the listing's
 * stored chunks, as the owner sees it. The row's Download can start at once.
 */
export function arrivingStatus(o: OpenedFile): HTMLElement {
  const { storedChunks, chunks } = o.file;
  const percent = chunks > 0 ? Math.floor((100 * storedChunks) / chunks) : 0;
  const text = t('files.arriving', { percent });
  return h(
    'span',
    { class: 'muted arriving', 'data-stored': storedChunks, 'data-chunks': chunks },
    h('progress', { max: chunks, value: storedChunks, 'aria-label': text }),
    ' ',
    text,
  );
}

/**
 * A file whose upload stopped (src/domain/sending.ts): where it stopped, from the stored chunks.
 * The browser that sent it is told to pick it again; everyone else that the sender stopped it.
 */
export function stoppedStatus(o: OpenedFile): HTMLElement {
  const { storedChunks, chunks } = o.file;
  const percent = chunks > 0 ? Math.floor((100 * storedChunks) / chunks) : 0;
  return h(
    'span',
    { class: 'muted stopped', 'data-stored': storedChunks, 'data-chunks': chunks },
    t(o.file.mine ? 'files.stoppedHere' : 'files.stopped', { percent }),
  );
}

/** What a file's row says beside its size: its counts, where its upload stopped, or how much has arrived. */
export function rowStatus(session: FolderSession, o: OpenedFile): HTMLElement | null {
  if (o.file.complete) return downloadCounts(session, o);
  if (stoppedUpload(o)) return stoppedStatus(o);
  return arriving(o) ? arrivingStatus(o) : null;
}

/** An image folder's thumbnail, made in this browser as the row comes into view; other files show an icon by type. */
function thumb(ctx: RowContext, o: OpenedFile, name: string): HTMLElement {
  const box: Thumbnailed = h('span', { class: 'thumb', 'aria-hidden': 'true' }, icon(typeIcon(o)));
  if (ctx.grid() && ctx.thumbnails && canThumbnail(o)) {
    box.makeThumbnail = () => {
      thumbnailUrl(ctx.session, o)
        .then((url) => box.replaceChildren(h('img', { src: url, alt: '', title: name, class: 'thumb-image' })))
        .catch(() => {}); // the icon stays
    };
    ctx.thumbnails.observe(box);
  }
  return box;
}

/** The owner's controls of one file: its own download limit, and Delete. */
function manage(ctx: RowContext, o: OpenedFile, name: string): HTMLElement | null {
  const { session } = ctx;
  if (!session.info.isOwner) return null;
  const fileId = o.file.fileId;
  const limit = h('input', {
    type: 'number',
    min: 1,
    max: 1_000_000,
    inputmode: 'numeric',
    class: 'file-limit',
    placeholder:
      session.info.maxDownloads === null
        ? t('owner.noLimit')
        : t('owner.folderLimit', { count: session.info.maxDownloads }),
    value: o.file.maxDownloads ?? undefined,
    id: `file-limit-${fileId}`,
  });
  // A visible label: the placeholder alone ("folder's: 3") is gone once a number is typed.
  const label = h(
    'label',
    { for: `file-limit-${fileId}`, class: 'file-limit-label' },
    t('owner.fileLimitOf', { name }),
  );
  const said = h('span', { role: 'status', class: 'muted' });
  const save = h('button', { type: 'button', class: 'secondary save-limit' }, t('owner.saveLimit'));
  save.addEventListener('click', () => {
    const value = limit.value.trim() ? Number(limit.value) : null;
    void session.ownerActions
      .updateFile(fileId, value)
      .then(() => {
        said.textContent = t('owner.saved');
        ctx.reload();
      })
      .catch((error: unknown) => said.replaceChildren(notice(describeError(error), 'error')));
  });
  const remove = h('button', { type: 'button', class: 'danger delete-file' }, t('owner.deleteFile'));
  remove.addEventListener('click', () => {
    if (!confirm(t('owner.deleteFileConfirm', { name }))) return;
    remove.disabled = true;
    void session.ownerActions.deleteFile(fileId).catch((error: unknown) => {
      remove.disabled = false;
      said.replaceChildren(notice(describeError(error), 'error'));
    });
  });
  return h(
    'details',
    { class: 'file-manage' },
    h('summary', { 'aria-label': t('owner.manageNamed', { name }) }, t('owner.manage')),
    label,
    h('div', { class: 'row' }, limit, save, remove),
    said,
  );
}

/** One file of the list: thumbnail or icon, name (opens the viewer), size, counts, Download, the owner's controls. */
export function fileRow(ctx: RowContext, o: OpenedFile): HTMLElement {
  const { session } = ctx;
  const name = o.name ?? t(o.file.sealedKey && !session.owner ? 'files.sealed' : 'files.undecryptable');
  // An incomplete file is "Uploading…" while this page sends it; one arriving from another sender can
  // be downloaded at once (its chunks are waited for), unless this browser cannot read it.
  const uploadingHere = !o.file.complete && session.uploads.isUploading(o.file.fileId);
  const canDownload = downloadable(session, o);
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary download',
      disabled: !canDownload,
      'aria-label': t('files.downloadNamed', { name }),
    },
    t(
      o.file.complete || canDownload || (stoppedUpload(o) && !o.file.mine)
        ? 'files.download'
        : uploadingHere
          ? 'files.uploading'
          : 'files.incomplete',
    ),
  );
  button.addEventListener('click', () => ctx.download(o));
  const fileId = o.file.fileId;
  // A name opens the viewer when this browser can read the file and it is complete.
  const label = ctx.viewer().has(o)
    ? h(
        'button',
        {
          type: 'button',
          class: 'link open',
          onclick: () =>
            openViewer(session, ctx.config, ctx.viewer(), fileId, (opened, saved) => ctx.download(opened, saved)),
        },
        name,
      )
    : name;
  return h(
    'li',
    { 'data-file-id': fileId },
    thumb(ctx, o, name),
    h('span', { class: 'name' }, label),
    h('span', { class: 'muted' }, formatBytes(o.file.filesize)),
    rowStatus(session, o),
    button,
    manage(ctx, o, name),
  );
}
