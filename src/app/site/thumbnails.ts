import { RFC8188_HEADER_LENGTH, RFC8188_RECORD_OVERHEAD, RFC8188_RECORD_SIZE } from '../../domain/chunk-plan.js';
import { MAX_THUMBNAIL_BYTES } from '../../domain/limits.js';
import { effectiveLimit, mayDownload } from '../../domain/owner-settings.js';
import { forbidden, invalid, limitReached, notFound, tooLarge } from '../errors.js';
import type { Services } from '../services.js';
import { writeUnlessDeleted } from '../written-while-deleted.js';
import { type Caller, isUploaderOf, openFile, openFolder, requireRight, roleOf } from './access.js';

/**
 * A file's encrypted thumbnail, stored beside its chunks (one object, removed with the file and with
 * the folder: src/blobs). The page makes it at upload (an image scaled down, a video's first frame)
 * and encrypts it like the file's name, under the folder secret or, in request mode, the file's own
 * secret; the server holds only ciphertext and checks only its shape: one RFC 8188 message of at
 * most MAX_THUMBNAIL_BYTES.
 */

/**
 * Stores the thumbnail of a file: only the browser (or program) that uploaded the file, or the
 * folder's owner, may, and a later one replaces it.
 */
export async function putThumbnail(
  services: Services,
  folderId: string,
  fileId: string,
  caller: Caller,
  body: unknown,
): Promise<void> {
  const folder = await openFolder(services, folderId);
  const file = await openFile(services, folder, fileId);
  if (!isUploaderOf(file, caller) && roleOf(folder, caller) !== 'owner')
    throw forbidden("only the file's uploader or the folder's owner can set its thumbnail");
  const bytes = checkThumbnail(body);
  const ref = { folderId: folder.id, fileId: file.id };
  await writeUnlessDeleted(services, ref, () => services.blobs.writeThumbnail(ref, bytes));
}

/**
 * The stored thumbnail of a file, for a caller allowed to list the folder; 404 when it has none. A
 * thumbnail is a small copy of the file's content: once the file has used up its download limit it is
 * refused like the file (410), except to the owner.
 */
export async function getThumbnail(
  services: Services,
  folderId: string,
  fileId: string,
  caller: Caller,
): Promise<Uint8Array> {
  const folder = await openFolder(services, folderId);
  const role = roleOf(folder, caller);
  requireRight(folder, role, 'list');
  const file = await openFile(services, folder, fileId);
  const limit = effectiveLimit(file.maxDownloads, folder.settings.maxDownloads);
  if (role !== 'owner' && !mayDownload(file.downloads, limit))
    throw limitReached('this file has reached its download limit, and its thumbnail went with it');
  const bytes = await services.blobs.readThumbnail({ folderId: folder.id, fileId: file.id });
  if (bytes === null) throw notFound('this file has no stored thumbnail');
  return bytes;
}

/**
 * The body as an RFC 8188 message of this format (the header's record size, no key id, at least one
 * record): anything else is not a thumbnail a browser could decrypt, and is refused unstored.
 */
function checkThumbnail(body: unknown): Uint8Array {
  if (!(body instanceof Uint8Array) || body.length === 0)
    throw invalid('the body must be the encrypted thumbnail (Content-Type: application/octet-stream)');
  if (body.length > MAX_THUMBNAIL_BYTES)
    throw tooLarge(`a thumbnail may have at most ${MAX_THUMBNAIL_BYTES} bytes, this one has ${body.length}`);
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (
    body.length < RFC8188_HEADER_LENGTH + RFC8188_RECORD_OVERHEAD ||
    view.getUint32(16) !== RFC8188_RECORD_SIZE ||
    view.getUint8(20) !== 0
  )
    throw invalid('the thumbnail is not an encrypted message (RFC 8188 aes128gcm, as the chunks are)');
  return body;
}
