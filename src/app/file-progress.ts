import { encryptedChunkLength, missingChunks } from '../domain/chunk-plan.js';
import { fileExpiresAt } from '../domain/lifecycle.js';
import type { FileRecord, FolderRecord } from '../store/metadata-store.js';
import { fileEvent, withEvents } from './events.js';
import type { Services } from './services.js';
import { recordActivity } from './site/activity.js';

export interface FileProgress {
  readonly complete: boolean;
  /** Missing chunk numbers, one-based, ascending. */
  readonly missing: number[];
}

/**
 * Which chunks of a file are stored, read from the blob store (the single source of truth for chunk
 * presence). A stored object counts only at its exact expected length, so a backend that cannot
 * refuse a wrong length up front (S3 without a signed length) still never reports a bad chunk as
 * present. The first time a file is seen complete, its completion is recorded, which starts its
 * download period (domain/lifecycle.ts). `stored` is the file's listing when the caller already has
 * it (a batched listing of several files, site/files.ts listSiteFiles); `folder` is the file's
 * folder when the caller read it with the file (the chunk path: accept-chunk.ts), so that recording
 * the completion reads nothing more.
 */
export async function fileProgress(
  services: Services,
  file: FileRecord,
  known: { readonly stored?: ReadonlyMap<number, number>; readonly folder?: FolderRecord } = {},
): Promise<FileProgress> {
  const stored = known.stored ?? (await services.blobs.listChunks({ folderId: file.folderId, fileId: file.id }));
  const present: number[] = [];
  for (const [n, size] of stored) {
    if (n >= 1 && n <= file.chunks && size === encryptedChunkLength(file, n)) present.push(n);
  }
  const missing = missingChunks(file.chunks, present);
  const complete = missing.length === 0;
  if (complete && file.completedAt === null) await recordCompletion(services, file, known.folder);
  return { complete, missing };
}

/**
 * The store moves the folder's deleteAfter in the same transaction, without reading its other files,
 * and writes the `file.completed` event with it (only the call that completes the file does).
 */
async function recordCompletion(services: Services, file: FileRecord, known?: FolderRecord): Promise<void> {
  const { store, clock, config } = services;
  const now = clock();
  const expiresAt = fileExpiresAt(file.createdAt, now, config.freeDownloadHours);
  const folder = known ?? (await store.getFolder(file.folderId));
  // The uploader's tag is the hash of the credential it presented, the owner's too (access.ts).
  const byOwner = (f: NonNullable<typeof folder>) =>
    file.uploaderTag === null || file.uploaderTag === f.ownerTokenHash || file.uploaderTag === f.uploadAuthHash;
  const events = folder ? [fileEvent('file.completed', now, folder, file, byOwner(folder) ? 'owner' : 'visitor')] : [];
  const completed = await withEvents(
    services,
    events,
    (outbox) => store.markComplete(file.folderId, file.id, now, expiresAt, outbox),
    (done) => done,
  );
  // The owner's activity list: an upload is listed once it is complete. Completion is seen by the
  // server (the last chunk, or a later status call), not on a request of the uploader's own, so
  // the line carries no address.
  if (completed) await recordActivity(services, file.folderId, 'upload', file.id, null);
}
