import { decryptChunk, type FolderKey, IntegrityError, importSecret } from '../crypto/index.js';
import { MIB } from '../domain/chunk-plan.js';
import { type Arrival, type ArrivalOptions, arrivalOf, untilArrived } from './arriving.js';
import { uniqueNames } from './names.js';
import { encryptedLength, filePlan, plaintextChunkLength } from './plan.js';
import { type ByteRange, type ChunkSlice, rangeChunks } from './range.js';
import {
  AFTER_PAUSE_RETRY,
  DOWNLOAD_RETRY,
  type HttpOptions,
  isPassingFailure,
  linkedController,
  type RetryOptions,
} from './retry.js';
import { fetchChunkBytes, SiteClient } from './site-client.js';
import { siteChunkUrl } from './urls.js';

/**
 * The one download pipeline: `downloadStream(file)` fetches a file's chunks from the site (and from
 * object storage, without credentials), checks each one's exact length, decrypts and authenticates
 * it (RFC 8188: AES-GCM per record plus the final-record marker, so a truncated or altered chunk
 * fails) and hands the plaintext on in order. The service worker pipes it into a `Response`, the
 * page's in-memory fallback into a Blob, Node into a file. A bad chunk is never handed on as data:
 * the stream errors with an IntegrityError instead.
 *
 * A `DownloadFile` is plain data (structured-cloneable) so the page can post it to its service
 * worker; the secret travels only between the page and its own worker.
 */
export interface DownloadFile {
  /** Decrypted name (messages; a path inside a zip). */
  readonly name: string;
  readonly size: number;
  readonly chunkSize: number;
  readonly chunks: number;
  /** The file's secret (base64url) or its imported key: the folder's, or its own in request mode. */
  readonly key: string | FolderKey;
  /** The site API address (absolute in a service worker or in Node). */
  readonly siteApi: string;
  readonly folderId: string;
  readonly fileId: string;
  /** Credential headers for the site's own address (never sent to object storage). */
  readonly credentials: Readonly<Record<string, string>>;
  /** When the file was uploaded (epoch ms): its zip entry's time; absent: the time of the download. */
  readonly uploadedAt?: number;
  /**
   * The file was not complete when its download started (its upload is running): a chunk
   * not stored yet is waited for (arriving.ts) unless the caller passes its own `arrival`.
   */
  readonly arriving?: boolean;
  /**
   * When the download's ticket (in `credentials`) expires, epoch milliseconds: a paused download
   * (DownloadStreamOptions.pause) waits at most until then.
   */
  readonly ticketExpiresAt?: number;
}

export interface DownloadStreamOptions extends HttpOptions {
  /** Chunks fetched and decrypted ahead of the one being handed on (default: `chunksAhead`). */
  readonly ahead?: number;
  /**
   * Decrypts one chunk (default: `decryptChunk` on this thread). The place to move decryption
   * elsewhere (the page's crypto workers) without changing the pipeline; it must authenticate like
   * `decryptChunk`. It may take the message's buffer (transfer it to a worker); if it then cannot
   * answer, it throws DecryptorGoneError and the chunk is fetched again and decrypted here.
   */
  readonly decrypt?: (key: FolderKey, message: Uint8Array) => Promise<Uint8Array>;
  /**
   * Fetches and decrypts a whole chunk elsewhere (the page's crypto workers run `openChunk` for the
   * service worker, whose thread then only feeds the response). It must do what `openChunk` does;
   * the length is checked again here. If it throws DecryptorGoneError, the chunk is opened here.
   * It is handed `onRetry`, to tell the retry policy's waits where the chunk is fetched, and the
   * policy to fetch it with when the caller names one (`AFTER_PAUSE_RETRY`; else DOWNLOAD_RETRY).
   */
  readonly open?: (
    file: DownloadFile,
    k: number,
    onRetry?: HttpOptions['onRetry'],
    retry?: RetryOptions,
  ) => Promise<Uint8Array>;
  /**
   * Pauses the download instead of failing it: when the retry policy gives up on a
   * chunk for a failure that may pass (`isPassingFailure`: no connection, 408, 429, 5xx), the stream
   * stays open, waits until `pause(k)` resolves (the person's "Try again now", or a slow interval)
   * and fetches that chunk again, one attempt (AFTER_PAUSE_RETRY), pausing again if it fails. No
   * chunk already handed on is fetched again, so a ticket's byte budget holds. `pause` rejects to end
   * the download (its ticket expired). A refusal (403, 404, 410) or an integrity failure still ends
   * it at once. Without `pause`, the policy's last failure ends the download.
   */
  readonly pause?: (k: number) => Promise<void>;
  /**
   * Only these plaintext bytes (a media element's `Range`): only the chunks they touch are fetched,
   * and the first and last are cut to the range after their whole-chunk integrity check.
   */
  readonly range?: ByteRange;
  /**
   * The file may still be arriving (its upload is running): a chunk the site answers 404
   * for is waited for through this (arriving.ts) and fetched again, and the stream completes when the
   * last chunk has come. Without it, a missing chunk fails the download.
   */
  readonly arrival?: Arrival;
}

/**
 * Thrown by a `decrypt` option that took a chunk's message and can no longer answer (the workers it
 * sent it to are gone: the page that lent them closed). Not an integrity failure: the chunk is fetched
 * again and decrypted on the calling thread.
 */
export class DecryptorGoneError extends Error {
  override name = 'DecryptorGoneError';
}

/**
 * Chunks fetched and decrypted ahead of the one being handed on: three keep fetching and decrypting
 * overlapped (more measured no faster: Chromium's download manager drains the stream at its own
 * pace, see docs/benchmarks.md), and the count falls for large chunks so that memory stays near
 * AHEAD_BYTES of ciphertext plus as much plaintext (a chunk can be 105 MiB; at least one ahead).
 */
const AHEAD_BYTES = 64 * MIB;
const MAX_AHEAD = 3;
export function chunksAhead(chunkSize: number, most = MAX_AHEAD): number {
  return Math.max(1, Math.min(most, Math.floor(AHEAD_BYTES / chunkSize)));
}

/**
 * A decrypted chunk is handed on in pieces of this size (views, not copies). The browser drains a
 * service worker's response into its download manager through a pipe; in Chromium, whole 10 MiB
 * chunks downloaded at 0.47 of what a plain file download reaches on the same machine, 1 MiB pieces
 * at 0.56-0.60 (bench/browser.ts, alternating runs; see docs/benchmarks.md).
 */
export const HAND_ON_PIECE = MIB;

export function downloadStream(file: DownloadFile, options: DownloadStreamOptions = {}): ReadableStream<Uint8Array> {
  const plan = filePlan(file.size, file.chunkSize, file.chunks, file.name);
  const ahead = Math.max(0, Math.floor(options.ahead ?? chunksAhead(plan.chunkSize)));
  const decrypt = options.decrypt ?? decryptChunk;
  const cancelled = linkedController(options.signal);
  const signal = cancelled.signal;
  const { ahead: _ahead, decrypt: _decrypt, open: _open, range: _range, arrival: given, pause, ...rest } = options;
  const http: HttpOptions = { ...rest, signal };
  // One arrival per download: the chunks fetched ahead share its look at the listing.
  const arrival = given ?? (file.arriving ? arrivalOfDownload(file) : undefined);
  // The chunks to hand on, each with the part of its plaintext wanted (all of it without a range).
  const slices: ChunkSlice[] = options.range
    ? rangeChunks(plan, options.range)
    : Array.from({ length: plan.chunks }, (_, i) => ({ n: i + 1, from: 0, to: plaintextChunkLength(plan, i + 1) }));
  let index = 0;
  let keyPromise: Promise<FolderKey> | undefined;
  const pending = new Map<number, Promise<Uint8Array>>();
  // Fetch, check and decrypt chunk k. Several run at once (fetching and decrypting overlap), but
  // their results are handed on strictly in chunk order, and the first failure ends the stream.
  const openOnce = async (k: number, retry: RetryOptions | undefined): Promise<Uint8Array> => {
    if (options.open) {
      const elsewhere = options.open;
      const openThere = () => elsewhere(file, k, options.onRetry, retry);
      try {
        // The workers answer a chunk not stored yet with the site's 404: waited for here, once per download.
        const plaintext = await (arrival ? untilArrived(arrival, k, openThere, signal) : openThere());
        const expected = plaintextChunkLength(plan, k);
        if (plaintext.length !== expected)
          throw new IntegrityError(`chunk ${k} of ${file.name} has ${plaintext.length} bytes, expected ${expected}`);
        return plaintext;
      } catch (error) {
        if (!(error instanceof DecryptorGoneError)) throw error;
      }
    }
    keyPromise ??= typeof file.key === 'string' ? importSecret(file.key) : Promise.resolve(file.key);
    const here = retry ? { ...http, retry } : http;
    return openChunk(file, k, { http: here, decrypt, key: keyPromise, ...(arrival ? { arrival } : {}) });
  };
  // A chunk the policy gave up on for a passing failure waits for `pause` and is tried again: the
  // waits stay the one policy's (each try is its exchange); this only decides when the next try is.
  const open = async (k: number): Promise<Uint8Array> => {
    for (let retry: RetryOptions | undefined; ; retry = AFTER_PAUSE_RETRY) {
      try {
        return await openOnce(k, retry);
      } catch (error) {
        if (!pause || signal.aborted || !isPassingFailure(error)) throw error;
        await pause(k);
      }
    }
  };
  const start = (i: number) => {
    const k = slices[i]?.n;
    if (k !== undefined && !pending.has(k)) {
      const p = open(k);
      p.catch(() => {}); // observed when its turn comes
      pending.set(k, p);
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const slice = slices[index];
        if (!slice) {
          controller.close();
          return;
        }
        for (let i = index; i <= index + ahead; i++) start(i);
        const plaintext = (await pending.get(slice.n)!).subarray(slice.from, slice.to);
        pending.delete(slice.n);
        for (let at = 0; at < plaintext.length; at += HAND_ON_PIECE)
          controller.enqueue(plaintext.subarray(at, at + HAND_ON_PIECE));
        index++;
      },
      cancel() {
        cancelled.abort();
        pending.clear();
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * Fetches chunk `k` of `file`, checks its exact length, decrypts and authenticates it: what a download
 * does for every chunk, wherever it runs (downloadStream, or the page's crypto workers for the
 * service worker). With a `decrypt` that throws DecryptorGoneError, the chunk is fetched again and
 * decrypted here.
 */
export async function openChunk(
  file: DownloadFile,
  k: number,
  options: {
    readonly http?: HttpOptions;
    readonly decrypt?: DownloadStreamOptions['decrypt'];
    /** The file's key, imported once by a caller that opens many chunks. */
    readonly key?: Promise<FolderKey>;
    /** Waits for a chunk not stored yet (DownloadStreamOptions.arrival). */
    readonly arrival?: Arrival;
  } = {},
): Promise<Uint8Array> {
  const plan = filePlan(file.size, file.chunkSize, file.chunks, file.name);
  const decrypt = options.decrypt ?? decryptChunk;
  const key = await (options.key ?? (typeof file.key === 'string' ? importSecret(file.key) : file.key));
  const expected = plaintextChunkLength(plan, k);
  const where = `chunk ${k} of ${file.name}`;
  // An outage does not end a download early (DOWNLOAD_RETRY), unless the caller chose its own policy.
  const http: HttpOptions = { ...options.http, retry: options.http?.retry ?? DOWNLOAD_RETRY };
  const fetchOnce = () =>
    fetchChunkBytes(
      siteChunkUrl(file.siteApi, file.folderId, file.fileId, k),
      file.credentials,
      `GET chunk ${k}/${plan.chunks} of ${file.name}`,
      http,
    );
  const fetchMessage = async () => {
    const { arrival } = options;
    const message = await (arrival ? untilArrived(arrival, k, fetchOnce, options.http?.signal) : fetchOnce());
    if (message.length !== encryptedLength(expected)) {
      throw new IntegrityError(
        `${where} has ${message.length} bytes, expected ${encryptedLength(expected)}: it is truncated or damaged`,
      );
    }
    return message;
  };
  const authenticated = async (decrypted: Promise<Uint8Array>) => {
    try {
      return await decrypted;
    } catch (error) {
      if (error instanceof DecryptorGoneError) throw error;
      throw new IntegrityError(
        `${where} failed its integrity check (${(error as Error).message}); nothing after it was written`,
      );
    }
  };
  let plaintext: Uint8Array;
  try {
    plaintext = await authenticated(decrypt(key, await fetchMessage()));
  } catch (error) {
    if (!(error instanceof DecryptorGoneError)) throw error;
    plaintext = await authenticated(decryptChunk(key, await fetchMessage()));
  }
  if (plaintext.length !== expected)
    throw new IntegrityError(`${where} has ${plaintext.length} bytes, expected ${expected}`);
  return plaintext;
}

/**
 * The arrival of a file a download was started for while it was incomplete (`DownloadFile.arriving`):
 * the page's service worker and its in-memory fallback have no SiteClient, only the file's plain
 * data, so the listing is asked with the same credentials the chunks are (not the ticket, which
 * the listing does not take).
 */
export function arrivalOfDownload(file: DownloadFile, options: ArrivalOptions = {}): Arrival {
  const c = file.credentials;
  const client = new SiteClient(file.siteApi, file.folderId, {
    ownerToken: c['x-owner-token'],
    visitorToken: c['x-visitor-token'],
    uploadAuth: c['x-upload-auth'],
  });
  return arrivalOf(client, file.fileId, file.name, options);
}

/** A zip entry as the archive writer takes it (without its bytes). */
export interface ZipEntry {
  readonly name: string;
  readonly size: number;
  readonly lastModified: Date;
}

/**
 * The entries of "Download all"'s zip, wherever it is written (the service worker, the picked
 * file's writer, memory): unique, portable names (names.ts) and the time each file was uploaded.
 */
export function zipEntries(files: readonly DownloadFile[], now = Date.now()): ZipEntry[] {
  const names = uniqueNames(files.map((f) => f.name));
  return files.map((f, i) => ({ name: names[i]!, size: f.size, lastModified: new Date(f.uploadedAt ?? now) }));
}

/** A Content-Disposition for a download of `name` (ASCII fallback plus RFC 5987 UTF-8). */
export function contentDisposition(name: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
