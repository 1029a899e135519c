/// <reference lib="webworker" />
import { downloadZip } from 'client-zip';
import { contentDisposition, downloadStream, uniqueNames } from '../../src/transfer/download.js';
import type { DownloadJob } from './download.js';

/**
 * The service worker: streamed downloads. The page hands it a job (file list, secrets, credential
 * headers) by message, then opens `<site>/dl/<id>` in a hidden frame; this worker answers that
 * request with the transfer core's `downloadStream`, which fetches, decrypts and passes on one chunk
 * at a time (or a ZIP64 archive of such streams, by client-zip), so the browser writes the file to disk as it arrives and nothing
 * is held whole in memory. Jobs live only in this worker's memory and are used once.
 */
declare const self: ServiceWorkerGlobalScope;

const jobs = new Map<string, DownloadJob>();

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; id?: string; job?: DownloadJob } | null;
  if (data?.type === 'download' && data.id && data.job) {
    jobs.set(data.id, data.job);
    // Forget unclaimed jobs (and their secrets) after a minute.
    setTimeout(() => jobs.delete(data.id!), 60_000);
    event.ports[0]?.postMessage({ ok: true });
  } else if (data?.type === 'ping') {
    event.ports[0]?.postMessage({ ok: true });
  }
});

async function report(id: string, message: string) {
  for (const client of await self.clients.matchAll({ type: 'window' }))
    client.postMessage({ type: 'download-error', id, message });
}

function withErrors(id: string, stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        void report(id, (error as Error).message);
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(`${scope.pathname}dl/`)) return;
  const id = url.pathname.slice(`${scope.pathname}dl/`.length);
  const job = jobs.get(id);
  if (!job) return; // the server explains that the link works only from the page
  jobs.delete(id);
  const headers = new Headers({
    'content-disposition': contentDisposition(job.name),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  let body: ReadableStream<Uint8Array>;
  if (job.kind === 'file') {
    const file = job.files[0]!;
    body = downloadStream(file);
    headers.set('content-type', 'application/octet-stream');
    headers.set('content-length', String(file.size));
  } else {
    const names = uniqueNames(job.files.map((f) => f.name));
    const entries = job.files.map((f, i) => ({ name: names[i]!, size: f.size, lastModified: new Date() }));
    const zip = downloadZip(
      (function* () {
        for (let i = 0; i < job.files.length; i++) yield { ...entries[i]!, input: downloadStream(job.files[i]!) };
      })(),
      { metadata: entries },
    );
    body = zip.body!;
    headers.set('content-type', 'application/zip');
    const length = zip.headers.get('content-length');
    if (length) headers.set('content-length', length);
  }
  event.respondWith(new Response(withErrors(id, body), { status: 200, headers }));
});
