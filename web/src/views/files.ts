import type { SiteConfig } from '../config.js';
import type { DownloadFile } from '../core.js';
import { saveName } from '../core.js';
import { t } from '../i18n/index.js';
import type { FolderSession, OpenedFile } from '../state/index.js';
import { downloadable, isImageFolder, stoppedUpload, Viewer } from '../state/preview.js';
import { formatDate } from './dates.js';
import { type DownloadOutcome, downloadStatus } from './download-status.js';
import { fileRow, type RowContext, rowStatus } from './file-row.js';
import { describeError, formatBytes, h, notice } from './ui.js';

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

/**
 * The summary line: "3 files · 12.4 MB · available until …". Files whose upload stopped are not
 * counted (they may never come): the folder's counts less those of the loaded list.
 */
function summaryText(session: FolderSession, loaded: readonly OpenedFile[] = []): string {
  const { info } = session;
  const stopped = loaded.filter(stoppedUpload);
  const count = Math.max(0, info.fileCount - stopped.length);
  const size = Math.max(0, info.totalSize - stopped.reduce((sum, o) => sum + o.file.filesize, 0));
  const parts = [t('files.count', { count }), formatBytes(size)];
  if (info.expiresAt !== null) parts.push(t('files.availableUntil', { date: formatDate(info.expiresAt) }));
  return parts.join(' · ');
}

/** Rows refreshed on every poll at most (decrypting a long list every few seconds costs more than it shows). */
const LIVE_ROWS = 200;

export function filesView(session: FolderSession, config: SiteConfig): FilesView {
  const list = h('ul', { class: 'files', id: 'files', 'aria-busy': 'true' });
  const status = downloadStatus(config);
  const all = h('button', { type: 'button', id: 'download-all', disabled: true }, t('files.downloadAll'));
  const line = h('p', { id: 'folder-summary', class: 'summary-line' }, summaryText(session));
  const note = h('p', { id: 'note', class: 'note', hidden: true });
  const showNote = () =>
    void session.note().then((text) => {
      note.hidden = !text;
      note.textContent = text ?? '';
    });
  showNote();
  const allRow = h('div', { class: 'row' }, all);
  // A folder whose every file is used up for this visitor says so once, at the top (each row also does).
  const usedUp = h('p', { id: 'all-used-up', class: 'notice', hidden: true }, t('files.allUsedUp'));
  const summary = h(
    'section',
    { class: 'card summary', 'aria-label': t('files.summary') },
    line,
    usedUp,
    note,
    allRow,
    status.element,
  );
  // An empty folder has nothing to sum up: with a note, the note alone (no "0 files", no greyed
  // Download all), without one, nothing (its deadline notice says what to do).
  const showSummary = () => {
    const empty = session.info.fileCount === 0;
    summary.hidden = empty && !session.info.note;
    line.hidden = empty;
    // A row is a flex box: its `hidden` attribute would be overridden by the stylesheet.
    allRow.style.display = empty ? 'none' : '';
  };
  showSummary();
  const section = h(
    'section',
    { class: 'card', 'aria-labelledby': 'files-h' },
    h('h2', { id: 'files-h' }, t('files.heading')),
    list,
  );
  /**
   * How a download ended, for the tickets the reader keeps: delivered, they are done with; refused as
   * spent or expired, the next download asks for a new count, and the line says so. Either way the
   * rows' buttons follow (a kept ticket keeps a used-up file's Download enabled).
   */
  const outcome: DownloadOutcome = {
    delivered(ids) {
      session.reader.finished(ids);
      void reload().catch(() => {});
    },
    failed(ids, failure) {
      const spent = failure.serverCode === 'download_ticket_required';
      if (spent) session.reader.finished(ids);
      else session.reader.interrupted(ids);
      void reload().catch(() => {});
      return spent ? ` ${t('files.ticketSpent')}` : '';
    },
    adopted(ids) {
      // Its tickets are the service worker's now: the rows say "in progress" and offer no Download
      // that would ask a count the file may not have (the line's "Try again now" goes on with it).
      session.reader.adopted(ids);
      void reload().catch(() => {});
    },
  };
  // A download of this folder left paused in the service worker by this page before a reload.
  status.adoptPaused(session.folderId, outcome);
  /** Starts a download, then shows the new counts (a download is counted as it starts). */
  const start = async (label: string, prepare: Parameters<typeof status.start>[1]) => {
    await status.start(label, prepare, outcome);
    void reload();
  };
  // The list arrives a page at a time (a folder may hold thousands of files): the next page loads
  // when the end of the list scrolls into view; "download all" loads the rest first.
  let loaded: OpenedFile[] = [];
  let cursor: string | null = null;
  const paintUsedUp = () => {
    const { reader } = session;
    usedUp.hidden = !(
      !session.info.isOwner &&
      cursor === null &&
      loaded.length > 0 &&
      loaded.every(
        (o) =>
          o.file.complete &&
          o.file.downloadsLeft === 0 &&
          !reader.downloading(o.file.fileId) &&
          !reader.holdsTicket(o.file.fileId),
      )
    );
  };
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
  const downloadOne = (o: OpenedFile, saved?: Blob) => {
    const name = o.name ?? o.file.fileId;
    // The viewer's Download after its preview: the bytes it decrypted with that download's ticket are
    // saved as they are (open-then-save is one download, nothing fetched again).
    if (saved) return status.saved(name, saved, saveName(name, 'file'));
    // One ticket per download: asked for as it starts (the server counts it, or refuses past the limit).
    void start(name, async () => ({
      // A browser cannot save into folders: `a/sub/b.txt` is saved as `b.txt` (src/transfer/names.ts).
      job: {
        kind: 'file',
        name: saveName(name, 'file'),
        files: [{ ...(await session.reader.startDownload(o, { running: true })), name }],
      },
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
  const ctx: RowContext = {
    session,
    config,
    viewer: () => viewer,
    grid: () => grid === true,
    thumbnails,
    download: downloadOne,
    reload: () => void reload(true),
  };
  const row = (o: OpenedFile) => fileRow(ctx, o);
  // What Download all can fetch: readable, complete files with a download left for this visitor
  // (a file still arriving is downloaded on its own, from its row).
  const ready = () => loaded.filter((o) => o.file.complete && downloadable(session, o));
  const failed = (error: unknown) => {
    list.replaceChildren(h('li', {}, notice(t('files.loadFailed', { reason: describeError(error) }), 'error')));
  };
  const loadMore = (): Promise<void> => {
    loading ??= (async () => {
      const page = await session.reader.listPage(cursor);
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
      line.textContent = summaryText(session, loaded);
      paintUsedUp();
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
    const page = await session.reader.listPage(null);
    if (page.nextCursor !== null) return;
    // The same files in the same states: only the counts change, in the rows on screen (a row
    // replaced under someone's pointer or a script's hold would lose the click).
    const same =
      page.opened.length === loaded.length &&
      page.opened.every(
        (o, i) =>
          o.file.fileId === loaded[i]!.file.fileId &&
          o.file.complete === loaded[i]!.file.complete &&
          o.file.stopped === loaded[i]!.file.stopped,
      );
    if (same) {
      for (const o of page.opened) {
        const li = list.querySelector<HTMLElement>(`li[data-file-id="${CSS.escape(o.file.fileId)}"]`);
        const shown = rowStatus(session, o);
        if (shown) li?.querySelector('.count, .arriving, .stopped')?.replaceWith(shown);
        const button = li?.querySelector<HTMLButtonElement>('button.download');
        if (button) button.disabled = !downloadable(session, o);
      }
      loaded = page.opened;
      // The viewer opens files by id: give it the fresh counts, so its Download agrees with the row.
      viewer = new Viewer(loaded);
      all.disabled = ready().length === 0;
      line.textContent = summaryText(session, loaded);
      paintUsedUp();
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
    line.textContent = summaryText(session, loaded);
    paintUsedUp();
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
    line.textContent = summaryText(session, loaded);
    paintUsedUp();
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
      const zipName = session.reader.zipName();
      await start(zipName, async () => {
        // A ticket per file, as each is a download; files past their limit are left out (and said).
        const files: DownloadFile[] = [];
        const refused: string[] = [];
        let lastError: unknown = null;
        for (const o of ready()) {
          try {
            files.push(await session.reader.startDownload(o, { running: true }));
          } catch (error) {
            lastError = error;
            refused.push(o.name ?? o.file.fileId);
          }
        }
        // Every file the zip leaves out is named with why: refused now, used up, still arriving, unreadable.
        const skipped = leftOutOfZip(loaded, ready());
        if (refused.length) skipped.unshift({ names: refused, reason: describeError(lastError) });
        const leftOut = skipped.map((s) => ` ${t('files.leftOut', { names: s.names.join(', '), reason: s.reason })}`);
        if (files.length === 0) throw lastError ?? new Error(t('files.noneReady'));
        return { job: { kind: 'zip', name: zipName, files }, leftOut: leftOut.join('') };
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

/** The files "Download all" cannot put in its zip, grouped by why: used up, still arriving, unreadable here. */
function leftOutOfZip(
  loaded: readonly OpenedFile[],
  ready: readonly OpenedFile[],
): { names: string[]; reason: string }[] {
  const taken = new Set(ready);
  const groups = new Map<string, string[]>();
  for (const o of loaded) {
    if (taken.has(o)) continue;
    const reason = !o.secret
      ? t('files.reasonUnreadable')
      : stoppedUpload(o)
        ? t('files.reasonStopped')
        : !o.file.complete
          ? t('files.reasonArriving')
          : t('files.limitReached');
    groups.set(reason, [...(groups.get(reason) ?? []), o.name ?? o.file.fileId]);
  }
  return [...groups].map(([reason, names]) => ({ names, reason }));
}
