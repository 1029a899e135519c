import { filesFromDrop, takeFiles } from '../adapters/drop.js';
import { shownName, WebfolderError } from '../core.js';
import { t } from '../i18n/index.js';
import type { FileUpload, FolderSession, PickedFile, UploadOutcome, UploadProgress, Waiting } from '../state/index.js';
import { announce, describeError, formatBytes, formatDuration, h, main, notice } from './ui.js';
import { UPLOAD_WAIT, waitReason } from './wait-reason.js';

/**
 * One upload area per folder session, kept across redraws: the folder page is drawn again whenever
 * its info changes (a claim, a refresh, a language switch), and the running upload's progress moves
 * into the new card instead of being left in a detached one. `run` counts uploads: only the newest
 * one draws (Cancel, then files picked again at once: the cancelled one's late report must not
 * cover the running one).
 */
interface UploadState {
  readonly area: HTMLElement;
  /** The "did not finish" note on screen, if any: it goes when an upload starts (it may be that one resuming). */
  note: HTMLElement | null;
  run: number;
  running: boolean;
}
const states = new WeakMap<FolderSession, UploadState>();

function stateOf(session: FolderSession): UploadState {
  let state = states.get(session);
  if (!state) {
    state = { area: h('div', { id: 'upload-area' }), note: null, run: 0, running: false };
    states.set(session, state);
  }
  return state;
}

/** The upload card: pickers, drop zone, the resume note, and the progress of a running upload. */
export function uploadSection(session: FolderSession): HTMLElement {
  const state = stateOf(session);
  // While an upload runs, its own files are pending: no "did not finish" note for them.
  const pending = state.running ? [] : session.uploads.pending();
  const resumeNote = pending.length
    ? notice(t('upload.resume', { count: pending.length, names: pending.map((p) => shownName(p.name)).join(', ') }))
    : null;
  if (resumeNote) resumeNote.id = 'resume-note';
  state.note = resumeNote;
  const start = (items: PickedFile[]) => {
    if (items.length) void startUpload(session, items, state);
  };
  const drop = pickerZone(t('upload.drop'), start);
  // Files dropped on the home page: this new folder's upload starts at once (drop and go).
  const handed = takeFiles(session.folderId);
  if (handed) queueMicrotask(() => start(handed));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'upload-h' },
    h('h2', { id: 'upload-h' }, t('upload.heading')),
    resumeNote,
    drop,
    state.area,
  );
}

/**
 * The file and folder pickers in a drop zone (the folder page's upload card and the home page). Each
 * picker is named once: its visible words are the input's name, and hidden from the tree beside it.
 */
export function pickerZone(words: string, onFiles: (items: PickedFile[]) => void): HTMLElement {
  const fileInput = h('input', {
    type: 'file',
    id: 'file-input',
    multiple: true,
    'aria-label': t('upload.chooseFiles'),
  });
  const dirInput = h('input', {
    type: 'file',
    id: 'folder-input',
    multiple: true,
    webkitdirectory: true,
    'aria-label': t('upload.chooseFolder'),
  });
  const start = (items: PickedFile[]) => {
    fileInput.value = '';
    dirInput.value = '';
    onFiles(items);
  };
  fileInput.addEventListener('change', () =>
    start([...(fileInput.files ?? [])].map((file) => ({ file, path: file.name }))),
  );
  dirInput.addEventListener('change', () =>
    start([...(dirInput.files ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }))),
  );
  const drop = h(
    'div',
    { class: 'drop', id: 'drop-zone' },
    h('p', {}, words),
    h(
      'div',
      { class: 'row' },
      h('label', { class: 'pick' }, fileInput, h('span', { 'aria-hidden': 'true' }, t('upload.chooseFiles'))),
      h('label', { class: 'pick' }, dirInput, h('span', { 'aria-hidden': 'true' }, t('upload.chooseFolder'))),
    ),
  );
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer) void filesFromDrop(e.dataTransfer).then(start);
  });
  return drop;
}

async function startUpload(session: FolderSession, picked: PickedFile[], state: UploadState): Promise<void> {
  const run = ++state.run;
  const current = () => state.run === run;
  const { area } = state;
  state.running = true;
  // The note would say "did not finish" while the upload it names resumes; the redraw after this
  // upload shows it again for whatever is still unfinished.
  state.note?.remove();
  state.note = null;
  const empty = emptyNotice(picked);
  const messages = empty ? [empty] : [];
  // Only empty files: nothing to send, and no "Upload complete: 0 files" to cover why.
  if (empty && picked.every((i) => i.file.size === 0)) {
    state.running = false;
    area.replaceChildren(empty);
    return;
  }
  // Leaving the page stops the upload: the browser asks first while it runs, and recipients are told.
  window.addEventListener('beforeunload', askBeforeLeaving);
  const closing = () => session.uploads.pageClosing();
  window.addEventListener('pagehide', closing);
  area.replaceChildren(...messages, h('p', { id: 'upload-status', role: 'status' }, t('upload.encrypting')));
  const view = progressView(session, area);
  const stop = session.uploads.on('progress', (p) => {
    if (current()) view.paint(p);
  });
  const waiting = waitingView(area);
  const stopWaiting = session.on('waiting', (w) => {
    if (current()) waiting.show(w);
  });
  let outcome: UploadOutcome;
  try {
    outcome = await session.uploads.upload(picked);
  } catch (error) {
    if (!current()) return;
    state.running = false;
    const failure = h(
      'div',
      { id: 'upload-error', class: 'notice error', role: 'alert' },
      t('upload.failed', { reason: describeError(error) }),
    );
    if (error instanceof WebfolderError && error.status === 403) {
      // The folder changed under us (it was claimed by someone else): redraw with what we may do now.
      await session.refresh().catch(() => undefined);
      main().prepend(failure);
      return;
    }
    area.replaceChildren(...messages, failure);
    return;
  } finally {
    window.removeEventListener('beforeunload', askBeforeLeaving);
    window.removeEventListener('pagehide', closing);
    stop();
    stopWaiting();
    waiting.close();
    view.close();
  }
  // A newer upload (files picked right after Cancel) owns the area now: this one says nothing.
  if (!current()) return;
  state.running = false;
  const failed = outcome.files.filter((f) => f.state === 'failed').length;
  const report = h('p', { class: 'progress-line', id: 'upload-status', role: 'status' });
  report.textContent =
    outcome.state === 'failed'
      ? t('upload.someFailed', { count: failed })
      : outcome.state === 'cancelled'
        ? t('upload.cancelled')
        : t('upload.complete', { count: outcome.files.length });
  report.dataset.state = outcome.state;
  announce(report.textContent);
  // The empty files' notice stays under the report: it says what was not sent.
  area.replaceChildren(report, ...messages);
  // Ownership or the file list may have changed: redraw with fresh information (the area, with this report, moves along).
  await session.refresh().catch(() => undefined);
}

/** The browser's own "Leave site?" question (its words, in its language: a page cannot set them). */
function askBeforeLeaving(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older Chromium and Safari ask only when returnValue is set.
  event.returnValue = '';
}

/**
 * Empty files among those picked, said and named: the service takes files of at least one byte, so
 * they are not sent, and this notice stays on screen (it is not replaced by the upload's report).
 */
export function emptyNotice(picked: readonly PickedFile[]): HTMLElement | null {
  const empty = picked.filter((i) => i.file.size === 0);
  if (empty.length === 0) return null;
  const said = notice(t('upload.emptySkipped', { count: empty.length }));
  said.id = 'empty-skipped';
  said.append(h('ul', {}, ...empty.map((i) => h('li', {}, h('bdi', {}, shownName(i.path))))));
  return said;
}

/**
 * A wait before a retry (a 429 answered to the registration, with its Retry-After), told in the
 * upload's status line and counted down; the next progress paint replaces it.
 */
function waitingView(area: HTMLElement) {
  let timer: ReturnType<typeof setInterval> | null = null;
  const close = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  return {
    close,
    show: (w: Waiting) => {
      close();
      const status = area.querySelector<HTMLElement>('#upload-status');
      if (!status) return;
      // Why it waits, in one rule with the download line (./wait-reason.ts).
      const reason = waitReason(w.status);
      let left = Math.max(1, w.seconds);
      const say = () => {
        status.dataset.state = 'waiting';
        status.dataset.why = reason;
        status.textContent = t(UPLOAD_WAIT[reason], { seconds: left });
      };
      say();
      timer = setInterval(() => {
        left -= 1;
        if (left <= 0 || !status.isConnected || status.dataset.state !== 'waiting') return close();
        say();
      }, 1000);
    },
  };
}

/** The progress bars of one upload, painted at most every 100 ms. */
function progressView(session: FolderSession, area: HTMLElement) {
  let rows: Array<{ file: FileUpload; bar: HTMLProgressElement; text: HTMLElement }> | null = null;
  const overall = h('progress', { id: 'overall-progress', max: 1, value: 0, 'aria-label': t('upload.overall') });
  const overallText = h('p', { class: 'progress-line', id: 'upload-status', role: 'status' });
  const cancel = h('button', { type: 'button', class: 'secondary', id: 'cancel-upload' }, t('upload.cancel'));
  cancel.addEventListener('click', () => session.uploads.cancel());
  let last = 0;
  let latest: UploadProgress | null = null;
  // The tab's title carries the progress, so a tab in the background still tells it.
  const title = document.title;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const draw = () => {
    timer = null;
    const p = latest!;
    if (!rows) {
      rows = p.files.map((file) => ({
        file,
        bar: h('progress', {
          max: file.size,
          value: 0,
          'aria-label': t('upload.progressOf', { name: shownName(file.name) }),
        }),
        text: h('span', { class: 'progress-line' }),
      }));
      area.replaceChildren(
        overall,
        overallText,
        cancel,
        h(
          'ul',
          { class: 'files', id: 'uploads' },
          ...rows.map((r) =>
            h(
              'li',
              { 'data-upload': r.file.fileId },
              h('bdi', { class: 'name' }, shownName(r.file.name)),
              r.text,
              r.bar,
            ),
          ),
        ),
      );
    }
    overall.max = Math.max(1, p.total);
    overall.value = p.sent;
    document.title = `${Math.floor((100 * p.sent) / Math.max(1, p.total))} % · ${title}`;
    const done = p.files.filter((f) => f.state === 'done').length;
    delete overallText.dataset.state; // a wait (waitingView) is over once progress is painted
    delete overallText.dataset.why;
    overallText.textContent = t('upload.summary', {
      done,
      count: p.files.length,
      sent: formatBytes(p.sent),
      total: formatBytes(p.total),
      speed: formatBytes(Math.max(0, p.speed)),
      eta: formatDuration(p.etaMs),
    });
    for (const r of rows) {
      let sent = r.file.stored;
      for (const b of r.file.sending.values()) sent += b;
      r.bar.value = sent;
      r.text.textContent =
        r.file.state === 'failed'
          ? t('upload.fileFailed', { reason: describeError(r.file.error) })
          : r.file.state === 'done'
            ? t('upload.fileDone')
            : r.file.state === 'cancelled'
              ? t('upload.fileCancelled')
              : `${Math.floor((sent / r.file.size) * 100)} %`;
    }
  };
  return {
    close: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      document.title = title;
    },
    paint: (p: UploadProgress) => {
      latest = p;
      const now = Date.now();
      if (now - last >= 100) {
        last = now;
        draw();
      } else timer ??= setTimeout(draw, 100);
    },
  };
}
