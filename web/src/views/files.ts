import type { DownloadFile } from '../../../src/transfer/download.js';
import { saveName } from '../../../src/transfer/names.js';
import type { SiteConfig } from '../config.js';
import { type DownloadJob, download, onDownloadError } from '../download.js';
import { t } from '../i18n/index.js';
import { canThumbnail, isImageFolder, typeIcon, Viewer } from '../preview.js';
import type { FolderSession, OpenedFile } from '../session.js';
import { thumbnailUrl } from '../thumbnail.js';
import { describeError, formatBytes, h, notice } from '../ui.js';
import { formatDate } from './dates.js';
import { openViewer } from './viewer.js';

/** The folder's files as the page shows them: the summary that leads the page, and the list. */
export interface FilesView {
  /** Count, total size, expiry, the note and Download all: the first thing a visitor sees. */
  readonly summary: HTMLElement;
  /** The file list (a name opens the viewer), a download button per file, and the owner's controls. */
  readonly list: HTMLElement;
  /** Resolves when the first page of the list is shown. */
  readonly ready: Promise<void>;
  /** Decrypted names of the files loaded so far, by file id (the activity list names them). */
  names(): Map<string, string>;
}

/** The summary line: "3 files · 12.4 MB · available until …". */
function summaryText(session: FolderSession): string {
  const { info } = session;
  const parts = [t('files.count', { count: info.fileCount }), formatBytes(info.totalSize)];
  if (info.expiresAt !== null) parts.push(t('files.availableUntil', { date: formatDate(info.expiresAt) }));
  return parts.join(' · ');
}

/** Rows refreshed on every poll at most (decrypting a long list every few seconds costs more than it shows). */
const LIVE_ROWS = 200;

export function filesView(session: FolderSession, config: SiteConfig): FilesView {
  const list = h('ul', { class: 'files', id: 'files', 'aria-busy': 'true' });
  const status = h('div', { id: 'download-status', role: 'status' });
  const all = h('button', { type: 'button', id: 'download-all', disabled: true }, t('files.downloadAll'));
  const line = h('p', { id: 'folder-summary', class: 'summary-line' }, summaryText(session));
  const note = h('p', { id: 'note', class: 'note', hidden: true });
  const showNote = () =>
    void session.note().then((text) => {
      note.hidden = !text;
      note.textContent = text ?? '';
    });
  showNote();
  const summary = h(
    'section',
    { class: 'card summary', 'aria-label': t('files.summary') },
    line,
    note,
    h('div', { class: 'row' }, all),
    status,
  );
  // An empty folder has nothing to sum up (its deadline notice says what to do); shown once files come.
  const showSummary = () => {
    summary.hidden = session.info.fileCount === 0 && !session.info.note;
  };
  showSummary();
  const section = h(
    'section',
    { class: 'card', 'aria-labelledby': 'files-h' },
    h('h2', { id: 'files-h' }, t('files.heading')),
    list,
  );
  onDownloadError((message) => status.replaceChildren(notice(t('files.downloadFailed', { reason: message }), 'error')));
  /** Starts a download; `prepare` asks for its tickets and may add a remark (files left out). */
  let started = 0;
  const start = async (label: string, prepare: () => Promise<{ job: DownloadJob; leftOut?: string }>) => {
    const mine = ++started;
    status.replaceChildren(t('files.starting', { name: label }));
    status.removeAttribute('data-download-path');
    status.removeAttribute('data-download-state');
    try {
      const { job, leftOut = '' } = await prepare();
      // The service worker says when the browser has every byte: "saving" turns to "downloaded"
      // (unless another download has taken the status line since).
      const path = await download(config, job, () => {
        if (started !== mine) return;
        status.dataset.downloadState = 'done';
        status.replaceChildren(t('files.savedSw', { name: label }) + leftOut);
      });
      // Which way the download went ('service-worker' or 'memory'), for tests and support.
      status.setAttribute('data-download-path', path);
      status.replaceChildren(
        (path === 'service-worker'
          ? t('files.savingSw', { name: label })
          : t('files.downloadedMemory', { name: label })) + leftOut,
      );
    } catch (error) {
      status.replaceChildren(notice(t('files.downloadFailed', { reason: describeError(error) }), 'error'));
    }
    // The counts changed (a download is counted as it starts).
    void reload();
  };
  // The list arrives a page at a time (a folder may hold thousands of files): the next page loads
  // when the end of the list scrolls into view; "download all" loads the rest first.
  let loaded: OpenedFile[] = [];
  let cursor: string | null = null;
  let loading: Promise<void> | null = null;
  const more = h('li', { class: 'muted more', 'aria-hidden': 'true' }, t('files.loadingMore'));
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          if (entries.some((e) => e.isIntersecting)) void loadMore().catch(failed);
        })
      : null;
  // The viewer steps through the files loaded so far (it grows with the list).
  let viewer = new Viewer([]);
  const downloadOne = (o: OpenedFile) => {
    const name = o.name ?? o.file.fileId;
    // One ticket per download: asked for as it starts (the server counts it, or refuses past the limit).
    void start(name, async () => ({
      // A browser cannot save into folders: `a/sub/b.txt` is saved as `b.txt` (src/transfer/names.ts).
      job: { kind: 'file', name: saveName(name, 'file'), files: [{ ...(await session.startDownload(o)), name }] },
    }));
  };
  // An image folder is a grid of thumbnails made in this browser as rows come into view; other
  // folders show an icon by type.
  let grid: boolean | null = null;
  const thumbnails =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          for (const e of entries) {
            if (!e.isIntersecting) continue;
            thumbnails?.unobserve(e.target);
            (e.target as HTMLElement & { makeThumbnail?: () => void }).makeThumbnail?.();
          }
        })
      : null;
  const thumb = (o: OpenedFile, name: string): HTMLElement => {
    const box = h('span', { class: 'thumb', 'aria-hidden': 'true' }, typeIcon(o));
    if (grid && thumbnails && canThumbnail(o)) {
      (box as HTMLElement & { makeThumbnail?: () => void }).makeThumbnail = () => {
        thumbnailUrl(session, o)
          .then((url) => box.replaceChildren(h('img', { src: url, alt: '', title: name, class: 'thumb-image' })))
          .catch(() => {}); // the icon stays
      };
      thumbnails.observe(box);
    }
    return box;
  };
  const counts = (o: OpenedFile): HTMLElement => {
    const f = o.file;
    const count = t('files.downloads', { count: f.downloads });
    const text =
      f.downloadsLeft === null
        ? count
        : f.downloadsLeft === 0
          ? t('files.limitReached')
          : t('files.downloadsLeft', { count: f.downloadsLeft });
    return h(
      'span',
      {
        class: 'muted count',
        'data-downloads': f.downloads,
        'data-left': f.downloadsLeft === null ? 'none' : f.downloadsLeft,
      },
      // The owner sees the count and the limit; a visitor what is left.
      session.info.isOwner && f.downloadsLeft !== null ? `${count} · ${text}` : text,
    );
  };
  const manage = (o: OpenedFile, name: string): HTMLElement | null => {
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
      'aria-label': t('owner.fileLimitOf', { name }),
    });
    const said = h('span', { role: 'status', class: 'muted' });
    const save = h('button', { type: 'button', class: 'secondary save-limit' }, t('owner.saveLimit'));
    save.addEventListener('click', () => {
      const value = limit.value.trim() ? Number(limit.value) : null;
      void session
        .updateFile(fileId, value)
        .then(() => {
          said.textContent = t('owner.saved');
          void reload(true);
        })
        .catch((error: unknown) => said.replaceChildren(notice(describeError(error), 'error')));
    });
    const remove = h('button', { type: 'button', class: 'danger delete-file' }, t('owner.deleteFile'));
    remove.addEventListener('click', () => {
      if (!confirm(t('owner.deleteFileConfirm', { name }))) return;
      remove.disabled = true;
      void session.deleteFile(fileId).catch((error: unknown) => {
        remove.disabled = false;
        said.replaceChildren(notice(describeError(error), 'error'));
      });
    });
    return h(
      'details',
      { class: 'file-manage' },
      h('summary', { 'aria-label': t('owner.manageNamed', { name }) }, t('owner.manage')),
      h('div', { class: 'row' }, limit, save, remove),
      said,
    );
  };
  /** A visitor's file with no download left (the owner is not limited). */
  const exhausted = (o: OpenedFile) => o.file.downloadsLeft === 0 && !session.info.isOwner;
  const row = (o: OpenedFile) => {
    const name = o.name ?? t(o.file.sealedKey && !session.owner ? 'files.sealed' : 'files.undecryptable');

    const button = h(
      'button',
      {
        type: 'button',
        class: 'secondary download',
        disabled: !o.file.complete || !o.secret || exhausted(o),
        'aria-label': t('files.downloadNamed', { name }),
      },
      // An incomplete file is "Uploading…" only while this page sends it (a cancelled one is not).
      t(
        o.file.complete
          ? 'files.download'
          : session.isUploading(o.file.fileId)
            ? 'files.uploading'
            : 'files.incomplete',
      ),
    );
    button.addEventListener('click', () => downloadOne(o));
    const fileId = o.file.fileId;
    // A name opens the viewer when this browser can read the file and it is complete.
    const label = viewer.has(o)
      ? h(
          'button',
          {
            type: 'button',
            class: 'link open',
            onclick: () => openViewer(session, config, viewer, fileId, downloadOne),
          },
          name,
        )
      : name;
    return h(
      'li',
      { 'data-file-id': fileId },
      thumb(o, name),
      h('span', { class: 'name' }, label),
      h('span', { class: 'muted' }, formatBytes(o.file.filesize)),
      o.file.complete ? counts(o) : null,
      button,
      manage(o, name),
    );
  };
  const ready = () => loaded.filter((o) => o.file.complete && o.secret);
  const failed = (error: unknown) => {
    list.replaceChildren(h('li', {}, notice(t('files.loadFailed', { reason: describeError(error) }), 'error')));
  };
  const loadMore = (): Promise<void> => {
    loading ??= (async () => {
      const page = await session.listPage(cursor);
      cursor = page.nextCursor;
      loaded.push(...page.opened);
      viewer.add(page.opened);
      if (grid === null && loaded.length > 0) {
        grid = isImageFolder(loaded);
        list.classList.toggle('grid', grid);
      }
      more.remove();
      list.removeAttribute('aria-busy');
      if (loaded.length === 0) list.replaceChildren(h('li', { class: 'muted' }, t('files.empty')));
      else list.append(...page.opened.map(row));
      if (cursor) {
        list.append(more);
        observer?.observe(more);
      } else observer?.disconnect();
      all.disabled = ready().length === 0;
    })().finally(() => {
      loading = null;
    });
    return loading;
  };
  /**
   * Loads the list again in place (live updates, counts after a download). Skipped while the owner
   * is editing a file's settings, and for a folder longer than one page (its rows stay as loaded).
   */
  const reload = async (force = false): Promise<void> => {
    if (!list.isConnected || cursor !== null) return;
    if (!force && list.querySelector('details.file-manage[open]')) return;
    await loading;
    const page = await session.listPage(null);
    if (page.nextCursor !== null) return;
    // The same files in the same states: only the counts change, in the rows on screen (a row
    // replaced under someone's pointer or a script's hold would lose the click).
    const same =
      page.opened.length === loaded.length &&
      page.opened.every(
        (o, i) => o.file.fileId === loaded[i]!.file.fileId && o.file.complete === loaded[i]!.file.complete,
      );
    if (same) {
      for (const o of page.opened) {
        const li = list.querySelector<HTMLElement>(`li[data-file-id="${CSS.escape(o.file.fileId)}"]`);
        li?.querySelector('.count')?.replaceWith(counts(o));
        const button = li?.querySelector<HTMLButtonElement>('button.download');
        if (button) button.disabled = !o.file.complete || !o.secret || exhausted(o);
      }
      loaded = page.opened;
      return;
    }
    loaded = page.opened;
    viewer = new Viewer(loaded);
    if (grid === null && loaded.length > 0) {
      grid = isImageFolder(loaded);
      list.classList.toggle('grid', grid);
    }
    list.replaceChildren(...(loaded.length ? loaded.map(row) : [h('li', { class: 'muted' }, t('files.empty'))]));
    all.disabled = ready().length === 0;
  };
  // Live updates: the session polls the folder while the page is visible.
  // The list is loaded again when the folder's files changed, or when what the rows show can change
  // without that (uploads completing, counts of limited files, the owner's counts) and it is short.
  const signature = () => JSON.stringify([summaryText(session), session.info.maxDownloads]);
  let seen = signature();
  const stopChanged = session.on('changed', () => {
    if (!summary.isConnected) return stopChanged();
    const now = signature();
    const changed = now !== seen;
    seen = now;
    line.textContent = summaryText(session);
    showSummary();
    showNote();
    const moving =
      loaded.length <= LIVE_ROWS &&
      (session.info.isOwner || loaded.some((o) => !o.file.complete || o.file.downloadsLeft !== null));
    if (changed || moving) void reload().catch(() => {});
  });
  all.addEventListener('click', () => {
    void (async () => {
      while (cursor) await loadMore();
      const zipName = session.zipName();
      await start(zipName, async () => {
        // A ticket per file, as each is a download; files past their limit are left out (and said).
        const files: DownloadFile[] = [];
        const refused: string[] = [];
        let lastError: unknown = null;
        for (const o of ready()) {
          try {
            files.push(await session.startDownload(o));
          } catch (error) {
            lastError = error;
            refused.push(o.name ?? o.file.fileId);
          }
        }
        if (files.length === 0) throw lastError ?? new Error(t('files.noneReady'));
        const leftOut = refused.length
          ? ` ${t('files.leftOut', { names: refused.join(', '), reason: describeError(lastError) })}`
          : '';
        return { job: { kind: 'zip', name: zipName, files }, leftOut };
      });
    })().catch(failed);
  });
  const first = loadMore().catch(failed);
  return {
    summary,
    list: section,
    ready: first,
    names: () => new Map(loaded.filter((o) => o.name !== null).map((o) => [o.file.fileId, o.name!])),
  };
}
