import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { UploadUrls } from '../../contract/types.js';
import {
  BlobNotFoundError,
  type BlobStore,
  ChunkLengthError,
  type ChunkReceiver,
  type ChunkRef,
  type ChunkUrlQuery,
  chunkKeyNumber,
  type PresignRequest,
} from '../blob-store.js';
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

export class LocalBlobStore implements BlobStore, ChunkReceiver {
  private readonly incoming: string;

  private constructor(
    private readonly root: string,
    private readonly signer: ChunkUrlSigner,
    private readonly clock: () => number,
  ) {
    this.incoming = join(root, '.incoming');
  }

  static async open(root: string, signer: ChunkUrlSigner, clock: () => number): Promise<LocalBlobStore> {
    const store = new LocalBlobStore(root, signer, clock);
    // Anything still incoming belongs to a write that a crash or kill interrupted.
    await rm(store.incoming, { recursive: true, force: true });
    await mkdir(store.incoming, { recursive: true });
    return store;
  }

  private fileDir(ref: ChunkRef): string {
    return join(this.root, ref.folderId, ref.fileId);
  }

  async presignUploads(request: PresignRequest): Promise<UploadUrls> {
    return this.signer.presign(request, this.clock());
  }

  verifyChunkUrl(ref: ChunkRef, n: number, expectedLength: number, query: ChunkUrlQuery, now: number): void {
    this.signer.verify(ref, n, expectedLength, query, now);
  }

  async writeChunk(ref: ChunkRef, n: number, expectedLength: number, body: Readable): Promise<void> {
    const dir = this.fileDir(ref);
    const temp = join(this.incoming, `${ref.fileId}-${n}-${randomBytes(6).toString('hex')}`);
    const handle = await open(temp, 'wx');
    try {
      await receive(body, handle, expectedLength);
      await handle.close();
      await mkdir(dir, { recursive: true });
      await rename(temp, join(dir, chunkKeyNumber(n)));
      await syncDirectory(dir);
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Names of the chunks stored for a file (none when its directory does not exist). */
  private async chunkNames(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).filter((name) => CHUNK_NAME.test(name));
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

  async countChunks(ref: ChunkRef): Promise<number> {
    return (await this.chunkNames(this.fileDir(ref))).length;
  }

  async readChunk(ref: ChunkRef, n: number): Promise<Readable> {
    try {
      const handle = await open(join(this.fileDir(ref), chunkKeyNumber(n)), 'r');
      return handle.createReadStream({ highWaterMark: 1 << 20 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(`chunk ${n} is not stored`);
      throw error;
    }
  }

  async deleteFile(ref: ChunkRef): Promise<void> {
    await rm(this.fileDir(ref), { recursive: true, force: true });
  }

  async deleteFolder(folderId: string): Promise<void> {
    await rm(join(this.root, folderId), { recursive: true, force: true });
  }

  async close(): Promise<void> {}
}

/**
 * Writes exactly `expectedLength` bytes of `body` to `handle` and makes them durable. Reading waits
 * while a batch is written (back-pressure), so memory stays at about one batch per upload.
 *
 * The kernel would start writing dirty pages back only once gigabytes are dirty, so one fsync at the
 * end would wait for the whole chunk to reach the disk. Asking for writeback every few MiB while the
 * body still arrives lets the disk work in parallel with the network, and the final sync has little
 * left to do. At most one such request is in flight.
 */
async function receive(body: Readable, handle: FileHandle, expectedLength: number): Promise<void> {
  let received = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let sinceWriteback = 0;
  let writeback: Promise<void> | null = null;
  const writeBatch = async () => {
    if (batchBytes === 0) return;
    const pieces = batch;
    batch = [];
    sinceWriteback += batchBytes;
    batchBytes = 0;
    await handle.writev(pieces);
    if (sinceWriteback >= WRITEBACK_EVERY && writeback === null) {
      sinceWriteback = 0;
      writeback = handle.datasync().finally(() => {
        writeback = null;
      });
    }
  };
  for await (const piece of body as AsyncIterable<Buffer>) {
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
  await writeback;
  await handle.sync();
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
