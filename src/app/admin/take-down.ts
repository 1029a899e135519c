import type { TakeDownInfo, TakeDownRequest } from '../../contract/admin.js';
import type { TakeDownReason } from '../../domain/take-down.js';
import type { FolderRecord } from '../../store/folder-record.js';
import { type Actor, recordAudit } from '../audit.js';
import { AppError, notFound } from '../errors.js';
import type { Services } from '../services.js';
import { openAdminFolder } from './folders.js';

/**
 * The operator's take-down (docs/organisations.md#take-down): the folder stays, with the reason, and
 * nothing of it is served any more (the site's listing, chunks, download tickets, upload URLs, the
 * v2 upload status and chunk uploads all answer 404 `taken_down`, the status the v2 contract has for a
 * folder that cannot be had). Visitors of its page read why, in their language. The bytes stay until
 * the folder's own time runs out (then the sweeper deletes them as always), or the admin deletes it.
 */
export async function takeDownFolder(
  services: Services,
  folderId: string,
  request: TakeDownRequest,
  admin: AdminAct,
): Promise<TakeDownInfo> {
  const { folder } = await openAdminFolder(services, folderId);
  const note = request.note?.trim() ? request.note.trim() : null;
  const takeDown = { at: services.clock(), reason: request.reason, note };
  if (!(await services.store.admin.takeDown(folder.id, takeDown)))
    throw notFound('folder not found: it may have been deleted');
  await recordAudit(services, {
    ...admin.actor,
    action: 'folder.take-down',
    folderId: folder.id,
    detail: { reason: takeDown.reason, note, via: admin.via },
  });
  return takeDown;
}

/**
 * Who acts as admin, as the HTTP layer hands it over: the account's principal (anonymous for the
 * break-glass token, which names no one) and how they proved it, which the audit entry keeps.
 */
export interface AdminAct {
  readonly actor: Actor;
  readonly via: 'account' | 'admin-token';
}

/** The refusal every content path answers for a taken-down folder (404, like a folder that is gone). */
export const takenDown = () => new AppError('taken_down', 'this folder was taken down by the operator of this service');

/** Throws `taken_down` when the folder is taken down (the check every content path makes). */
export function refuseIfTakenDown(folder: Pick<FolderRecord, 'takeDown'>): void {
  if (folder.takeDown !== null) throw takenDown();
}

/**
 * What a visitor of a taken-down folder's page is told: the reason and the note. Answered only for a
 * folder that is taken down (404 otherwise), so it tells nothing about any other folder.
 */
export async function takeDownNotice(services: Services, folderId: string): Promise<TakeDownInfo> {
  const folder = await services.store.getFolder(folderId);
  if (!folder?.takeDown) throw notFound('folder not found');
  return { reason: folder.takeDown.reason as TakeDownReason, note: folder.takeDown.note, at: folder.takeDown.at };
}
