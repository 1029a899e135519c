import type { SiteConfig } from '../config.js';
import type { ChunkSource } from '../core.js';
import {
  blobSource,
  DecryptorGoneError,
  type DownloadFile,
  encryptChunk,
  type RetryInfo,
  type RetryOptions,
} from '../core.js';
import { CryptoLanes, type MessageParts } from './crypto-ports.js';

/**
 * The page's crypto workers (web/src/workers/crypto-worker.ts): encryption for uploads and decryption for
 * downloads run there, one chunk per worker at a time, instead of on the page's thread (which also
 * draws the page and drives the chunk PUTs) or the service worker's (which also feeds the download's
 * response). A service worker cannot start workers, so for a download the page lends it one port
 * per worker.
 *
 * Everything falls back to the calling thread when workers are not there: no Worker in this
 * context, a worker script that fails to load, or `localStorage['webfolder.cryptoWorkers'] = '0'`
 * (the benchmark's baseline without workers; docs/benchmarks.md). A number there sets the count.
 */
export interface CryptoPool {
  /** A File's chunk source whose chunks are encrypted in a worker. */
  source(file: Blob): ChunkSource;
  /**
   * Fetches and decrypts a download's chunk in a worker (DownloadStreamOptions.open); without
   * workers it rejects with DecryptorGoneError, and downloadStream opens the chunk itself.
   */
  open(
    file: DownloadFile,
    chunk: number,
    onRetry?: (info: RetryInfo) => void,
    retry?: RetryOptions,
  ): Promise<Uint8Array>;
  /** One port per worker for the service worker's download; it closes them when done. */
  lend(): MessagePort[];
  /**
   * Posts `message` to the first worker (a download it writes into a picked file: ./file-saver.ts);
   * false, and nothing sent, without workers.
   */
  host(message: unknown, transfer: Transferable[]): boolean;
}

/** At most this many workers: past the cores, more only compete with the page and the network. */
const MAX_WORKERS = 4;

function workerCount(): number {
  try {
    const chosen = localStorage.getItem('webfolder.cryptoWorkers');
    if (chosen !== null && /^\d+$/.test(chosen)) return Math.min(MAX_WORKERS, Number(chosen));
  } catch {
    /* storage blocked: the default */
  }
  return Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2));
}

let pool: CryptoPool | undefined;

export function cryptoPool(config: SiteConfig): CryptoPool {
  pool ??= startPool(config);
  return pool;
}

function startPool(config: SiteConfig): CryptoPool {
  const workers: Worker[] = [];
  const count = typeof Worker === 'undefined' ? 0 : workerCount();
  try {
    for (let i = 0; i < count; i++) workers.push(new Worker(`${config.base}crypto-worker.js`, { name: 'crypto' }));
  } catch {
    for (const w of workers) w.terminate();
    workers.length = 0;
  }
  const lanes = new CryptoLanes(workers);
  // A script that cannot load (blocked, not built) fails every worker: everything then runs here.
  for (const w of workers) w.addEventListener('error', () => lanes.fail('a crypto worker failed to start'));
  if (workers.length === 0) lanes.fail('no crypto workers');
  const usable = () => !lanes.gone;

  return {
    source(file) {
      const local = blobSource(file);
      return {
        read: local.read,
        async sealed(key, offset, length) {
          // The page reads the slice (the browser does the work, off this thread) and hands the
          // bytes over. A worker reading the File itself was measured to grow the renderer and the
          // browser process with the file (+521 and +431 MiB for 3 GiB; docs/benchmarks.md), as a
          // Blob made in the worker did (crypto-ports.ts `seal`). The worker answers the message's
          // parts, and the PUT's Blob is made of them here: its bytes are copied once.
          if (usable()) {
            try {
              const plaintext = await local.read(offset, length);
              return new Blob(await lanes.call<MessageParts>({ op: 'seal', key, plaintext }, [plaintext.buffer]));
            } catch (error) {
              if (!(error instanceof DecryptorGoneError)) throw error;
            }
          }
          return encryptChunk(key, await local.read(offset, length));
        },
      };
    },
    open: (file, chunk, onRetry, retry) =>
      lanes.call({ op: 'fetch-open', file, chunk, ...(retry ? { retry } : {}) }, [], onRetry),
    lend() {
      if (!usable()) return [];
      return workers.map((w) => {
        const channel = new MessageChannel();
        w.postMessage({ type: 'serve' }, [channel.port2]);
        return channel.port1;
      });
    },
    host(message, transfer) {
      if (!usable() || !workers[0]) return false;
      workers[0].postMessage(message, transfer);
      return true;
    },
  };
}
