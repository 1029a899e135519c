import { randomBytes } from 'node:crypto';
import { type FileHandle, link, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { chunkName } from '../../contract/paths.js';
import type { UploadUrls } from '../../contract/types.js';
import {
  type BlobCapabilities,
  BlobNotFoundError,
  type BlobStore,
  ChunkConflictError,
  ChunkLengthError,
  type ChunkReceiver,
  type ChunkRef,
  type ChunkUrlQuery,
  type FolderChunkLister,
  InsufficientStorageError,
  type PresignRequest,
  type SpaceGuard,
  type StoredRange,
  THUMBNAIL_NAME,
} from '../blob-store.js';
import { DiskSpace, type Reservation, type ReservationPolicy } from './disk-space.js';
import { FileRangeStream } from './file-range-stream.js';
import type { ChunkUrlSigner } from './url-signer.js';

/**
 * The embedded bytes store: one file per encrypted chunk under `<root>/<folderId>/<fileId>/NNNNN`.
 *
 * A chunk is written to `<root>/.incoming/` (same filesystem), fsynced, renamed into place and the
 * directory fsynced: so a chunk name exists only for a complete, durable chunk, and a process killed
 * mid-write leaves only an incoming file, which the next start removes.
 */
const CHUNK_NAME = /^\d{5,}$/;
/** Bytes received between two early writeback requests while a chunk streams in. */
const WRITEBACK_EVERY = 4 << 20;
/** Bytes gathered before one writev: few system calls, bounded memory. */
const WRITE_BATCH = 1 << 20;

export interface LocalBlobStoreOptions {
  /** Free space to keep on the disk (DISK_FREE_MIN_MIB); 0 turns the floor off. */
  readonly diskFreeMinBytes?: number;
  /** How long registrations' reservations last without progress, and the share one holder may take. */
  readonly reservations?: ReservationPolicy;
}

export class LocalBlobStore implements BlobStore, ChunkReceiver, SpaceGuard, FolderChunkLister {
  private readonly incoming: string;
  private readonly space: DiskSpace;
  /** Chunks come through this process, onto a disk it watches; no presigned downloads. */
  readonly capabilities: BlobCapabilities = {
    chunkReceiver: this,
    spaceGuard: this,
    downloadPresigner: null,
    folderChunkLister: this,
  };

  private constructor(
    private readonly root: string,
    private readonly signer: ChunkUrlSigner,
    private readonly clock: () => number,
    options: LocalBlobStoreOptions,
  ) {
    this.incoming = join(root, '.incoming');
    this.space = new DiskSpace(root, options.diskFreeMinBytes ?? 0, clock, options.reservations);
  }

  static async open(
    root: string,
    signer: ChunkUrlSigner,
    clock: () => number,
    options: LocalBlobStoreOptions = {},
  ): Promise<LocalBlobStore> {
    const store = new LocalBlobStore(root, signer, clock, options);
    // Anything still incoming belongs to a write that a crash or kill interrupted.
    await rm(store.incoming, { recursive: true, force: true });
    await mkdir(store.incoming, { recursive: true });
    return store;
  }

  private fileDir(ref: ChunkRef): string {
    return join(this.root, ref.folderId, ref.fileId);
  }

  presignUploads(request: PresignRequest): Promise<UploadUrls> {
    return this.signer.presign(request, this.clock());
  }

  ensureSpace(bytes: number, file?: ChunkRef): Promise<void> {
    return this.space.ensure(bytes, file && spaceKey(file));
  }

  reserveUploads(
    files: readonly { readonly ref: ChunkRef; readonly bytes: number; readonly until: number }[],
    client: string | null = null,
  ): Promise<void> {
    const folder = files[0]?.ref.folderId ?? '';
    return this.space.reserveFiles(
      files.map((f) => ({ file: spaceKey(f.ref), bytes: f.bytes, until: f.until })),
      { folder, client },
    );
  }

  releaseUploads(refs: readonly ChunkRef[]): void {
    this.space.releaseFiles(refs.map(spaceKey));
  }

  verifyChunkUrl(ref: ChunkRef, n: number, expectedLength: number, query: ChunkUrlQuery, now: number): void {
    this.signer.verify(ref, n, expectedLength, query, now);
  }

  async writeChunk(ref: ChunkRef, n: number, expectedLength: number, body: AsyncIterable<Uint8Array>): Promise<void> {
    const dir = this.fileDir(ref);
    const temp = join(this.incoming, `${ref.fileId}-${n}-${randomBytes(6).toString('hex')}`);
    // The file's reservation (made at registration) moves to this write, which reserves the bytes
    // itself while they stream in; it goes back if the write fails, so a retry still has it.
    const prepaid = this.space.takeFromFile(spaceKey(ref), expectedLength);
    const reservation = await this.space.reserve(expectedLength).catch((error: unknown) => {
      this.space.returnToFile(spaceKey(ref), prepaid);
      throw error;
    });
    let written = false;
    try {
      const handle = await open(temp, 'wx').catch(noSpace);
      try {
        await receive(body, handle, expectedLength, reservation);
        await handle.close().catch(noSpace);
        await mkdir(dir, { recursive: true }).catch(noSpace);
        await placeOnce(temp, join(dir, chunkName(n)));
        await syncDirectory(dir).catch(noSpace);
        written = true;
      } catch (error) {
        await handle.close().catch(() => {});
        throw error;
      } finally {
        await rm(temp, { force: true });
      }
    } finally {
      reservation.release();
      if (!written) this.space.returnToFile(spaceKey(ref), prepaid);
    }
  }

  /** Names of the chunks stored for a file (none when its directory does not exist), or those `keep` accepts. */
  private async chunkNames(dir: string, keep = (name: string) => CHUNK_NAME.test(name)): Promise<string[]> {
    try {
      return (await readdir(dir)).filter(keep);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async listChunks(ref: ChunkRef): Promise<Map<number, number>> {
    const dir = this.fileDir(ref);
    const chunks = await this.chunkNames(dir);
    const sizes = await Promise.all(chunks.map(async (name) => (await stat(join(dir, name))).size));
    return new Map(chunks.map((name, i) => [Number(name), sizes[i]!]));
  }

  /**
   * The chunks of several files of one folder: one listing of the folder's directory, then only the
   * files that have a directory (a file none of whose chunks arrived has none). A listing page of
   * 1,000 files registered and not yet uploaded costs one readdir, not 1,000 failing ones.
   */
  async listFolderChunks(folderId: string, fileIds: readonly string[]): Promise<Map<string, Map<number, number>>> {
    const present = new Set(await this.chunkNames(join(this.root, folderId), () => true));
    const listed = new Map<string, Map<number, number>>();
    for (const fileId of fileIds) {
      listed.set(fileId, present.has(fileId) ? await this.listChunks({ folderId, fileId }) : new Map());
    }
    return listed;
  }

  async countChunks(ref: ChunkRef): Promise<number> {
    return (await this.chunkNames(this.fileDir(ref))).length;
  }

  async readChunk(ref: ChunkRef, n: number, range?: StoredRange): Promise<Readable> {
    try {
      const handle = await open(join(this.fileDir(ref), chunkName(n)), 'r');
      const length = range
        ? range.end - range.start + 1
        : await handle.stat().then(
            (s) => s.size,
            async (error: unknown) => {
              await handle.close();
              throw error;
            },
          );
      return new FileRangeStream(handle, range?.start ?? 0, length);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(`chunk ${n} is not stored`);
      throw error;
    }
  }

  /** Written like a chunk: to .incoming, synced, renamed into place, so a reader sees all of it or none. */
  async writeThumbnail(ref: ChunkRef, bytes: Uint8Array): Promise<void> {
    const dir = this.fileDir(ref);
    await this.space.ensure(bytes.length);
    const temp = join(this.incoming, `${ref.fileId}-thumbnail-${randomBytes(6).toString('hex')}`);
    try {
      await writeFile(temp, bytes, { flush: true }).catch(noSpace);
      await mkdir(dir, { recursive: true }).catch(noSpace);
      await rename(temp, join(dir, THUMBNAIL_NAME)).catch(noSpace);
      await syncDirectory(dir).catch(noSpace);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async readThumbnail(ref: ChunkRef): Promise<Uint8Array | null> {
    try {
      return await readFile(join(this.fileDir(ref), THUMBNAIL_NAME));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async deleteFile(ref: ChunkRef): Promise<void> {
    this.space.releaseFiles([spaceKey(ref)]);
    await rm(this.fileDir(ref), { recursive: true, force: true });
  }

  async deleteFolder(folderId: string): Promise<void> {
    this.space.releaseFiles([], `${folderId}/`);
    await rm(join(this.root, folderId), { recursive: true, force: true });
  }

  async close(): Promise<void> {}
}

/** A file's key in the disk's reservations. */
const spaceKey = (ref: ChunkRef) => `${ref.folderId}/${ref.fileId}`;

/**
 * Puts the received chunk `temp` in place at `target` unless a chunk is there already: a hard link
 * is created atomically and never replaces a name (a rename would), so of racing writes of a chunk
 * the first stays. A chunk stored already is compared with the bytes received: the same bytes are
 * an idempotent retry (file.kiwi's clients re-PUT a chunk whose answer they lost), other bytes a
 * ChunkConflictError (a replayed URL must not swap a chunk of an unfinished
 * file). The caller removes `temp` either way.
 */
async function placeOnce(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return noSpace(error);
    if (!(await sameBytes(temp, target)))
      throw new ChunkConflictError('this chunk is stored already with other bytes; a stored chunk is never replaced');
  }
}

/** Whether two files hold the same bytes, read side by side 1 MiB at a time. */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([open(a, 'r'), open(b, 'r')]);
  try {
    const [sx, sy] = await Promise.all([x.stat(), y.stat()]);
    if (sx.size !== sy.size) return false;
    const bx = Buffer.alloc(1 << 20);
    const by = Buffer.alloc(1 << 20);
    for (let position = 0; position < sx.size; ) {
      const [rx, ry] = await Promise.all([x.read(bx, 0, bx.length, position), y.read(by, 0, by.length, position)]);
      if (rx.bytesRead === 0 || rx.bytesRead !== ry.bytesRead) return false;
      if (!bx.subarray(0, rx.bytesRead).equals(by.subarray(0, ry.bytesRead))) return false;
      position += rx.bytesRead;
    }
    return true;
  } finally {
    await Promise.all([x.close(), y.close()]);
  }
}

/**
 * Writes exactly `expectedLength` bytes of `body` to `handle` and makes them durable. Reading waits
 * while a batch is written (back-pressure), so memory stays at about one batch per upload.
 *
 * A write may store fewer bytes than asked (a full disk stores what fits, then refuses the rest):
 * every batch is written until all of it is on disk, and a write that stores nothing or fails with
 * ENOSPC/EDQUOT is a full disk (InsufficientStorageError), so a chunk is never kept short.
 *
 * The kernel would start writing dirty pages back only once gigabytes are dirty, so one fsync at the
 * end would wait for the whole chunk to reach the disk. Asking for writeback every few MiB while the
 * body still arrives lets the disk work in parallel with the network, and the final sync has little
 * left to do. At most one such request is in flight.
 */
async function receive(
  body: AsyncIterable<Uint8Array>,
  handle: FileHandle,
  expectedLength: number,
  reservation: Reservation,
): Promise<void> {
  let received = 0;
  let position = 0;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  let sinceWriteback = 0;
  let writeback: Promise<void> | null = null;
  const writeBatch = async () => {
    if (batchBytes === 0) return;
    let pieces = batch;
    let left = batchBytes;
    batch = [];
    sinceWriteback += batchBytes;
    batchBytes = 0;
    while (left > 0) {
      const { bytesWritten } = await handle.writev(pieces, position).catch(noSpace);
      if (bytesWritten === 0) throw new InsufficientStorageError('the disk is full: nothing was stored');
      position += bytesWritten;
      left -= bytesWritten;
      reservation.consume(bytesWritten);
      if (left > 0) pieces = unwritten(pieces, bytesWritten);
    }
    if (sinceWriteback >= WRITEBACK_EVERY && writeback === null) {
      sinceWriteback = 0;
      const started: Promise<void> = handle
        .datasync()
        .catch(noSpace)
        .finally(() => {
          writeback = null;
        });
      // Observed at the end (or dropped with the write): never an unhandled rejection meanwhile.
      started.catch(() => {});
      writeback = started;
    }
  };
  try {
    for await (const piece of body) {
      received += piece.length;
      if (received > expectedLength) throw new ChunkLengthError(`chunk body is longer than ${expectedLength} bytes`);
      batch.push(piece);
      batchBytes += piece.length;
      if (batchBytes >= WRITE_BATCH) await writeBatch();
    }
    // A body cut short (client gone) ends the loop early or throws; either way nothing is kept.
    if (received !== expectedLength)
      throw new ChunkLengthError(`chunk body has ${received} bytes, expected ${expectedLength}`);
    await writeBatch();
  } catch (error) {
    await (writeback as Promise<void> | null)?.catch(() => {});
    throw error;
  }
  // A writeback's error is reported once: it must fail the chunk, not vanish before the final sync.
  await (writeback as Promise<void> | null);
  await handle.sync().catch(noSpace);
  // What the disk holds is what is acknowledged: a mismatch is never renamed into place.
  const { size } = await handle.stat();
  if (size !== expectedLength) throw new InsufficientStorageError(`stored ${size} of ${expectedLength} bytes`);
}

/** The pieces of `pieces` after the first `written` bytes. */
function unwritten(pieces: readonly Uint8Array[], written: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let skip = written;
  for (const piece of pieces) {
    if (skip >= piece.length) {
      skip -= piece.length;
      continue;
    }
    out.push(skip > 0 ? piece.subarray(skip) : piece);
    skip = 0;
  }
  return out;
}

const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/** Rethrows a full disk as InsufficientStorageError, anything else as it is. */
function noSpace(error: unknown): never {
  if (NO_SPACE.has((error as NodeJS.ErrnoException).code ?? ''))
    throw new InsufficientStorageError('the disk is full: nothing was stored');
  throw error;
}

/** Makes a rename inside `dir` durable (POSIX needs the directory itself synced). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
