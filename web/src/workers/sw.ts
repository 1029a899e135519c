/// <reference lib="webworker" />
import { downloadZip } from 'client-zip';
import {
  chunksAhead,
  contentDisposition,
  contentRange,
  type DownloadFile,
  downloadStream,
  mediaStream,
  parseRange,
  type RetryInfo,
  zipEntries,
} from '../core.js';
import { appShellResponse, keepAppShell } from './app-shell.js';
import { lentWorkers } from './crypto-ports.js';
import { Pauses } from './pauses.js';
import {
  type DownloadJob,
  downloadWait,
  type FromServiceWorker,
  type ServiceWorkerAck,
  type TransferFailure,
  toServiceWorker,
  transferFailure,
} from './sw-protocol.js';
import { holdTicketLocks } from './ticket-locks.js';

/**
 * The service worker: streamed downloads. The page hands it a job (file list, secrets, credential
 * headers) by message, then opens `<site>/dl/<id>` in a hidden frame; this worker answers that
 * request with the transfer core's `downloadStream`, which fetches, decrypts and passes on one chunk
 * at a time (or a ZIP64 archive of such streams, by client-zip), so the browser writes the file to disk as it arrives and nothing
 * is held whole in memory. Jobs live only in this worker's memory and are used once.
 *
 * It also streams video and audio to the page's viewer: the page registers a file under
 * `<site>/media/<id>` and points a media element there; the worker answers each of the element's
 * `Range` requests with a 206 of exactly those bytes, fetching and decrypting only the RFC 8188
 * records they touch (src/transfer/media-stream.ts), so playback and a seek start after about 1 MiB.
 * A media file stays registered while the viewer shows it (the page re-sends it every 20 s, which
 * also restores it if the browser stopped an idle worker) and is forgotten when the viewer closes
 * or after two minutes without word from the page.
 *
 * And it keeps the app shell for offline use (./app-shell.ts), never a folder's data or key.
 */
declare const self: ServiceWorkerGlobalScope;

/**
 * Chunks fetched and decrypted ahead of the one the browser is taking, in the page's downloads: the
 * page, its crypto workers and this worker share one renderer process, where every chunk in flight
 * is held as ciphertext, plaintext and the decryption's batches (measured in
 * docs/benchmarks.md, "Download memory"). The library and the CLI keep the default (chunksAhead).
 */
const PAGE_AHEAD = 1;

/** A download waiting for its request: the job, and the page's crypto worker ports lent for it. */
interface PendingDownload {
  readonly job: DownloadJob;
  readonly lent: readonly MessagePort[];
  /** The page that asked (its workers live only as long as it does). */
  readonly clientId: string | null;
  /** Releases the download's ticket locks (./ticket-locks.ts): it ended, or its request never came. */
  readonly end: () => void;
}
const jobs = new Map<string, PendingDownload>();
interface MediaJob {
  /** A file streamed from the server (video, audio), or one the page decrypted whole (a PDF). */
  readonly file: DownloadFile | { readonly blob: Blob; readonly name: string };
  /** From the viewer's allowlist (web/src/state/preview.ts), never the uploader's string. */
  readonly type: string;
  timer?: ReturnType<typeof setTimeout>;
}
const media = new Map<string, MediaJob>();
/** Downloads paused by an outage longer than the retry policy, waiting for "Try again now" (./pauses.ts). */
const pauses = new Pauses((id, seconds) => {
  const job = running.get(id);
  if (job)
    void tell({
      type: 'download-paused',
      id,
      seconds,
      folderId: job.files[0]?.folderId ?? '',
      fileIds: job.files.map((f) => f.fileId),
      name: job.name,
    });
});
/** The downloads whose response is streaming, by id (what a paused one is, told to a reloaded page). */
const running = new Map<string, DownloadJob>();

/**
 * Requests that send a body go straight to the network, never through this worker. A controlled
 * page's requests are all offered to the fetch handler, bodies included, even those it lets pass;
 * Chromium then keeps this worker's copy of each body until the worker's garbage collector runs,
 * which it hardly does: every chunk PUT of an upload stayed in memory, and 1 GiB uploaded grew the
 * browser process by 1 GiB (test/site/transfer-memory.test.ts). Static routing (Chromium 123+) skips
 * the worker for them altogether; browsers without it keep offering them (docs/decisions.md).
 */
interface RoutingInstallEvent extends ExtendableEvent {
  addRoutes?(rules: ReadonlyArray<{ condition: { requestMethod: string }; source: 'network' }>): Promise<void>;
}
self.addEventListener('install', (event) => {
  const routes = (event as RoutingInstallEvent).addRoutes?.([
    { condition: { requestMethod: 'PUT' }, source: 'network' },
    { condition: { requestMethod: 'POST' }, source: 'network' },
  ]);
  if (routes) event.waitUntil(routes.catch(() => undefined));
  // Offline use is a convenience: a shell that cannot be kept now must not stop the worker installing.
  event.waitUntil(keepAppShell(new URL(self.registration.scope)).catch(() => undefined));
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const data = toServiceWorker(event.data);
  const ack: ServiceWorkerAck = { ok: true };
  if (data?.type === 'download') {
    const id = data.id;
    const lent = event.ports.slice(1);
    const source = event.source;
    // The job's tickets are in use from now until it ends, here, even if its page is reloaded.
    let end = () => {};
    holdTicketLocks(data.job.files, new Promise<void>((resolve) => (end = resolve)));
    jobs.set(id, { job: data.job, lent, clientId: source && 'id' in source ? source.id : null, end });
    // Forget unclaimed jobs (and their secrets) after a minute.
    setTimeout(() => {
      if (!jobs.delete(id)) return;
      end();
      for (const port of lent) port.close();
    }, 60_000);
    event.ports[0]?.postMessage(ack);
  } else if (data?.type === 'media' || data?.type === 'document') {
    const m = data;
    const previous = media.get(m.id);
    if (previous) clearTimeout(previous.timer);
    const file = m.type === 'media' ? m.file : { blob: m.blob, name: m.name };
    const job: MediaJob = { file, type: m.mediaType };
    job.timer = setTimeout(() => media.delete(m.id), 120_000);
    media.set(m.id, job);
    event.ports[0]?.postMessage(ack);
  } else if (data?.type === 'download-resume') {
    pauses.resume(data.id);
  } else if (data?.type === 'forget-media') {
    clearTimeout(media.get(data.id)?.timer);
    media.delete(data.id);
  } else if (data?.type === 'ping') {
    event.ports[0]?.postMessage(ack);
  } else if (data?.type === 'hello') {
    pauses.tellAgain();
  }
});

/** Tells the pages how a download ended: failed (`download-error`), or every byte handed to the browser (`download-done`). */
function report(id: string, failure: TransferFailure | null) {
  return tell(failure === null ? { type: 'download-done', id } : { type: 'download-error', id, failure });
}

async function tell(message: FromServiceWorker) {
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage(message);
}

/** `stream` with its end reported to the pages, and `finish` run once however it ends. */
function withErrors(id: string, stream: ReadableStream<Uint8Array>, finish: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finish();
          controller.close();
          void report(id, null);
        } else controller.enqueue(value);
      } catch (error) {
        finish();
        void report(id, transferFailure(error));
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
}

/** A media element's request: 206 with the asked bytes, 200 with all of them, or 416. */
function mediaResponse(job: MediaJob, rangeHeader: string | null): Response {
  const { file } = job;
  if ('blob' in file) return documentResponse(file, job.type);
  const headers = new Headers({
    'content-type': job.type,
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // Opened on its own (not as media) it is still no document that runs anything.
    'content-security-policy': "default-src 'none'; sandbox",
  });
  const range = parseRange(rangeHeader, file.size);
  if (range === 'unsatisfiable') {
    headers.set('content-range', `bytes */${file.size}`);
    return new Response(null, { status: 416, headers });
  }
  const wanted = range ?? { start: 0, end: file.size - 1 };
  headers.set('content-length', String(wanted.end - wanted.start + 1));
  if (range) headers.set('content-range', contentRange(range, file.size));
  // A few RFC 8188 records at a time, not whole chunks: a seek waits for about 1 MiB (bench/preview.ts).
  return new Response(mediaStream(file, wanted), { status: range ? 206 : 200, headers });
}

/**
 * A decrypted document shown by the browser's own viewer (a PDF in the viewer's frame): inline, with
 * the file's name, which that viewer shows and saves under. No `sandbox` here: Chromium refuses to
 * show a PDF in a sandboxed document; its PDF viewer runs none of the site's script either way.
 */
function documentResponse(file: { readonly blob: Blob; readonly name: string }, type: string): Response {
  return new Response(file.blob, {
    headers: {
      'content-type': type,
      'content-length': String(file.blob.size),
      'content-disposition': contentDisposition(file.name, 'inline'),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    },
  });
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin === scope.origin && url.pathname.startsWith(`${scope.pathname}media/`)) {
    // `media/<id>` or `media/<id>/<name>` (the name is there for the browser's viewer only).
    const job = media.get(url.pathname.slice(`${scope.pathname}media/`.length).split('/')[0]!);
    if (job) event.respondWith(mediaResponse(job, event.request.headers.get('range')));
    return;
  }
  const kept = appShellResponse(event.request, scope, (storing) => event.waitUntil(storing.catch(() => undefined)));
  if (kept) {
    event.respondWith(kept);
    return;
  }
  if (url.origin !== scope.origin || !url.pathname.startsWith(`${scope.pathname}dl/`)) return;
  const id = url.pathname.slice(`${scope.pathname}dl/`.length);
  const pending = jobs.get(id);
  if (!pending) return; // the server explains that the link works only from the page
  jobs.delete(id);
  const { job, clientId } = pending;
  // Chunks are fetched and decrypted by the page's workers while the page is open, then here.
  const lent = lentWorkers(
    pending.lent,
    async () => clientId !== null && (await self.clients.get(clientId)) !== undefined,
  );
  // Each chunk is fetched and decrypted there too: this thread only feeds the response. The retry
  // policy's waits during an outage (there or here) are told to the pages: "waiting, retrying in N s".
  const onRetry = (info: RetryInfo) => void tell({ type: 'download-waiting', id, wait: downloadWait(info) });
  // An outage longer than the policy pauses the download (its response stays open) instead of failing it.
  const pause = pauses.pauser(id, job.files);
  const options = (file: DownloadFile) => ({
    open: lent.open,
    onRetry,
    pause,
    ahead: chunksAhead(file.chunkSize, PAGE_AHEAD),
  });
  const headers = new Headers({
    'content-disposition': contentDisposition(job.name),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  let body: ReadableStream<Uint8Array>;
  if (job.kind === 'file') {
    const file = job.files[0]!;
    body = downloadStream(file, options(file));
    headers.set('content-type', 'application/octet-stream');
    headers.set('content-length', String(file.size));
  } else {
    const entries = zipEntries(job.files);
    const zip = downloadZip(
      (function* () {
        for (let i = 0; i < job.files.length; i++)
          yield { ...entries[i]!, input: downloadStream(job.files[i]!, options(job.files[i]!)) };
      })(),
      { metadata: entries },
    );
    body = zip.body!;
    headers.set('content-type', 'application/zip');
    const length = zip.headers.get('content-length');
    if (length) headers.set('content-length', length);
  }
  let finished = false;
  running.set(id, job);
  const finish = () => {
    if (!finished) lent.close();
    finished = true;
    running.delete(id);
    pending.end();
  };
  event.respondWith(new Response(withErrors(id, body, finish), { status: 200, headers }));
});
