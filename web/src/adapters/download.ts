import { makeZip } from 'client-zip';
import type { SiteConfig } from '../config.js';
import { type DownloadStreamOptions, downloadStream, type RetryInfo, zipEntries } from '../core.js';
import { cryptoPool } from '../workers/crypto-pool.js';
import { Pauses } from '../workers/pauses.js';
import {
  type DownloadJob,
  type DownloadWait,
  downloadWait,
  fromServiceWorker,
  type ToServiceWorker,
  type TransferFailure,
} from '../workers/sw-protocol.js';
import { holdTicketLocks } from '../workers/ticket-locks.js';

/**
 * Starting a download. With a service worker controlling the page (which browsers: docs/site.md,
 * "What each browser gets"), the worker streams the decrypted file to the browser's download
 * manager. Without one, the page decrypts chunk by chunk into a Blob (the browser may spill it to
 * disk, but it can use memory up to the file's size) and saves that. Both run the transfer core's
 * `downloadStream`.
 */
export type DownloadPath = 'service-worker' | 'memory';

export type { DownloadJob, DownloadWait };

/**
 * What a started download tells the page: the last byte handed to the browser, a wait before a
 * retry, and (through the service worker) its failure; without `failed`, a failure goes to the
 * `onDownloadError` handler.
 */
export interface DownloadEvents {
  /** Which way the download goes, as soon as that is known (before it ends, in memory). */
  readonly path?: (path: DownloadPath) => void;
  readonly done?: () => void;
  readonly waiting?: (wait: DownloadWait) => void;
  /**
   * The download paused (an outage longer than the retry policy), in the service worker or in memory:
   * it tries again on its own in `seconds`, or at once when `resume` is called ("Try again now").
   */
  readonly paused?: (seconds: number, resume: () => void) => void;
  readonly failed?: (failure: TransferFailure) => void;
}

let registration: Promise<ServiceWorker | null> | undefined;

export function startServiceWorker(config: SiteConfig): Promise<ServiceWorker | null> {
  registration ??= (async () => {
    if (!('serviceWorker' in navigator)) return null;
    try {
      await navigator.serviceWorker.register(`${config.base}sw.js`, { scope: config.base });
      // A worker that never activates (blocked by policy or the browser) must not hold up the page.
      const ready = await Promise.race([
        navigator.serviceWorker.ready,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      if (!ready) return null;
      if (!navigator.serviceWorker.controller) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 3000);
          navigator.serviceWorker.addEventListener(
            'controllerchange',
            () => {
              clearTimeout(timer);
              resolve();
            },
            { once: true },
          );
        });
      }
      return navigator.serviceWorker.controller;
    } catch {
      return null;
    }
  })();
  return registration;
}

let reportError: ((failure: TransferFailure) => void) | null = null;
let listening = false;
/** What to tell the view of each download the service worker runs, by download id. */
const followed = new Map<string, DownloadEvents>();
/**
 * Paused downloads: the page sends its worker a message every 10 s while one is paused, so that the
 * browser does not stop the worker (and the response it holds open) as idle between its tries.
 */
const keepAlive = new Map<string, ReturnType<typeof setInterval>>();
function stopKeepAlive(id: string): void {
  clearInterval(keepAlive.get(id));
  keepAlive.delete(id);
}
function toWorker(message: ToServiceWorker): void {
  // Absent altogether where service workers are off (Firefox's private windows, WebKit without them).
  if ('serviceWorker' in navigator) navigator.serviceWorker.controller?.postMessage(message);
}

/**
 * Where the service worker's download failures are shown: the files view of the page on screen.
 * One listener for the page's lifetime; each render of the files view only replaces the handler
 * (a listener added per render would pile up and report into views no longer shown).
 */
export function onDownloadError(handler: (failure: TransferFailure) => void): void {
  reportError = handler;
  listen();
}

/** A download the service worker runs that this page did not start (its page was reloaded). */
export interface ForeignDownload {
  readonly folderId: string;
  readonly fileIds: readonly string[];
  readonly name: string;
}
let adopt: ((download: ForeignDownload) => DownloadEvents | null) | null = null;

/**
 * Where a paused download of the service worker that this page did not start is shown: a page
 * reloaded while its download was paused gets the paused line and "Try again now" back, and that
 * download's end (the worker's response outlives the page that asked for it). `handler` answers the
 * download's events, or null to leave it alone (another folder's). The worker is asked at once to
 * tell of the downloads paused now.
 */
export function onForeignPause(handler: (download: ForeignDownload) => DownloadEvents | null): void {
  const first = adopt === null;
  adopt = handler;
  listen();
  // Once per page (a redraw only replaces the handler).
  if (first) toWorker({ type: 'hello' });
}

function listen(): void {
  if (listening || !('serviceWorker' in navigator)) return;
  listening = true;
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    const d = fromServiceWorker(e.data);
    if (d && d.type !== 'download-paused') stopKeepAlive(d.id);
    if (d?.type === 'download-error') {
      const events = followed.get(d.id);
      followed.delete(d.id);
      if (events?.failed) events.failed(d.failure);
      else reportError?.(d.failure);
    } else if (d?.type === 'download-done') {
      followed.get(d.id)?.done?.();
      followed.delete(d.id);
    } else if (d?.type === 'download-waiting') {
      followed.get(d.id)?.waiting?.(d.wait);
    } else if (d?.type === 'download-paused') {
      const { id } = d;
      if (!followed.has(id)) {
        const events = adopt?.({ folderId: d.folderId, fileIds: d.fileIds, name: d.name });
        if (events) followed.set(id, events);
      }
      if (!keepAlive.has(id))
        keepAlive.set(
          id,
          setInterval(() => toWorker({ type: 'ping' }), 10_000),
        );
      followed.get(id)?.paused?.(d.seconds, () => toWorker({ type: 'download-resume', id }));
    }
  });
}

/** Posts `message` (with `lent` ports after the answer port) and waits up to 2 s for the worker's answer. */
export function ask(
  worker: ServiceWorker,
  message: ToServiceWorker,
  lent: readonly MessagePort[] = [],
): Promise<boolean> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), 2000);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve(true);
    };
    worker.postMessage(message, [channel.port2, ...lent]);
  });
}

/**
 * Starts a download; resolves once it is under way (through the service worker) or done (in memory).
 * `events.done` runs when the service worker has handed the browser the last byte, so that the page
 * can say the download is done rather than leave "saving" on screen; `events.waiting` each time the
 * retry policy waits to fetch a chunk again (an outage), wherever the chunk is fetched.
 */
export async function download(
  config: SiteConfig,
  job: DownloadJob,
  events: DownloadEvents = {},
): Promise<DownloadPath> {
  const worker = await startServiceWorker(config);
  if (worker) {
    const id = crypto.randomUUID();
    listen();
    followed.set(id, events);
    setTimeout(() => followed.delete(id), 24 * 3600_000);
    // The page's crypto workers decrypt for the service worker (it cannot start workers itself).
    const lent = cryptoPool(config).lend();
    if (await ask(worker, { type: 'download', id, job }, lent)) {
      const frame = document.createElement('iframe');
      frame.hidden = true;
      frame.title = 'download';
      frame.src = `${config.base}dl/${id}`;
      document.body.append(frame);
      setTimeout(() => frame.remove(), 60_000);
      events.path?.('service-worker');
      return 'service-worker';
    }
    followed.delete(id);
    for (const port of lent) port.close();
  }
  events.path?.('memory');
  const id = crypto.randomUUID();
  const onRetry = events.waiting && ((info: RetryInfo) => events.waiting?.(downloadWait(info)));
  inMemory.set(id, events);
  try {
    const running = downloadInMemory(job, {
      open: cryptoPool(config).open,
      // As in the service worker: an outage longer than the policy pauses the download (the Blob
      // being assembled stays in the page) and it goes on from the chunk it stopped at.
      pause: memoryPauses.pauser(id, job.files),
      ...(onRetry ? { onRetry } : {}),
    });
    // Its tickets are in use while it runs (a reload ends it, and releases them with the page).
    holdTicketLocks(job.files, running);
    await running;
  } finally {
    inMemory.delete(id);
  }
  return 'memory';
}

/** The views of the downloads the page runs in memory, by download id. */
const inMemory = new Map<string, DownloadEvents>();
/** Their pauses: the same logic (and interval) as the service worker's (web/src/workers/pauses.ts). */
const memoryPauses = new Pauses((id, seconds) => inMemory.get(id)?.paused?.(seconds, () => memoryPauses.resume(id)));

async function downloadInMemory(job: DownloadJob, options: DownloadStreamOptions): Promise<void> {
  let blob: Blob;
  if (job.kind === 'file') {
    blob = await blobOf(downloadStream(job.files[0]!, options));
  } else {
    const entries = zipEntries(job.files);
    const zip = makeZip(job.files.map((f, i) => ({ ...entries[i]!, input: downloadStream(f, options) })));
    blob = await blobOf(zip);
  }
  saveBlob(blob, job.name);
}

/**
 * `new Response(stream).blob()` (the browser may keep a large Blob on disk), failing with the
 * stream's own error: Firefox rejects it with its own AbortError ("The operation was aborted.")
 * instead, which would hide from the person why the download failed (a refusal, an expired ticket).
 */
async function blobOf(stream: ReadableStream<Uint8Array>): Promise<Blob> {
  const failures: unknown[] = [];
  const reader = stream.getReader();
  const watched = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        failures.push(error);
        throw error;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  try {
    return await new Response(watched).blob();
  } catch (error) {
    throw failures.length > 0 ? failures[0] : error;
  }
}

/** Hands bytes the page holds to the browser's downloads, saved as `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
