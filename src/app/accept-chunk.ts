import type { ChunkReceiver, ChunkUrlQuery } from '../blobs/blob-store.js';
import { encryptedChunkLength } from '../domain/chunk-plan.js';
import { refuseIfTakenDown } from './admin/take-down.js';
import { conflict, invalid, notFound } from './errors.js';
import { fileProgress } from './file-progress.js';
import type { Services } from './services.js';
import { writeUnlessDeleted } from './written-while-deleted.js';

export interface ChunkAccepted {
  readonly chunk: number;
  readonly bytes: number;
  /** True once every chunk of the file is stored. */
  readonly fileComplete: boolean;
}

export interface IncomingChunk {
  readonly folderId: string;
  readonly fileId: string;
  /** The chunk segment of the URL: five zero-padded digits, or the unpadded number. */
  readonly chunk: string;
  readonly query: ChunkUrlQuery;
  /** The length the client declared for the body (Content-Length). */
  readonly declaredLength: number;
  /** The body, read only once every check has passed. */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * Called once every check has passed, just before the body is read: the transport answers a
   * client waiting on `Expect: 100-continue` here, so that a refused upload never sends its body.
   */
  readonly ready?: () => void;
}

/**
 * The target of a presigned chunk URL on a backend that receives chunks itself (local). Everything
 * is checked before a byte of the body is read: the chunk number against the file, the signature and
 * its expiry, whether the file is already complete, and the declared length, which must be exactly
 * the RFC 8188 length of that chunk (the ids' and the number's form are the route schema's). Only
 * then is the body streamed to storage. Only a backend with the
 * receiver capability has this use case (its route is registered only then: server.ts).
 */
export async function acceptChunk(
  services: Services,
  receiver: ChunkReceiver,
  incoming: IncomingChunk,
): Promise<ChunkAccepted> {
  const { store, clock } = services;
  const n = Number(incoming.chunk);
  // The file and its folder in one read: everything checked before the body is read.
  const found = await store.getFileInFolder(incoming.folderId, incoming.fileId);
  const now = clock();
  if (!found || found.file.expiresAt <= now) throw notFound('file not found');
  const { file, folder } = found;
  if (n < 1 || n > file.chunks) throw invalid(`chunk number must be between 1 and ${file.chunks}`);
  const expectedLength = encryptedChunkLength(file, n);
  // A refusal of the blob store's (here and below) carries its own code: it is passed on as it is.
  receiver.verifyChunkUrl(incoming, n, expectedLength, incoming.query, now);
  // A folder the operator took down takes no more bytes, whatever URLs were handed out before.
  refuseIfTakenDown(folder);
  if (file.completedAt !== null) throw conflict('file is already complete; its chunks can no longer be replaced');
  if (incoming.declaredLength !== expectedLength)
    throw invalid(`Content-Length must be ${expectedLength} for chunk ${n}`);
  // A full disk refuses before the body is read, not after megabytes of it (what the file's
  // registration reserved for it counts as fitting).
  const ref = { folderId: file.folderId, fileId: file.id };
  await services.capabilities.spaceGuard?.ensureSpace(expectedLength, ref);
  incoming.ready?.();
  // The read after the write (the deletion check) is also what completing the file needs.
  const written = await writeUnlessDeleted(services, ref, () =>
    receiver.writeChunk(ref, n, expectedLength, incoming.body),
  );
  // Listing every stored chunk with its size after each write would make uploading a file of
  // n chunks cost O(n^2) stats; while fewer chunks are stored than the file has, it is not complete.
  if ((await receiver.countChunks(incoming)) < file.chunks)
    return { chunk: n, bytes: expectedLength, fileComplete: false };
  const progress = await fileProgress(services, written.file, { folder: written.folder });
  return { chunk: n, bytes: expectedLength, fileComplete: progress.complete };
}
