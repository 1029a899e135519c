import type { NewFolder } from '../store/metadata-store.js';
import type { AppEvent } from './event-types.js';

/** What a way of making a folder decides; the credentials it does not set are none. */
type FolderStart = Pick<NewFolder, 'id' | 'mode' | 'title' | 'flow' | 'createdAt' | 'deleteAfter' | 'accountId'> &
  Partial<Pick<NewFolder, 'ske' | 'uploadAuthHash' | 'ownerTokenHash' | 'ownerPublicKey' | 'settings' | 'createdBy'>>;

/**
 * A new folder as it is stored, and the `folder.created` event that reports it, for every way a
 * folder is made (the v2 create's two flows, the site's create): the event says what the record says.
 */
export function newFolder(start: FolderStart): { readonly folder: NewFolder; readonly created: AppEvent } {
  const folder: NewFolder = { ske: null, uploadAuthHash: null, ownerTokenHash: null, ownerPublicKey: null, ...start };
  const created: AppEvent = {
    type: 'folder.created',
    at: folder.createdAt,
    folderId: folder.id,
    mode: folder.mode,
    flow: folder.flow,
    title: folder.title,
  };
  return { folder, created };
}
