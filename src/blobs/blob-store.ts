import type { Readable } from 'node:stream';
import { AppError } from '../contract/errors.js';
import type { UploadUrls } from '../contract/types.js';

/**
 * The bytes port, shaped like tusd's datastore: one small base interface that every backend has,
 * and each optional capability as its own interface, declared by each store (`capabilities`).
 *
 * Bytes are stored as one object per encrypted chunk, addressed by folder, file and chunk number.
 * The store is the single source of truth for which chunks exist: a chunk is present once it is
 * fully and durably stored, never before, and never partly.
 */
export interface ChunkRef {
  readonly folderId: string;
  readonly fileId: string;
}

/** What the presigner needs to know of a file: its id and the exact length of every chunk. */
export interface PresignRequest extends ChunkRef {
  readonly chunks: number;
  /** Encrypted length of chunk n (1-based). */
  readonly chunkLength: (n: number) => number;
  /** Epoch ms after which the URLs stop working. */
  readonly expiresAt: number;
  /** Which chunks to sign (default all); the others get an empty signature, at no signing cost. */
  readonly include?: (n: number) => boolean;
}

/** Bytes start..end (inclusive) of a stored object. */
export interface StoredRange {
  readonly start: number;
  readonly end: number;
}

/** The object name of a file's thumbnail beside its chunks (which are all digits). */
export const THUMBNAIL_NAME = 'thumbnail';

export interface BlobStore {
  /** Presigned upload URLs for every chunk of a file, in the file.kiwi `uploadUrls` shape. */
  presignUploads(request: PresignRequest): Promise<UploadUrls>;
  /** Chunk number -> stored byte length, for every chunk of the file that is fully stored. */
  listChunks(ref: ChunkRef): Promise<Map<number, number>>;
  /**
   * The stored bytes of one chunk, or only bytes [start, end] of it (inclusive, within the chunk:
   * the caller checks them against the chunk's length); rejects with BlobNotFoundError if absent.
   */
  readChunk(ref: ChunkRef, n: number, range?: StoredRange): Promise<Readable>;
  /**
   * Stores a file's encrypted thumbnail, replacing any before it: one small object beside the
   * file's chunks (never counted as a chunk), so deleteFile and deleteFolder remove it with them.
   */
  writeThumbnail(ref: ChunkRef, bytes: Uint8Array): Promise<void>;
  /** The file's stored thumbnail, or null when it has none. */
  readThumbnail(ref: ChunkRef): Promise<Uint8Array | null>;
  /** Removes every chunk of the file. Idempotent. */
  deleteFile(ref: ChunkRef): Promise<void>;
  /** Removes every object of the folder, leaving nothing behind. Idempotent. */
  deleteFolder(folderId: string): Promise<void>;
  close(): Promise<void>;
  /**
   * The optional capabilities this store has, declared by the store itself (tusd's `UseIn`): each
   * is the store, or null when it lacks it.
   */
  readonly capabilities: BlobCapabilities;
}

/**
 * Capability: the store receives chunk bodies through this process (the local backend). Backends
 * without it (S3) are uploaded to directly by clients.
 */
export interface ChunkReceiver {
  /**
   * Checks a chunk URL's signature and expiry for the given expected length; throws
   * ChunkUrlError when it does not verify. Called before any byte of the body is read.
   */
  verifyChunkUrl(ref: ChunkRef, n: number, expectedLength: number, query: ChunkUrlQuery, now: number): void;
  /**
   * Streams `body` to durable storage as chunk n. Resolves once exactly `expectedLength` bytes are
   * on disk (written, synced, linked into place); rejects with ChunkLengthError and keeps nothing if
   * the body is shorter or longer. A stored chunk is never replaced: the same bytes again resolve (a
   * client retrying a PUT whose answer it lost), other bytes reject with ChunkConflictError.
   */
  writeChunk(ref: ChunkRef, n: number, expectedLength: number, body: AsyncIterable<Uint8Array>): Promise<void>;
  /**
   * How many chunks of the file are stored, without their sizes: at least as many as listChunks
   * reports at their exact lengths. A cheap test after every chunk write, because a file with fewer
   * stored chunks than it has cannot be complete, and listing sizes costs a stat per chunk.
   */
  countChunks(ref: ChunkRef): Promise<number>;
}

/**
 * Capability: the bytes live on a disk this process watches, with a free-space floor
 * (DISK_FREE_MIN_MIB). Registrations reserve the encrypted bytes of their files first, so that
 * what is registered and not yet written counts against the free space: a
 * disk that cannot take a file refuses it with a clear answer instead of failing mid-upload, and
 * racing registrations cannot pass together a check each would pass alone. A file's reservation
 * shrinks as its chunks are written and goes when it is deleted (or expires and is swept).
 */
export interface SpaceGuard {
  /**
   * Rejects with InsufficientStorageError unless `bytes` more fit above the floor; for a chunk of
   * `file`, what the file's reservation still holds counts as fitting already.
   */
  ensureSpace(bytes: number, file?: ChunkRef): Promise<void>;
  /**
   * Reserves `bytes` for each file of one folder, all or none (InsufficientStorageError), until
   * `until` at the latest (the file's expiry: a file deleted by another process, such as `webfolder
   * admin delete`, stops counting then), or until the folder makes no progress for a while. One
   * folder, and one `client` (the registering address, if known), may hold only a share of the space.
   */
  reserveUploads(
    files: readonly { readonly ref: ChunkRef; readonly bytes: number; readonly until: number }[],
    client?: string | null,
  ): Promise<void>;
  /** Hands back what the files' reservations still hold (a registration that was not stored). */
  releaseUploads(refs: readonly ChunkRef[]): void;
}

/** Capability: the store can hand out presigned download URLs (S3). */
export interface ChunkDownloadPresigner {
  presignDownload(ref: ChunkRef, n: number, expiresAt: number): Promise<string>;
}

/**
 * Capability: the chunks of several files of one folder in fewer requests than one listing per file
 * (S3: ListObjectsV2 pages under the folder's prefix, see S3BlobStore.listFolderChunks; the local
 * disk: one listing of the folder's directory, then only the files that have chunks).
 */
export interface FolderChunkLister {
  /** For each of `fileIds`: chunk number -> stored byte length, as listChunks answers it. */
  listFolderChunks(folderId: string, fileIds: readonly string[]): Promise<Map<string, Map<number, number>>>;
}

/** The signed parameters of a chunk URL (the request's other parameters play no part). */
export interface ChunkUrlQuery {
  readonly 'X-Amz-Algorithm'?: string;
  readonly 'X-Amz-Credential'?: string;
  readonly 'X-Amz-Date'?: string;
  readonly 'X-Amz-Expires'?: string;
  readonly 'X-Amz-Signature'?: string;
}

/**
 * The optional capabilities of one store, each the store itself or null when it lacks it. Each
 * store declares its own, so that a use case or a route asks "does this backend receive chunks?" of
 * this record, never of the store's shape, and a route a backend cannot serve is not registered at
 * all (tusd's StoreComposer).
 */
export interface BlobCapabilities {
  readonly chunkReceiver: ChunkReceiver | null;
  readonly spaceGuard: SpaceGuard | null;
  readonly downloadPresigner: ChunkDownloadPresigner | null;
  readonly folderChunkLister: FolderChunkLister | null;
}

/*
 * The blob store's refusals carry the code the client is answered with (the contract's AppError),
 * so that every use case passes them on as they are and none translates them; anything else a
 * store throws is an outage (a 500).
 */
export class BlobNotFoundError extends AppError {
  override name = 'BlobNotFoundError';
  constructor(message: string) {
    super('not_found', message);
  }
}
/** A chunk URL whose signature is wrong or expired, or that names another chunk or length. */
export class ChunkUrlError extends AppError {
  override name = 'ChunkUrlError';
  constructor(message: string) {
    super('forbidden', message);
  }
}
/** A chunk body shorter or longer than its declared length. */
export class ChunkLengthError extends AppError {
  override name = 'ChunkLengthError';
  constructor(message: string) {
    super('invalid_request', message);
  }
}
/** A chunk stored already with other bytes (see ChunkReceiver.writeChunk). */
export class ChunkConflictError extends AppError {
  override name = 'ChunkConflictError';
  constructor(message: string) {
    super('conflict', message);
  }
}
/** No room: the disk is full (ENOSPC, a short write) or below its free-space floor. Nothing was kept. */
export class InsufficientStorageError extends AppError {
  override name = 'InsufficientStorageError';
  constructor(message: string) {
    super('insufficient_storage', message);
  }
}
