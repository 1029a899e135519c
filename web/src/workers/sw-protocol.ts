import { type DownloadFile, IntegrityError, type RetryInfo, WebfolderClientError, WebfolderError } from '../core.js';

/**
 * The messages between the page and its service worker (web/src/workers/sw.ts), typed on both
 * sides as the crypto workers' channel is (./crypto-ports.ts). Everything is structured-cloneable
 * plain data; each request from the page carries a reply port first (`ask` in
 * web/src/adapters/download.ts), on which the worker answers `{ ok: true }` once it holds the job.
 *
 * Page → worker:
 * - `download`: a download the page is about to open at `<site>/dl/<id>` (ports after the reply
 *   port: crypto worker ports lent for its decryption);
 * - `media`: a file the viewer plays from `<site>/media/<id>` (sent again every 20 s to keep it);
 * - `document`: a decrypted file (a PDF) the viewer shows from `<site>/media/<id>/<name>`, so the
 *   browser's viewer names it (title, "Save as") by the file's name, not a blob's UUID (kept alike);
 * - `forget-media`: the viewer closed (no reply port);
 * - `download-resume`: "Try again now" on a paused download (no reply port);
 * - `ping`: is a worker there.
 *
 * Worker → pages: how a download ended (`download-done`: every byte handed to the browser;
 * `download-error`), `download-waiting` while the one retry policy (src/transfer/retry.ts,
 * DOWNLOAD_RETRY) waits to fetch a chunk again during an outage, so that the page can say so, and
 * `download-paused` when the policy gave up on a passing failure and the download waits, its
 * response kept open, for `download-resume` or its next try in `seconds`.
 */

/** A download as the page hands it to its service worker. */
export interface DownloadJob {
  readonly kind: 'file' | 'zip';
  readonly name: string;
  readonly files: readonly DownloadFile[];
}

export type ToServiceWorker =
  | { readonly type: 'download'; readonly id: string; readonly job: DownloadJob }
  | { readonly type: 'media'; readonly id: string; readonly file: DownloadFile; readonly mediaType: string }
  | {
      readonly type: 'document';
      readonly id: string;
      readonly blob: Blob;
      readonly name: string;
      readonly mediaType: string;
    }
  | { readonly type: 'forget-media'; readonly id: string }
  | { readonly type: 'download-resume'; readonly id: string }
  | { readonly type: 'ping' }
  /** A page that just opened: the worker tells it of the downloads paused now (`download-paused`). */
  | { readonly type: 'hello' };

export type FromServiceWorker =
  | { readonly type: 'download-done'; readonly id: string }
  | { readonly type: 'download-waiting'; readonly id: string; readonly wait: DownloadWait }
  | {
      readonly type: 'download-paused';
      readonly id: string;
      readonly seconds: number;
      /** What the download is, for a page that did not start it (a reload): its folder, files and name. */
      readonly folderId: string;
      readonly fileIds: readonly string[];
      readonly name: string;
    }
  | { readonly type: 'download-error'; readonly id: string; readonly failure: TransferFailure };

/**
 * Why a transfer failed, as plain data (it crosses from the service worker to the page): the client
 * library's `code` (`network`, `server_refused`…), the server's own sentence when it refused, and the
 * technical detail ("GET chunk 10/29 of a.bin: network error: Failed to fetch") for the console.
 * The page turns it into words in one place (`describeFailure`, web/src/views/ui.ts).
 */
export interface TransferFailure {
  readonly code: string;
  readonly serverMessage: string | null;
  /** The server's `code` when it refused (`download_ticket_required`: the ticket is spent or expired). */
  readonly serverCode: string | null;
  readonly detail: string;
}

export function transferFailure(error: unknown): TransferFailure {
  return {
    code: error instanceof WebfolderClientError ? error.code : error instanceof IntegrityError ? 'integrity' : 'failed',
    serverMessage: error instanceof WebfolderError ? error.serverMessage : null,
    serverCode: error instanceof WebfolderError ? error.serverCode : null,
    detail: error instanceof Error ? error.message : String(error),
  };
}

/**
 * A download waiting to fetch a chunk again (the retry policy's `onRetry`, wherever the chunk is
 * fetched: a crypto worker, the service worker, the page): which attempt comes next, in how many
 * seconds, and why (an HTTP status such as 429 or 503, or null when the server could not be reached).
 */
export interface DownloadWait {
  readonly attempt: number;
  readonly seconds: number;
  readonly status: number | null;
}

export function downloadWait(info: RetryInfo): DownloadWait {
  return { attempt: info.attempt, seconds: Math.max(1, Math.round(info.delayMs / 1000)), status: info.status };
}

/** The answer on a request's reply port. */
export interface ServiceWorkerAck {
  readonly ok: true;
}

const TO_WORKER: ReadonlySet<string> = new Set<ToServiceWorker['type']>([
  'download',
  'media',
  'document',
  'forget-media',
  'download-resume',
  'ping',
  'hello',
]);
const FROM_WORKER: ReadonlySet<string> = new Set<FromServiceWorker['type']>([
  'download-done',
  'download-waiting',
  'download-paused',
  'download-error',
]);

function typed(data: unknown, types: ReadonlySet<string>): data is { type: string; id?: unknown } {
  return typeof data === 'object' && data !== null && types.has((data as { type?: unknown }).type as string);
}

/** A message the worker received, if it is one of the page's (anything else is ignored). */
export function toServiceWorker(data: unknown): ToServiceWorker | null {
  if (!typed(data, TO_WORKER)) return null;
  if (data.type !== 'ping' && data.type !== 'hello' && typeof data.id !== 'string') return null;
  return data as ToServiceWorker;
}

/** A message a page received from the worker, if it is one (anything else is ignored). */
export function fromServiceWorker(data: unknown): FromServiceWorker | null {
  if (!typed(data, FROM_WORKER) || typeof data.id !== 'string') return null;
  if (data.type === 'download-waiting') {
    const wait = (data as { wait?: Partial<DownloadWait> }).wait;
    if (typeof wait?.attempt !== 'number' || typeof wait.seconds !== 'number') return null;
  }
  if (data.type === 'download-paused') {
    const d = data as { seconds?: unknown; folderId?: unknown; fileIds?: unknown; name?: unknown };
    if (typeof d.seconds !== 'number' || typeof d.folderId !== 'string' || typeof d.name !== 'string') return null;
    if (!Array.isArray(d.fileIds) || !d.fileIds.every((f) => typeof f === 'string')) return null;
  }
  return data as FromServiceWorker;
}
