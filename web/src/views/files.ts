import type { SiteConfig } from '../config.js';
import { type DownloadJob, download, onDownloadError } from '../download.js';
import { t } from '../i18n/index.js';
import { canThumbnail, isImageFolder, typeIcon, Viewer } from '../preview.js';
import type { FolderSession, OpenedFile } from '../session.js';
import { thumbnailUrl } from '../thumbnail.js';
import { describeError, formatBytes, h, notice } from '../ui.js';
import { openViewer } from './viewer.js';

/** The file list (a name opens the file in the viewer), a download button per file and "download all" as a zip. */
export function filesSection(session: FolderSession, config: SiteConfig): HTMLElement {
  const list = h('ul', { class: 'files', id: 'files', 'aria-busy': 'true' });
  const status = h('div', { id: 'download-status', role: 'status' });
  const all = h('button', { type: 'button', id: 'download-all', disabled: true }, t('files.downloadAll'));
  const section = h(
    'section',
    { class: 'card', 'aria-labelledby': 'files-h' },
    h('h2', { id: 'files-h' }, t('files.heading')),
    list,
    h('div', { class: 'row' }, all),
    status,
  );
  onDownloadError((message) => status.replaceChildren(notice(t('files.downloadFailed', { reason: message }), 'error')));
  const start = async (label: string, job: DownloadJob) => {
    status.replaceChildren(t('files.starting', { name: label }));
    status.removeAttribute('data-download-path');
    try {
      const path = await download(config, job);
      // Which way the download went ('service-worker' or 'memory'), for tests and support.
      status.setAttribute('data-download-path', path);
      status.replaceChildren(
        path === 'service-worker' ? t('files.savingSw', { name: label }) : t('files.downloadedMemory', { name: label }),
      );
    } catch (error) {
      status.replaceChildren(notice(t('files.downloadFailed', { reason: describeError(error) }), 'error'));
    }
  };
  // The list arrives a page at a time (a folder may hold thousands of files): the next page loads
  // when the end of the list scrolls into view; "download all" loads the rest first.
  const loaded: OpenedFile[] = [];
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
  const viewer = new Viewer([]);
  const downloadOne = (o: OpenedFile) => {
    const name = o.name ?? o.file.fileId;
    void start(name, { kind: 'file', name, files: [{ ...session.downloadFile(o), name }] });
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
  const row = (o: OpenedFile) => {
    const name = o.name ?? t(o.file.sealedKey && !session.owner ? 'files.sealed' : 'files.undecryptable');
    const button = h(
      'button',
      {
        type: 'button',
        class: 'secondary download',
        disabled: !o.file.complete || !o.secret,
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
      button,
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
  all.addEventListener('click', () => {
    void (async () => {
      while (cursor) await loadMore();
      const zipName = session.zipName();
      await start(zipName, { kind: 'zip', name: zipName, files: ready().map((o) => session.downloadFile(o)) });
    })().catch(failed);
  });
  void loadMore().catch(failed);
  return section;
}
