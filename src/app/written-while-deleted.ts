import type { ChunkRef } from '../blobs/blob-store.js';
import type { FileInFolder } from '../store/metadata-store.js';
import { notFound } from './errors.js';
import type { Services } from './services.js';

/**
 * Writes a file's bytes (a chunk, a thumbnail) so that a deletion running at the same time never
 * leaves them behind. Every deletion (the owner's, of a file or the folder; the sweeper's) makes the
 * record unreadable first (the file row goes, or the folder is marked `deleting_since`) and deletes
 * the bytes after. So once the write is complete, one read of the record settles it:
 * - the record is still there: the deletion, if one comes, starts after this read, hence after the
 *   bytes were in place, and removes them;
 * - the record is gone: the deletion may already have removed the folder's bytes before ours landed,
 *   so the writer removes the file's bytes itself and answers 404.
 * A write that fails while the record is gone (the folder's directory removed under it) is the same
 * 404, not a server error. The check costs one indexed read per write; on PostgreSQL every node reads
 * the committed mark, so the rule holds across nodes. That read is the file and its folder as they
 * are after the write, returned so that the caller needs no other (a chunk that completes its file).
 */
export async function writeUnlessDeleted(
  services: Services,
  ref: ChunkRef,
  write: () => Promise<void>,
): Promise<FileInFolder> {
  let failure: unknown = null;
  try {
    await write();
  } catch (error) {
    failure = error;
  }
  const current = await services.store.getFileInFolder(ref.folderId, ref.fileId);
  if (current) {
    if (failure !== null) throw failure;
    return current;
  }
  await services.blobs.deleteFile(ref);
  throw notFound('file not found: it was deleted while this upload was running');
}
