import type { FolderInfo } from '../../contract/site.js';
import type { Services } from '../services.js';
import { type Caller, isOwned, openFolder, rightsOf, roleOf } from './access.js';

/** What the folder page needs to render, for this caller. Opening a folder claims nothing. */
export async function folderInfo(services: Services, folderId: unknown, caller: Caller): Promise<FolderInfo> {
  const folder = await openFolder(services, folderId);
  const role = roleOf(folder, caller);
  const now = services.clock();
  const hasFiles = (await services.store.listFiles(folder.id, { limit: 1, liveAt: now })).length > 0;
  return {
    folderId: folder.id,
    mode: folder.mode,
    title: folder.title,
    createdAt: folder.createdAt,
    uploadDeadline: hasFiles ? null : folder.deleteAfter,
    owned: isOwned(folder),
    isOwner: role === 'owner',
    role,
    rights: rightsOf(folder, role),
    ske: folder.ske,
    ownerPublicKey: folder.ownerPublicKey,
    chunkSize: services.config.chunkSizeMiB * 1024 * 1024,
    // The owner's settings arrive with the owner controls (issue 12).
    expiresAt: hasFiles ? folder.deleteAfter : null,
    maxExpiresInHours: services.config.maxExpiresHours,
    maxDownloads: null,
    note: null,
    password: null,
    fileCount: 0,
    totalSize: 0,
    createdBy: 'api',
  };
}
