import { makeZip } from 'client-zip';
import type { SiteConfig } from '../config.js';
import { type DownloadStreamOptions, downloadStream, uniqueNames } from '../core.js';
import { cryptoPool } from '../workers/crypto-pool.js';
import {
  type DownloadJob,
  fromServiceWorker,
  type ToServiceWorker,
  type TransferFailure,
} from '../workers/sw-protocol.js';

/**
 * Starting a download. With a service worker controlling the page (which browsers: docs/site.md,
 * "What each browser gets"), the worker streams the decrypted file to the browser's download
 * manager. Without one, the page decrypts chunk by chunk into a Blob (the browser may spill it to
 * disk, but it can use memory up to the file's size) and saves that. Both run the transfer core's
 * `downloadStream`.
 */
export type DownloadPath = 'service-worker' | 'memory';

export type { DownloadJob };

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
/** What to do when the service worker has handed a download's last byte to the browser, by download id. */
const whenDone = new Map<string, () => void>();

/**
 * Where the service worker's download failures are shown: the files view of the page on screen.
 * One listener for the page's lifetime; each render of the files view only replaces the handler
 * (a listener added per render would pile up and report into views no longer shown).
 */
export function onDownloadError(handler: (failure: TransferFailure) => void): void {
  reportError = handler;
  listen();
}

function listen(): void {
  if (listening || !('serviceWorker' in navigator)) return;
  listening = true;
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    const d = fromServiceWorker(e.data);
    if (d?.type === 'download-error') {
      whenDone.delete(d.id);
      reportError?.(d.failure);
    } else if (d?.type === 'download-done') {
      whenDone.get(d.id)?.();
      whenDone.delete(d.id);
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
 * `onDone` runs when the service worker has handed the browser the last byte, so that the page can
 * say the download is done rather than leave "saving" on screen.
 */
export async function download(config: SiteConfig, job: DownloadJob, onDone?: () => void): Promise<DownloadPath> {
  const worker = await startServiceWorker(config);
  if (worker) {
    const id = crypto.randomUUID();
    if (onDone) {
      listen();
      whenDone.set(id, onDone);
      setTimeout(() => whenDone.delete(id), 24 * 3600_000);
    }
    // The page's crypto workers decrypt for the service worker (it cannot start workers itself).
    const lent = cryptoPool(config).lend();
    if (await ask(worker, { type: 'download', id, job }, lent)) {
      const frame = document.createElement('iframe');
      frame.hidden = true;
      frame.title = 'download';
      frame.src = `${config.base}dl/${id}`;
      document.body.append(frame);
      setTimeout(() => frame.remove(), 60_000);
      return 'service-worker';
    }
    for (const port of lent) port.close();
  }
  await downloadInMemory(job, { open: cryptoPool(config).open });
  return 'memory';
}

async function downloadInMemory(job: DownloadJob, options: DownloadStreamOptions): Promise<void> {
  let blob: Blob;
  if (job.kind === 'file') {
    blob = await new Response(downloadStream(job.files[0]!, options)).blob();
  } else {
    const names = uniqueNames(job.files.map((f) => f.name));
    const zip = makeZip(
      job.files.map((f, i) => ({
        name: names[i]!,
        size: f.size,
        lastModified: new Date(),
        input: downloadStream(f, options),
      })),
    );
    blob = await new Response(zip).blob();
  }
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = job.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
