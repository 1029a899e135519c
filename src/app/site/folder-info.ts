import type { FolderInfo, PasswordParams } from '../../contract/site.js';
import { folderExpiresAt } from '../../domain/owner-settings.js';
import type { Services } from '../services.js';
import { type Caller, isOwned, openFolder, rightsOf, roleOf } from './access.js';

/** What the folder page needs to render, for this caller. Opening a folder claims nothing. */
export async function folderInfo(services: Services, folderId: string, caller: Caller): Promise<FolderInfo> {
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
    expiresAt: folderExpiresAt({ expiresAt: folder.settings.expiresAt, deleteAfter: folder.deleteAfter }, hasFiles),
    maxExpiresInHours: services.config.maxExpiresHours,
    maxDownloads: folder.settings.maxDownloads,
    note: folder.settings.note,
    password: folder.settings.password === null ? null : (JSON.parse(folder.settings.password) as PasswordParams),
    fileCount: folder.fileCount,
    totalSize: await services.store.byteCounts.folderBytes(folder.id),
    createdBy: folder.createdBy,
  };
}
