import { type DownloadJob, download, onDownloadError } from '../adapters/download.js';
import type { SiteConfig } from '../config.js';
import { t } from '../i18n/index.js';
import { describeError, describeFailure, h, notice } from './ui.js';

/** The line that tells a download's state ("starting", "saving", "downloaded", a failure). */
export interface DownloadStatus {
  readonly element: HTMLElement;
  /**
   * Starts a download; `prepare` asks for its tickets and may add a remark (files left out).
   * Resolves when the download is handed to the browser (or failed, which the line says).
   */
  start(label: string, prepare: () => Promise<{ job: DownloadJob; leftOut?: string }>): Promise<void>;
  /** Says that something failed (the list could not load, Download all found nothing). */
  failed(text: string): void;
}

export function downloadStatus(config: SiteConfig): DownloadStatus {
  const status = h('div', { id: 'download-status', role: 'status' });
  const failed = (text: string) => status.replaceChildren(notice(t('files.downloadFailed', { reason: text }), 'error'));
  onDownloadError((failure) => failed(describeFailure(failure)));
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
      failed(describeError(error));
    }
  };
  return { element: status, start, failed };
}
