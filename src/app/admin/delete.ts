import { recordAudit } from '../audit.js';
import { notFound } from '../errors.js';
import { withEvents } from '../events.js';
import type { Services } from '../services.js';
import { openAdminFolder } from './folders.js';
import type { AdminAct } from './take-down.js';

/**
 * An operator's delete (`webfolder admin delete`, `DELETE /api/admin/folders/{id}`): the folder becomes
 * due now and is deleted as the sweeper would (bytes first, record last), and `folder.deleted` goes
 * to the outbox. False when there is no such live folder (or another process is deleting it).
 */
export async function deleteFolderNow(services: Services, folderId: string): Promise<boolean> {
  const { store, blobs, clock } = services;
  const now = clock();
  if (!(await store.listings.expireFolder(folderId, now))) return false;
  if (!(await store.beginFolderDeletion(folderId, now, 0))) return false;
  await blobs.deleteFolder(folderId);
  const deleted = { type: 'folder.deleted', at: clock(), folderId } as const;
  await withEvents(services, [deleted], (outbox) => store.finishFolderDeletion(folderId, outbox));
  return true;
}

/** The admin API's delete: 404 unless a live folder went, and a `folder.delete` audit entry when it did. */
export async function adminDeleteFolder(services: Services, folderId: string, admin: AdminAct): Promise<void> {
  const { folder } = await openAdminFolder(services, folderId);
  if (!(await deleteFolderNow(services, folder.id))) throw notFound('folder not found: it may have been deleted');
  await recordAudit(services, {
    ...admin.actor,
    action: 'folder.delete',
    folderId: folder.id,
    detail: { by: 'admin', via: admin.via },
  });
}
