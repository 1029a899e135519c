import { ask, startServiceWorker } from '../adapters/download.js';
import { renderMarkdown } from '../adapters/markdown.js';
import type { SiteConfig } from '../config.js';
import { downloadStream, saveName } from '../core.js';
import { t } from '../i18n/index.js';
import type { FolderSession, OpenedFile } from '../state/index.js';
import {
  downloadable,
  MEMORY_LIMIT,
  type PreviewPlan,
  previewPlan,
  TEXT_LIMIT,
  type Viewer,
  viewerKey,
} from '../state/preview.js';
import type { ToServiceWorker } from '../workers/sw-protocol.js';
import { describeError, formatBytes, h } from './ui.js';

/**
 * The viewer: a file of the folder shown over the page, decrypted in this browser (web/src/state/preview.ts
 * decides how). Images, PDFs and text are decrypted whole into a Blob and shown from a `blob:` URL
 * (an `<img>`, a `<pre>`; a PDF from the service worker's `media/<id>/<name>` in a frame, so the
 * browser's PDF viewer names it by the file, else an `<embed>` of a blob:); video and audio stream through
 * the service worker's `<site>/media/<id>`, which answers the element's Range requests. Nothing of
 * the file is ever a document of the site's origin: HTML is text, SVG an image, the PDF a plugin
 * embed (which runs none of the site's script and gives the file no access to the page).
 */
export function openViewer(
  session: FolderSession,
  config: SiteConfig,
  viewer: Viewer,
  fileId: string,
  onDownload: (opened: OpenedFile, saved?: Blob) => void,
): void {
  if (!viewer.open(fileId)) return;
  // The bytes the open preview decrypted (with its download's ticket): the viewer's Download saves
  // them rather than fetching the file again, so open-then-save counts one download.
  let held: { readonly fileId: string; readonly blob: Blob } | null = null;
  document.getElementById('viewer')?.remove();
  const opener = document.activeElement as HTMLElement | null;
  const title = h('h2', { id: 'viewer-title' });
  const position = h('span', { class: 'muted', id: 'viewer-position' });
  const content = h('div', { class: 'viewer-content', id: 'viewer-content' });
  /** A button that shows a sign and says its name to assistive technology. */
  const iconButton = (id: string, label: string, sign: string) =>
    h('button', { type: 'button', class: 'secondary', id, 'aria-label': label }, sign);
  const prev = iconButton('viewer-prev', t('viewer.previous'), '←');
  const next = iconButton('viewer-next', t('viewer.next'), '→');
  const save = h('button', { type: 'button', id: 'viewer-download' }, t('viewer.download'));
  const close = iconButton('viewer-close', t('viewer.close'), '✕');
  const dialog = h(
    'div',
    { class: 'viewer', id: 'viewer', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'viewer-title' },
    h('div', { class: 'viewer-bar' }, title, position, h('span', { class: 'viewer-actions' }, prev, next, save, close)),
    content,
  );
  let cleanup: () => void = () => {};
  const show = (opened: OpenedFile | null) => {
    cleanup();
    cleanup = () => {};
    held = null;
    if (!opened) return;
    const name = opened.name ?? opened.file.fileId;
    title.textContent = name;
    position.textContent = t('viewer.position', {
      index: viewer.files.indexOf(opened) + 1,
      count: viewer.files.length,
    });
    prev.disabled = next.disabled = viewer.files.length < 2;
    // A used-up file's Download could only fail: disabled, as in the list.
    save.disabled = !downloadable(session, opened);
    cleanup = showFile(
      session,
      config,
      opened,
      name,
      content,
      () => onDownload(opened),
      (blob) => {
        if (viewer.current === opened) held = { fileId: opened.file.fileId, blob };
      },
    );
  };
  const shut = () => {
    cleanup();
    viewer.close();
    document.removeEventListener('keydown', onKey);
    dialog.remove();
    opener?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    // Arrow keys inside a media element's controls or a text selection are the element's own.
    const action = viewerKey(e.key, document.documentElement.dir === 'rtl');
    if (!action || (action !== 'close' && e.target instanceof HTMLMediaElement)) return;
    e.preventDefault();
    if (action === 'close') shut();
    else show(action === 'next' ? viewer.next() : viewer.previous());
  };
  prev.addEventListener('click', () => show(viewer.previous()));
  next.addEventListener('click', () => show(viewer.next()));
  close.addEventListener('click', shut);
  save.addEventListener('click', () => {
    const current = viewer.current;
    if (!current) return;
    onDownload(current, held?.fileId === current.file.fileId ? held.blob : undefined);
  });
  document.addEventListener('keydown', onKey);
  document.body.append(dialog);
  close.focus();
  show(viewer.current);
}

/** Shows one file in `content`; returns what undoes it (revokes URLs, stops fetches, forgets jobs). */
function showFile(
  session: FolderSession,
  config: SiteConfig,
  opened: OpenedFile,
  name: string,
  content: HTMLElement,
  onDownload: () => void,
  hold: (blob: Blob) => void,
): () => void {
  const stop = new AbortController();
  const undo: Array<() => void> = [() => stop.abort()];
  const fallback = (why: string) => {
    content.setAttribute('data-way', 'download');
    content.replaceChildren(
      h('p', { id: 'viewer-fallback' }, why),
      h(
        'button',
        { type: 'button', onclick: onDownload },
        t('viewer.downloadSized', { name, size: formatBytes(opened.file.filesize) }),
      ),
    );
  };
  content.replaceChildren(h('p', { class: 'muted', role: 'status' }, t('viewer.decrypting')));
  content.removeAttribute('data-way');
  void (async () => {
    const worker = await startServiceWorker(config);
    if (stop.signal.aborted) return;
    // A visitor's limited video or audio that fits in memory is decrypted there, not streamed: its
    // bytes are then at hand for the viewer's Download, where a stream's ranges would have spent the
    // ticket's budget on the way (docs/decisions.md).
    const keep = limitedForVisitor(session, opened) && opened.file.filesize <= MEMORY_LIMIT;
    const plan = previewPlan(
      name,
      opened.mimetype,
      opened.file.filesize,
      worker !== null && !keep,
      !opened.file.complete,
    );
    content.setAttribute('data-kind', plan.kind);
    if (plan.way === 'download') return fallback(reasonText(plan));
    // Showing a limited file fetches it, which counts a download: never silently.
    if (!(await counted(session, opened, content, stop.signal))) return;
    try {
      if (plan.way === 'stream' && worker) await stream(session, config, worker, opened, plan, content, undo, fallback);
      else await inMemory(session, config, worker, opened, name, plan, content, undo, fallback, stop.signal, hold);
      if (!stop.signal.aborted) content.setAttribute('data-way', plan.way);
    } catch (error) {
      if (!stop.signal.aborted) fallback(t('viewer.failed', { reason: describeError(error) }));
    }
  })();
  return () => {
    for (const u of undo) u();
  };
}

/**
 * For a visitor's file with downloads left, says that opening it counts one and waits for an explicit
 * "Open"; true at once when nothing is counted (no limit, the owner). False when the viewer moved on.
 * A used-up file is not asked about: its fetch is refused and the viewer says so.
 */
/** A visitor's file with a download limit: fetching it spends one of its downloads. */
function limitedForVisitor(session: FolderSession, opened: OpenedFile): boolean {
  return opened.file.downloadsLeft !== null && !session.info.isOwner;
}

function counted(session: FolderSession, opened: OpenedFile, content: HTMLElement, signal: AbortSignal) {
  const left = opened.file.downloadsLeft;
  // Nothing is counted: no limit, the owner, or a ticket this page keeps from the file's download.
  if (left === null || left === 0 || session.info.isOwner || session.reader.holdsTicket(opened.file.fileId))
    return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    signal.addEventListener('abort', () => resolve(false), { once: true });
    const open = h('button', { type: 'button', id: 'viewer-open' }, t('viewer.openCounted'));
    open.addEventListener('click', () => {
      content.replaceChildren(h('p', { class: 'muted', role: 'status' }, t('viewer.decrypting')));
      resolve(true);
    });
    content.replaceChildren(h('p', { id: 'viewer-counted' }, t('viewer.countedWarning', { left })), open);
    open.focus();
  });
}

async function stream(
  session: FolderSession,
  config: SiteConfig,
  worker: ServiceWorker,
  opened: OpenedFile,
  plan: PreviewPlan,
  content: HTMLElement,
  undo: Array<() => void>,
  fallback: (why: string) => void,
): Promise<void> {
  const id = crypto.randomUUID();
  const job: ToServiceWorker = {
    type: 'media',
    id,
    file: await session.reader.startDownload(opened),
    mediaType: plan.type,
  };
  if (!(await ask(worker, job))) throw new Error(t('viewer.noWorker'));
  // Keeps the job registered (and restores it after the browser stopped an idle worker).
  const keep = setInterval(() => worker.postMessage(job), 20_000);
  undo.push(() => {
    clearInterval(keep);
    worker.postMessage({ type: 'forget-media', id } satisfies ToServiceWorker);
  });
  const media = h(plan.kind === 'audio' ? 'audio' : 'video', {
    controls: true,
    preload: 'metadata',
    id: 'viewer-media',
    src: `${config.base}media/${id}`,
  });
  media.addEventListener('error', () => fallback(t('viewer.cannotPlay')), { once: true });
  undo.push(() => {
    media.pause();
    media.removeAttribute('src');
    media.load();
  });
  content.replaceChildren(media);
}

async function inMemory(
  session: FolderSession,
  config: SiteConfig,
  worker: ServiceWorker | null,
  opened: OpenedFile,
  name: string,
  plan: PreviewPlan,
  content: HTMLElement,
  undo: Array<() => void>,
  fallback: (why: string) => void,
  signal: AbortSignal,
  hold: (blob: Blob) => void,
): Promise<void> {
  const limit = plan.kind === 'text' || plan.kind === 'markdown' ? TEXT_LIMIT : MEMORY_LIMIT;
  if (opened.file.filesize > limit) throw new Error(t('viewer.tooLarge'));
  const bytes = await new Response(
    downloadStream(await session.reader.startDownload(opened), { signal }),
  ).arrayBuffer();
  // Every byte arrived: that download is delivered (its ticket done with); the viewer keeps the bytes.
  session.reader.finished([opened.file.fileId]);
  hold(new Blob([bytes], { type: 'application/octet-stream' }));
  if (signal.aborted) return;
  if (plan.kind === 'text' || plan.kind === 'markdown') {
    const text = new TextDecoder('utf-8').decode(bytes);
    content.replaceChildren(
      plan.kind === 'markdown'
        ? h('div', { class: 'markdown', id: 'viewer-text' }, renderMarkdown(text))
        : h('pre', { class: 'text', id: 'viewer-text' }, text),
    );
    return;
  }
  const blob = new Blob([bytes], { type: plan.type });
  if (plan.kind === 'pdf' && worker) {
    content.replaceChildren(await namedDocument(config, worker, blob, name, plan, undo));
    return;
  }
  const url = URL.createObjectURL(blob);
  undo.push(() => URL.revokeObjectURL(url));
  let element: HTMLElement;
  if (plan.kind === 'image') {
    element = h('img', { src: url, alt: name, id: 'viewer-image' });
    element.addEventListener('error', () => fallback(t('viewer.cannotImage')), { once: true });
  } else if (plan.kind === 'pdf') {
    element = h('embed', { src: url, type: 'application/pdf', id: 'viewer-pdf', title: name });
  } else {
    element = h(plan.kind === 'audio' ? 'audio' : 'video', { src: url, controls: true, id: 'viewer-media' });
    element.addEventListener('error', () => fallback(t('viewer.cannotPlay')), { once: true });
  }
  content.replaceChildren(element);
}

/**
 * A PDF shown from the service worker's `<site>/media/<id>/<name>`: the browser's PDF viewer takes
 * its title and its "Save" name from that URL and its Content-Disposition, where a `blob:` URL gave
 * it a UUID. Without a service worker the PDF is shown from a `blob:` URL, as before.
 */
async function namedDocument(
  config: SiteConfig,
  worker: ServiceWorker,
  blob: Blob,
  name: string,
  plan: PreviewPlan,
  undo: Array<() => void>,
): Promise<HTMLElement> {
  const id = crypto.randomUUID();
  const file = saveName(name, 'document.pdf');
  const job: ToServiceWorker = { type: 'document', id, blob, name: file, mediaType: plan.type };
  if (!(await ask(worker, job))) throw new Error(t('viewer.noWorker'));
  const keep = setInterval(() => worker.postMessage(job), 20_000);
  undo.push(() => {
    clearInterval(keep);
    worker.postMessage({ type: 'forget-media', id } satisfies ToServiceWorker);
  });
  const src = `${config.base}media/${id}/${encodeURIComponent(file)}`;
  // A frame, not an <embed>: a plugin's request never reaches a service worker (it went to the
  // server and failed). The frame holds the browser's PDF viewer, which runs none of the site's script.
  return h('iframe', { src, id: 'viewer-pdf', title: name });
}

/** Why the viewer offers only the download, in the person's language. */
function reasonText(plan: PreviewPlan): string {
  const limit = plan.limitMiB ?? 0;
  switch (plan.reason) {
    case 'arriving':
      return t('viewer.stillArriving');
    case 'no-stream':
      return t('viewer.noStreamTooLarge', { limit });
    case 'too-large':
      return t('viewer.typeTooLarge', { limit });
    default:
      return t('viewer.cannotShow');
  }
}
