import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type FolderKey, IntegrityError } from '../../crypto/index.js';
import { type ArrivalOptions, arrivalOf } from '../../transfer/arriving.js';
import { type DownloadStreamOptions, downloadStream } from '../../transfer/download.js';
import { InputError, WebfolderError } from '../../transfer/errors.js';
import { type FolderListing, type ListedFile, listFolder, type SiteOptions } from '../../transfer/folder.js';
import { numbered, saveName, savePath } from '../../transfer/names.js';
import { filePlan, plaintextChunkLength } from '../../transfer/plan.js';
import type { HttpOptions } from '../../transfer/retry.js';
import { giveBackChunkBuffer, whileDownloading } from './chunk-buffers.js';
import { nodeDecryptChunk } from './decrypt.js';
import { nodeFetch } from './transport.js';

export { listFolder } from '../../transfer/folder.js';

/**
 * Downloads every complete file of a folder into `destination`: names decrypted, then each file's
 * `downloadStream` (the transfer core's one download pipeline: chunks fetched ahead, each checked,
 * decrypted and authenticated in order; here fetched by node:http into one buffer and decrypted in
 * place by node:crypto, see transport.ts and decrypt.ts) written into `<name>.webfolder-part`, renamed to the name
 * only once the whole file verified. A name with folders (`a/sub/b.txt`) is saved in the same
 * folders below `destination` (src/transfer/names.ts). Existing files are never overwritten: a
 * numbered name is chosen instead.
 *
 * A file whose upload is still running is downloaded as it arrives: each chunk is
 * fetched once stored, the download completes when the upload does, and if the upload is cancelled
 * or the folder deleted it fails with UploadEndedError and the partial file is removed. With
 * `waitForUploads: false` such files are skipped instead.
 */
export interface DownloadOptions extends SiteOptions {
  /** Chunks in flight at once (default 4: the one being written and three fetched ahead). */
  readonly concurrency?: number;
  readonly onFile?: (file: { name: string; size: number; path: string }) => void;
  /** Download files still arriving as they arrive (default true); false skips them. */
  readonly waitForUploads?: boolean;
  /** Told when a file still arriving waits for chunk `chunk` of `chunks`. */
  readonly onWaiting?: (file: { name: string; chunk: number; chunks: number }) => void;
  /**
   * Decrypts one chunk (default: node:crypto in place, decrypt.ts). `decryptChunk` of src/crypto
   * (WebCrypto, the page's) gives the same bytes and errors: the benchmark compares the two.
   */
  readonly decrypt?: DownloadStreamOptions['decrypt'];
  /** How a file still arriving is waited for (pauses, when a stalled sender is given up). */
  readonly arrival?: Omit<ArrivalOptions, 'onWaiting'>;
}

export interface DownloadResult {
  readonly folderId: string;
  readonly title: string | null;
  readonly directory: string;
  readonly files: readonly {
    readonly name: string;
    readonly size: number;
    readonly path: string;
    readonly fileId: string;
  }[];
  /** Files not downloaded: still uploading, sealed to the owner (request mode), or out of downloads. */
  readonly skipped: readonly SkippedFile[];
}

export interface SkippedFile {
  readonly name: string;
  readonly fileId: string;
  readonly reason: string;
  readonly code: 'sealed' | 'incomplete' | 'download_limit_reached';
}

export function download(link: string, destination: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  return whileDownloading(() => downloadFolder(link, destination, options));
}

async function downloadFolder(link: string, destination: string, options: DownloadOptions): Promise<DownloadResult> {
  const listing = await listFolder(link, options);
  await mkdir(destination, { recursive: true });
  const files: { name: string; size: number; path: string; fileId: string }[] = [];
  const skipped: SkippedFile[] = [];
  const skip = (file: ListedFile, code: SkippedFile['code'], reason: string) =>
    skipped.push({ name: file.name, fileId: file.fileId, reason, code });
  const taken = new Set<string>();
  for (const file of listing.files) {
    if (!file.key) {
      skip(file, 'sealed', 'sealed to the folder owner (request mode)');
      continue;
    }
    if (!file.complete && options.waitForUploads === false) {
      skip(file, 'incomplete', 'upload not complete');
      continue;
    }
    // One ticket = one download: asked for right before the file's chunks (the server counts it).
    let ticket: string;
    try {
      ({ ticket } = await listing.client.startDownload(file.fileId));
    } catch (error) {
      if (error instanceof WebfolderError && error.serverCode === 'download_limit_reached') {
        skip(file, 'download_limit_reached', 'its download limit is used up');
        continue;
      }
      throw error;
    }
    const path = await freePath(destination, savePath(file.name, file.fileId), taken);
    await mkdir(dirname(path), { recursive: true });
    await downloadFile(listing, file, file.key, ticket, path, options);
    files.push({ name: file.name, size: file.size, path, fileId: file.fileId });
    options.onFile?.({ name: file.name, size: file.size, path });
  }
  return { folderId: listing.folderId, title: listing.title, directory: destination, files, skipped };
}

/** Bytes written between two early writeback requests (see downloadFile). */
const WRITEBACK_EVERY = 16 * 1024 * 1024;

async function downloadFile(
  listing: FolderListing,
  file: ListedFile,
  key: FolderKey,
  ticket: string,
  path: string,
  options: DownloadOptions,
): Promise<void> {
  const http: HttpOptions = {
    // Chunk GETs read into one buffer by node:http (transport.ts), opened in place by node:crypto.
    fetch: options.fetch ?? nodeFetch,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };
  const stream = downloadStream(
    {
      name: file.name,
      size: file.size,
      chunkSize: file.chunkSize,
      chunks: file.chunks,
      key,
      siteApi: listing.siteApi,
      folderId: listing.folderId,
      fileId: file.fileId,
      credentials: { ...listing.client.credentialHeaders(), 'x-download-ticket': ticket },
    },
    {
      ...http,
      decrypt: options.decrypt ?? nodeDecryptChunk,
      ...(options.concurrency !== undefined ? { ahead: Math.max(0, options.concurrency - 1) } : {}),
      ...(file.complete
        ? {}
        : {
            arrival: arrivalOf(listing.client, file.fileId, file.name, {
              ...options.arrival,
              ...(options.onWaiting
                ? { onWaiting: (chunk: number) => options.onWaiting?.({ name: file.name, chunk, chunks: file.chunks }) }
                : {}),
            }),
          }),
    },
  );
  const part = `${path}.webfolder-part`;
  const handle = await open(part, 'w', 0o600);
  const reader = stream.getReader();
  // Early writeback, as the server's blob store does: the kernel would start writing the dirty
  // pages only at the final sync (gigabytes later), which then waited for the whole file; asking
  // every WRITEBACK_EVERY bytes lets the disk work while the network does. At most one at a time.
  let writeback: Promise<void> | null = null;
  let sinceWriteback = 0;
  const write = async (bytes: Uint8Array) => {
    for (let written = 0; written < bytes.byteLength; ) {
      written += (await handle.write(bytes, written, bytes.byteLength - written)).bytesWritten;
    }
    sinceWriteback += bytes.byteLength;
    if (sinceWriteback >= WRITEBACK_EVERY && writeback === null) {
      sinceWriteback = 0;
      const started: Promise<void> = handle.datasync().finally(() => {
        writeback = null;
      });
      started.catch(() => {}); // observed below, before the final sync
      writeback = started;
    }
  };
  // The stream hands each chunk's plaintext on in pieces (views of one buffer); once all of a
  // chunk is written, its buffer goes back to the transport for another chunk (chunk-buffers.ts).
  const plan = filePlan(file.size, file.chunkSize, file.chunks, file.name);
  let chunk = 1;
  let chunkLeft = plan.chunks > 0 ? plaintextChunkLength(plan, 1) : 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await write(value);
      chunkLeft -= value.byteLength;
      if (chunkLeft <= 0) {
        giveBackChunkBuffer(value);
        chunk++;
        chunkLeft = chunk <= plan.chunks ? plaintextChunkLength(plan, chunk) : 0;
      }
    }
    await (writeback as Promise<void> | null);
    await handle.sync();
  } catch (error) {
    await (writeback as Promise<void> | null)?.catch(() => {});
    await reader.cancel().catch(() => undefined);
    await handle.close();
    await rm(part, { force: true });
    throw error;
  }
  await handle.close();
  if ((await stat(part)).size !== file.size) {
    await rm(part, { force: true });
    throw new IntegrityError(`${file.name} does not have its registered size of ${file.size} bytes`);
  }
  await rename(part, path);
}

/** A decrypted name as a plain file name, without its folders: `saveName` of src/transfer/names.ts. */
export const safeName = saveName;

/** `dir` joined with the save path `name` (with `/`), numbered when taken on disk or in this run. */
async function freePath(dir: string, name: string, taken: Set<string>): Promise<string> {
  for (let i = 0; i < 10_000; i++) {
    const candidate = join(dir, ...(i === 0 ? name : numbered(name, i)).split('/'));
    if (taken.has(candidate)) continue;
    try {
      await stat(candidate);
    } catch {
      taken.add(candidate);
      return candidate;
    }
  }
  throw new InputError(`no free name for ${name} in ${dir}`);
}
