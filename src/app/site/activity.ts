import type { ActivityEvent, SiteActivity } from '../../contract/site.js';
import { ACTIVITY_LISTED } from '../../domain/limits.js';
import type { ActivityRecord } from '../../store/metadata-store.js';
import type { Services } from '../services.js';
import { type Caller, openAsOwner } from './access.js';

/**
 * The owner's activity list of a folder: uploads (when a file completes), counted downloads and
 * deletions of files, newest first. Kept in the store with the folder (pruned to its newest
 * ACTIVITY_KEPT lines, deleted with it). A client address is kept only when the operator turned
 * ACTIVITY_IPS on; by default no visitor address is stored.
 */
export function activityLine(
  services: Services,
  kind: ActivityRecord['kind'],
  fileId: string,
  ip: string | null,
  deleted: DeletedName = NO_NAME,
): ActivityRecord {
  return { at: services.clock(), kind, fileId, ip: services.config.activityIps ? ip : null, ...deleted };
}

/**
 * What a deletion's line keeps of its file: the name as stored (ciphertext the server cannot read)
 * and its sealed key, so the owner's page can still name the file once it is gone.
 */
type DeletedName = Pick<ActivityRecord, 'filename' | 'sealedKey'>;
const NO_NAME: DeletedName = { filename: null, sealedKey: null };

/** Adds a line (a folder deleted meanwhile takes none). */
export function recordActivity(
  services: Services,
  folderId: string,
  kind: ActivityRecord['kind'],
  fileId: string,
  ip: string | null,
  deleted?: DeletedName,
): Promise<void> {
  return services.store.addActivity(folderId, activityLine(services, kind, fileId, ip, deleted));
}

/** `GET …/activity`: the owner's newest ACTIVITY_LISTED lines. */
export async function folderActivity(services: Services, folderId: string, caller: Caller): Promise<SiteActivity> {
  const folder = await openAsOwner(services, folderId, caller, 'activity');
  const lines = await services.store.listActivity(folder.id, ACTIVITY_LISTED);
  return {
    events: lines.map(
      (l): ActivityEvent => ({
        at: l.at,
        kind: l.kind,
        fileId: l.fileId,
        ip: l.ip,
        filename: l.filename,
        sealedKey: l.sealedKey,
      }),
    ),
  };
}
