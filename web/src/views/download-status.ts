import {
  type DownloadEvents,
  type DownloadJob,
  type DownloadWait,
  download,
  onDownloadError,
  onForeignPause,
  saveBlob,
} from '../adapters/download.js';
import { canPickFile, pickFile, saveToFile } from '../adapters/save-file.js';
import type { SiteConfig } from '../config.js';
import { saveName } from '../core.js';
import { t } from '../i18n/index.js';
import { type TransferFailure, transferFailure } from '../workers/sw-protocol.js';
import { describeFailure, formatBytes, h, notice } from './ui.js';
import { DOWNLOAD_WAIT, waitReason } from './wait-reason.js';

/** How a started download ended, for the page's state (its kept tickets: web/src/state/reader.ts). */
export interface DownloadOutcome {
  /** Every byte of the download of these files was handed to the browser. */
  delivered(fileIds: readonly string[]): void;
  /** The download of these files failed; answers what to add to the failure's words ('' for nothing). */
  failed(fileIds: readonly string[], failure: TransferFailure): string;
  /** A paused download of these files, started before a reload, is shown here again (`adoptPaused`). */
  adopted(fileIds: readonly string[]): void;
}

/** The line that tells a download's state ("starting", "saving", "waiting", "paused", "downloaded", a failure). */
export interface DownloadStatus {
  readonly element: HTMLElement;
  /**
   * Starts a download; `prepare` asks for its tickets and may add a remark (files left out).
   * Resolves when the download is handed to the browser (or failed, which the line says). Where the
   * browser can write a file directly, the person first picks where to save `label` (call this from
   * the click): the download is then written there, and a closed picker starts nothing.
   */
  start(
    label: string,
    prepare: () => Promise<{ job: DownloadJob; leftOut?: string }>,
    outcome?: DownloadOutcome,
  ): Promise<void>;
  /** Says that something failed (the list could not load, Download all found nothing). */
  failed(text: string): void;
  /** Saves bytes the page holds already (the viewer's) under `fileName`, and says so. */
  saved(label: string, blob: Blob, fileName: string): void;
  /**
   * Shows a download of folder `folderId` that the service worker holds paused though this page did
   * not start it (the page was reloaded while it was paused): the paused line, "Try again now", and
   * its end, told to `outcome`.
   */
  adoptPaused(folderId: string, outcome: DownloadOutcome): void;
}

export function downloadStatus(config: SiteConfig): DownloadStatus {
  const status = h('div', { id: 'download-status', role: 'status' });
  let countdown: ReturnType<typeof setInterval> | null = null;
  const stopCountdown = () => {
    if (countdown) clearInterval(countdown);
    countdown = null;
  };
  const failed = (text: string) => {
    stopCountdown();
    status.dataset.downloadState = 'failed';
    status.replaceChildren(notice(t('files.downloadFailed', { reason: text }), 'error'));
  };
  onDownloadError((failure) => failed(describeFailure(failure)));
  let started = 0;
  /**
   * The events of the download `mine` (the line's latest unless another has started since), told on
   * the line: its waits, its pause, its end. `running` is what the line says while it runs.
   */
  const follow = (
    mine: number,
    label: string,
    fileIds: () => readonly string[] | null,
    outcome: DownloadOutcome | undefined,
    leftOut: () => string,
  ) => {
    const line: { running: string | HTMLElement } = { running: t('files.starting', { name: label }) };
    // A failure of this download, told here (not to another download's line) with what the page adds.
    const failedWith = (failure: TransferFailure) => {
      const ids = fileIds();
      const more = ids ? (outcome?.failed(ids, failure) ?? '') : '';
      if (started === mine) failed(describeFailure(failure) + more);
    };
    const waiting = (wait: DownloadWait) => {
      // Once paused, the download as a whole waits for "Try again now" or its timed try, even while a
      // sibling chunk fetched ahead is still inside its retry policy: that chunk's waits stay off the
      // line (they would hide "Try again now" until it too gave up). This is decided here, where the
      // line tells the download's state, not in the stream: the sibling's retries are worth going on
      // with (their bytes are ready when the pause ends), and both paths (service worker, memory)
      // report their chunks' waits and pause to this one state machine.
      const state = status.dataset.downloadState;
      if (started !== mine || state === 'done' || state === 'paused') return;
      stopCountdown();
      let left = wait.seconds;
      const key = DOWNLOAD_WAIT[waitReason(wait.status)];
      const say = () => {
        status.dataset.downloadState = 'waiting';
        status.dataset.attempt = String(wait.attempt);
        status.replaceChildren(t(key, { seconds: left, attempt: wait.attempt }));
      };
      say();
      countdown = setInterval(() => {
        left -= 1;
        if (started !== mine || status.dataset.downloadState !== 'waiting') return stopCountdown();
        if (left > 0) return say();
        // The retry is on its way: back to what the download was doing (another wait says so again).
        stopCountdown();
        status.dataset.downloadState = 'running';
        status.replaceChildren(line.running);
      }, 1000);
    };
    // The download paused (an outage longer than the retry policy), in the service worker or in
    // memory: the line says so with "Try again now", and counts down to its own next try.
    const paused = (seconds: number, resume: () => void) => {
      if (started !== mine || status.dataset.downloadState === 'done') return;
      stopCountdown();
      let left = seconds;
      const words = h('span', {}, t('files.paused', { seconds: left }));
      const again = () => {
        stopCountdown();
        status.dataset.downloadState = 'running';
        status.replaceChildren(line.running);
      };
      const onclick = () => {
        again();
        resume();
      };
      const button = h('button', { type: 'button', class: 'try-again', onclick }, t('files.tryAgainNow'));
      status.dataset.downloadState = 'paused';
      status.removeAttribute('data-attempt');
      status.replaceChildren(words, ' ', button);
      countdown = setInterval(() => {
        left -= 1;
        if (started !== mine || status.dataset.downloadState !== 'paused') return stopCountdown();
        if (left > 0) words.textContent = t('files.paused', { seconds: left });
        else again();
      }, 1000);
    };
    // The service worker says when the browser has every byte (the saver, when the picked file is
    // closed): "saving" turns to "downloaded" (unless another download has taken the line since).
    const done = (words: 'files.savedSw' | 'files.savedFile' = 'files.savedSw') => {
      const ids = fileIds();
      if (ids) outcome?.delivered(ids);
      if (started !== mine) return;
      stopCountdown();
      status.dataset.downloadState = 'done';
      status.replaceChildren(t(words, { name: label }) + leftOut());
    };
    const events: DownloadEvents = { done: () => done(), waiting, paused, failed: failedWith };
    return { line, events, failedWith, done };
  };
  const reset = (label: string) => {
    stopCountdown();
    status.replaceChildren(t('files.starting', { name: label }));
    status.removeAttribute('data-download-path');
    status.removeAttribute('data-download-state');
    status.removeAttribute('data-attempt');
  };
  const start = async (
    label: string,
    prepare: () => Promise<{ job: DownloadJob; leftOut?: string }>,
    outcome?: DownloadOutcome,
    picker = true,
  ) => {
    const mine = ++started;
    let job: DownloadJob | null = null;
    let leftOut = '';
    const ids = () => job?.files.map((f) => f.fileId) ?? null;
    const followed = follow(mine, label, ids, outcome, () => leftOut);
    const { line, events, failedWith } = followed;
    reset(label);
    // Where the browser can write a file directly, the person picks the place first: the picker
    // needs the click, and a closed picker then costs no ticket (nothing was asked for yet).
    const picked = picker && canPickFile() ? await pickFile(saveName(label, 'file')) : null;
    if (picked === 'cancelled') {
      if (started === mine) notPicked(label, () => void start(label, prepare, outcome, false));
      return;
    }
    try {
      const prepared = await prepare();
      job = prepared.job;
      leftOut = prepared.leftOut ?? '';
      if (picked) {
        await saveInto(picked, job, mine, label, followed, outcome);
        return;
      }
      // Which way the download goes ('service-worker' or 'memory'), for tests and support: set as soon
      // as it is known, as an in-memory download may pause long before it ends.
      const path = await download(config, job, {
        ...events,
        path: (way) => {
          if (started === mine) status.setAttribute('data-download-path', way);
        },
      });
      if (started !== mine) return;
      status.setAttribute('data-download-path', path);
      if (status.dataset.downloadState === 'done') return;
      if (path === 'memory') {
        // In memory, the download has ended here: no wait is left to tell.
        outcome?.delivered(job.files.map((f) => f.fileId));
        stopCountdown();
        status.removeAttribute('data-download-state');
        status.replaceChildren(t('files.downloadedMemory', { name: label }) + leftOut);
        return;
      }
      line.running = t('files.savingSw', { name: label }) + leftOut;
      const state = status.dataset.downloadState;
      if (state !== 'waiting' && state !== 'paused') status.replaceChildren(line.running);
    } catch (error) {
      failedWith(transferFailure(error));
    }
  };
  /** The person closed the picker: nothing started; the line offers the browser's own download instead. */
  const notPicked = (label: string, instead: () => void) => {
    stopCountdown();
    status.dataset.downloadState = 'not-picked';
    status.removeAttribute('data-download-path');
    const button = h('button', { type: 'button', class: 'use-downloads', onclick: instead }, t('files.useDownloads'));
    status.replaceChildren(t('files.notPicked', { name: label }), ' ', button);
  };
  /** Writes the download into the picked file, with its progress and a Cancel on the line. */
  const saveInto = async (
    handle: FileSystemFileHandle,
    job: DownloadJob,
    mine: number,
    label: string,
    { line, events, failedWith, done }: ReturnType<typeof follow>,
    outcome: DownloadOutcome | undefined,
  ) => {
    if (started === mine) status.setAttribute('data-download-path', 'save-file');
    const total = job.files.reduce((sum, f) => sum + f.size, 0);
    const say = (bytes: number) =>
      t('files.savingFile', { name: label, done: formatBytes(Math.min(bytes, total)), total: formatBytes(total) });
    const words = h('span', { class: 'saving' }, say(0));
    const cancel = h('button', { type: 'button', class: 'cancel-save' }, t('files.cancelSave'));
    line.running = h('span', {}, words, ' ', cancel);
    const state = status.dataset.downloadState;
    if (started === mine && state !== 'waiting' && state !== 'paused') status.replaceChildren(line.running);
    const running = saveToFile(config, job, handle, {
      progress: (bytes) => {
        words.textContent = say(bytes);
      },
      ...(events.waiting ? { waiting: events.waiting } : {}),
      ...(events.paused ? { paused: events.paused } : {}),
    });
    cancel.addEventListener('click', () => running.cancel());
    const result = await running.finished;
    const ids = job.files.map((f) => f.fileId);
    if (result.outcome === 'done') done('files.savedFile');
    else if (result.outcome === 'failed') failedWith(result.failure);
    else {
      // Cancelled by the person: not a failure. Its tickets stay kept, as after an interruption.
      outcome?.failed(ids, { code: 'cancelled', serverMessage: null, serverCode: null, detail: 'cancelled' });
      if (started !== mine) return;
      stopCountdown();
      status.dataset.downloadState = 'cancelled';
      status.replaceChildren(t('files.saveCancelled', { name: label }));
    }
  };
  const adoptPaused = (folderId: string, outcome: DownloadOutcome) =>
    onForeignPause((foreign) => {
      if (foreign.folderId !== folderId) return null;
      const mine = ++started;
      const { line, events } = follow(
        mine,
        foreign.name,
        () => foreign.fileIds,
        outcome,
        () => '',
      );
      reset(foreign.name);
      outcome.adopted(foreign.fileIds);
      status.setAttribute('data-download-path', 'service-worker');
      line.running = t('files.savingSw', { name: foreign.name });
      return events;
    });
  const saved = (label: string, blob: Blob, fileName: string) => {
    started++;
    stopCountdown();
    saveBlob(blob, fileName);
    status.dataset.downloadState = 'done';
    status.setAttribute('data-download-path', 'viewer');
    status.replaceChildren(t('files.savedFromViewer', { name: label }));
  };
  return { element: status, start, failed, saved, adoptPaused };
}
