/**
 * The folder page's state and protocols, without a DOM (the views in web/src/views render them):
 * - open.ts: opening and unlocking (fragment, password, keys, owner credentials)
 * - folder.ts: the opened folder, its live updates and its three parts:
 *   - uploader.ts: the claim and the upload run (src/transfer/upload-run.ts)
 *   - owner.ts: the owner's actions
 *   - reader.ts: listing, thumbnails, downloads
 * - types.ts: what they share and what the page plugs in (storage, transport, workers)
 * Each part has a typed event surface (emitter.ts). node:test drives them directly
 * (test/site/session*.test.ts).
 */
export type { FileState, FileUpload, Fragment, UploadProgress } from '../core.js';
export { parseFragment, speedometer } from '../core.js';
export { FolderSession } from './folder.js';
export { MyFolders, type MyFoldersAddresses, type MyFoldersSort } from './my-folders.js';
export type { OpenFailure, PasswordRequired } from './open.js';
export { isExpired, openSession } from './open.js';
export { OwnerActions } from './owner.js';
export { Reader } from './reader.js';
export type {
  OpenedFile,
  PendingUpload,
  PickedFile,
  Receipt,
  SessionCore,
  SessionOptions,
  SiteStore,
  StoredTicket,
  Waiting,
} from './types.js';
export { Uploader, type UploadOutcome } from './uploader.js';
