import type { UploadStatusResponse } from '../contract/types.js';
import { tokenMatches } from '../domain/ids.js';
import { refuseIfTakenDown } from './admin/take-down.js';
import { notFound } from './errors.js';
import { fileProgress } from './file-progress.js';
import type { Services } from './services.js';

/**
 * getV2UploadStatus (spec 4.2). `uploadAuth` is optional, as the spec says; when given it must be
 * the folder's token, and a wrong one answers exactly like an unknown file (404), so the endpoint
 * cannot be used to tell which tokens are wrong for which folders.
 */
export async function uploadStatus(
  services: Services,
  folderId: string,
  fileId: string,
  uploadAuth: string | undefined,
): Promise<UploadStatusResponse> {
  const folder = await services.store.getFolder(folderId);
  if (!folder) throw notFound('folder not found');
  refuseIfTakenDown(folder);
  if (uploadAuth !== undefined && !tokenMatches(uploadAuth, folder.uploadAuthHash)) throw notFound('file not found');
  const file = await services.store.getFile(folderId, fileId);
  if (!file || file.expiresAt <= services.clock()) throw notFound('file not found');
  return fileProgress(services, file);
}
