import { WebfolderError } from '../../../src/transfer/errors.js';
import { filesFromDrop } from '../drop.js';
import type { FileUpload, FolderSession, PickedFile, UploadOutcome, UploadProgress, Waiting } from '../session.js';
import { announce, describeError, formatBytes, formatDuration, h, main, notice } from '../ui.js';

/** The upload card: pickers, drop zone, the resume note, and the progress of a running upload. */
export function uploadSection(session: FolderSession): HTMLElement {
  const fileInput = h('input', { type: 'file', id: 'file-input', multiple: true });
  const dirInput = h('input', { type: 'file', id: 'folder-input', multiple: true, webkitdirectory: true });
  const area = h('div', { id: 'upload-area' });
  const pending = session.pendingUploads();
  const resumeNote = pending.length
    ? notice(
        `${pending.length} upload${pending.length > 1 ? 's' : ''} did not finish (${pending.map((p) => p.name).join(', ')}). Pick the same file${pending.length > 1 ? 's' : ''} again to send only the missing parts.`,
      )
    : null;
  if (resumeNote) resumeNote.id = 'resume-note';
  const start = (items: PickedFile[]) => {
    fileInput.value = '';
    dirInput.value = '';
    if (items.length) void startUpload(session, items, area);
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
    h('p', {}, 'Drop files or folders here, or'),
    h(
      'div',
      { class: 'row' },
      h('label', { class: 'pick' }, fileInput, h('span', {}, 'Choose files')),
      h('label', { class: 'pick' }, dirInput, h('span', {}, 'Choose a folder')),
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
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'upload-h' },
    h('h2', { id: 'upload-h' }, 'Upload'),
    resumeNote,
    drop,
    area,
  );
}

async function startUpload(session: FolderSession, picked: PickedFile[], area: HTMLElement): Promise<void> {
  const empty = picked.filter((i) => i.file.size === 0).length;
  const messages: HTMLElement[] = [];
  if (empty > 0) messages.push(notice(`${empty} empty file(s) skipped: empty files cannot be uploaded.`));
  area.replaceChildren(...messages, h('p', { id: 'upload-status', role: 'status' }, 'Encrypting file names…'));
  const view = progressView(session, area);
  const stop = session.on('progress', view.paint);
  const waiting = waitingView(area);
  const stopWaiting = session.on('waiting', waiting.show);
  let outcome: UploadOutcome;
  try {
    outcome = await session.upload(picked);
  } catch (error) {
    const failure = h(
      'div',
      { id: 'upload-error', class: 'notice error', role: 'alert' },
      `Upload failed: ${describeError(error)}`,
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
    stop();
    stopWaiting();
    waiting.close();
    view.close();
  }
  const failed = outcome.files.filter((f) => f.state === 'failed').length;
  const report = h('p', { class: 'progress-line', id: 'upload-status', role: 'status' });
  report.textContent =
    outcome.state === 'failed'
      ? `${failed} file(s) failed. Pick them again to retry: only the missing parts are sent.`
      : outcome.state === 'cancelled'
        ? 'Upload cancelled. Pick the same files again to continue where it stopped.'
        : `Upload complete: ${outcome.files.length} file(s).`;
  report.dataset.state = outcome.state;
  announce(report.textContent);
  // Ownership or the file list may have changed: redraw with fresh information, keeping this report.
  await session.refresh().catch(() => undefined);
  (document.getElementById('upload-area') ?? area).replaceChildren(report);
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
      const why = w.status === 429 ? 'the server asked to slow down' : 'the server did not answer';
      let left = w.seconds;
      const say = () => {
        status.dataset.state = 'waiting';
        status.textContent = `Waiting: ${why}; retrying in ${left} s`;
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
  const overall = h('progress', { id: 'overall-progress', max: 1, value: 0, 'aria-label': 'Overall upload progress' });
  const overallText = h('p', { class: 'progress-line', id: 'upload-status', role: 'status' });
  const cancel = h('button', { type: 'button', class: 'secondary', id: 'cancel-upload' }, 'Cancel upload');
  cancel.addEventListener('click', () => session.cancelUpload());
  let last = 0;
  let latest: UploadProgress | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const draw = () => {
    timer = null;
    const p = latest!;
    if (!rows) {
      rows = p.files.map((file) => ({
        file,
        bar: h('progress', { max: file.size, value: 0, 'aria-label': `Progress of ${file.name}` }),
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
            h('li', { 'data-upload': r.file.fileId }, h('span', { class: 'name' }, r.file.name), r.text, r.bar),
          ),
        ),
      );
    }
    overall.max = Math.max(1, p.total);
    overall.value = p.sent;
    const done = p.files.filter((f) => f.state === 'done').length;
    delete overallText.dataset.state; // a wait (waitingView) is over once progress is painted
    overallText.textContent = `${done} of ${p.files.length} files · ${formatBytes(p.sent)} of ${formatBytes(p.total)} · ${formatBytes(p.speed)}/s · ${formatDuration(p.etaMs)} left`;
    for (const r of rows) {
      let sent = r.file.stored;
      for (const b of r.file.sending.values()) sent += b;
      r.bar.value = sent;
      r.text.textContent =
        r.file.state === 'failed'
          ? `failed: ${describeError(r.file.error)}`
          : r.file.state === 'done'
            ? 'done'
            : r.file.state === 'cancelled'
              ? 'cancelled'
              : `${Math.floor((sent / r.file.size) * 100)} %`;
    }
  };
  return {
    close: () => {
      if (timer) clearTimeout(timer);
      timer = null;
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
