import type {
  FolderInfo,
  PasswordParams,
  SiteCreateFolderRequest,
  SiteCreateFolderResponse,
  SiteFile,
  SiteFileUpdate,
  SiteFolderUpdate,
} from '../../contract/site.js';
import { hashToken, newId } from '../../domain/ids.js';
import { emptyFolderDeadline } from '../../domain/lifecycle.js';
import { folderPageUrl } from '../../domain/links.js';
import { deleteAfterForChosenExpiry, expiryInHours, expiryRefusal } from '../../domain/owner-settings.js';
import { defaultTitle } from '../../domain/titles.js';
import type { FolderSettings } from '../../store/metadata-store.js';
import { type Actor, auditEntry, auditRecorded, NO_ACTOR, recordAudit } from '../audit.js';
import { creatorOf } from '../create-policy.js';
import { conflict, invalid, notFound } from '../errors.js';
import { type AppEvent, withEvents } from '../events.js';
import { newFolder } from '../new-folder.js';
import type { Services } from '../services.js';
import { type Caller, openAsOwner, openFile } from './access.js';
import { recordActivity } from './activity.js';
import { siteFileView } from './files.js';
import { folderInfo } from './folder-info.js';

/**
 * The owner's controls of a folder on the site: create and claim in one step, change
 * the folder's settings and a file's limit, delete a file or the whole folder. Every control is
 * the owner's alone (X-Owner-Token, or X-Upload-Auth for the creator of a direct upload); bad input
 * is refused with 400 before anything changes. The bodies arrive checked against their schemas
 * (src/contract/requests.ts) by their routes; what a schema cannot state is checked here.
 */

/** The password parameters as stored: JSON text of the checked object, fields in a fixed order. */
const storedPassword = (p: PasswordParams): string =>
  JSON.stringify({ kdf: p.kdf, N: p.N, r: p.r, p: p.p, salt: p.salt });

/**
 * `POST <api>/folders`: a folder already owned by the caller's browser (or the CLI holding its
 * owner secret), in one transaction, so no one else can ever claim it. Like the spec's empty folder
 * it is deleted 24 hours after creation unless a file is uploaded.
 */
export async function createOwnedFolder(
  services: Services,
  caller: Caller,
  request: SiteCreateFolderRequest,
  actor: Actor = NO_ACTOR,
): Promise<SiteCreateFolderResponse> {
  const accountId = creatorOf(services, actor.principal, 'site');
  if (!caller.ownerToken) throw invalid('X-Owner-Token is required: the folder is created owned by its sender');
  if (request.mode === 'request' && !request.ownerPublicKey)
    throw invalid('ownerPublicKey is required for a request folder: visitors encrypt their files to it');
  if (request.mode !== 'request' && request.ownerPublicKey) throw invalid('ownerPublicKey is only for request folders');
  if (request.mode === 'request' && request.password)
    throw invalid('a request folder cannot have a password: visitors encrypt to the owner key');
  const { config } = services;
  if (request.expiresInHours !== undefined && request.expiresInHours > config.maxExpiresHours)
    throw invalid(`expiresInHours must be at most ${config.maxExpiresHours} (the server's maximum)`);
  const now = services.clock();
  const settings: FolderSettings = {
    expiresAt: request.expiresInHours === undefined ? null : expiryInHours(now, request.expiresInHours),
    maxDownloads: request.maxDownloads ?? null,
    note: request.note ?? null,
    password: request.password ? storedPassword(request.password) : null,
  };
  const folderId = newId();
  const title = request.title ?? defaultTitle(now);
  const deleteAfter =
    settings.expiresAt === null
      ? emptyFolderDeadline(now)
      : deleteAfterForChosenExpiry({ createdAt: now, fileCount: 0 }, settings.expiresAt);
  const { folder, created } = newFolder({
    id: folderId,
    mode: request.mode,
    title,
    flow: 'empty',
    createdAt: now,
    ske: request.ske,
    ownerTokenHash: hashToken(caller.ownerToken),
    ownerPublicKey: request.ownerPublicKey ?? null,
    deleteAfter,
    settings,
    createdBy: 'site',
    accountId,
  });
  const events: AppEvent[] = [
    created,
    { at: now, folderId, mode: request.mode, title, type: 'folder.claimed', by: 'owner' },
  ];
  const audit = await auditEntry(services, {
    ...actor,
    action: 'folder.create',
    folderId,
    detail: { flow: 'site', mode: request.mode, files: 0, bytes: 0 },
  });
  await withEvents(services, events, (outbox) => services.store.createFolder(folder, [], { outbox, audit }));
  auditRecorded(services, audit);
  return { folderId, folderUrl: folderPageUrl(config.webUrl, folderId), uploadDeadline: deleteAfter };
}

/** `PATCH <api>/folders/<id>`: the settings given change; answers the folder as the owner sees it. */
export async function updateFolder(
  services: Services,
  folderId: string,
  caller: Caller,
  change: SiteFolderUpdate,
  actor: Actor = NO_ACTOR,
): Promise<FolderInfo> {
  const folder = await openAsOwner(
    services,
    folderId,
    caller,
    change.note !== undefined || change.password !== undefined ? 'encryptedSettings' : 'settings',
  );
  const now = services.clock();
  if (change.expiresAt !== undefined) {
    const refusal = expiryRefusal(change.expiresAt, now, services.config.maxExpiresHours);
    if (refusal) throw invalid(refusal);
  }
  if (change.password && folder.mode === 'request')
    throw invalid('a request folder cannot have a password: visitors encrypt to the owner key');
  const result = await services.store.updateFolder(
    folder.id,
    {
      ...(change.expiresAt !== undefined ? { expiresAt: change.expiresAt } : {}),
      ...(change.maxDownloads !== undefined ? { maxDownloads: change.maxDownloads } : {}),
      ...(change.note !== undefined ? { note: change.note } : {}),
      ...(change.password ? { password: storedPassword(change.password) } : {}),
    },
    now,
  );
  if (result === 'absent') throw notFound('folder not found: it may have expired or been deleted');
  if (result === 'password-locked')
    throw conflict(
      'the password can only be set once, before any file is uploaded: files already encrypted without it would not change',
    );
  // What changed, never the note's (encrypted) text or the password's parameters.
  await recordAudit(services, {
    ...actor,
    action: 'folder.settings',
    folderId: folder.id,
    detail: {
      ...(change.expiresAt !== undefined ? { expiresAt: change.expiresAt } : {}),
      ...(change.maxDownloads !== undefined ? { maxDownloads: change.maxDownloads } : {}),
      ...(change.note !== undefined ? { note: change.note === null ? 'removed' : 'set' } : {}),
      ...(change.password ? { password: 'set' } : {}),
    },
  });
  return folderInfo(services, folder.id, caller);
}

/** `PATCH <api>/folders/<id>/files/<fileId>`: the file's own download limit (null: the folder's). */
export async function updateFile(
  services: Services,
  folderId: string,
  fileId: string,
  caller: Caller,
  change: SiteFileUpdate,
  actor: Actor = NO_ACTOR,
): Promise<SiteFile> {
  const folder = await openAsOwner(services, folderId, caller, 'fileLimit');
  const file = await openFile(services, folder, fileId);
  const updated = await services.store.updateFile(folder.id, file.id, change.maxDownloads);
  if (!updated) throw notFound('file not found');
  await recordAudit(services, {
    ...actor,
    action: 'folder.settings',
    folderId: folder.id,
    detail: { fileId: file.id, maxDownloads: change.maxDownloads },
  });
  return siteFileView(services, folder, updated, caller);
}

/**
 * `DELETE <api>/folders/<id>`: the folder reads as absent at once, its bytes (chunks, thumbnails)
 * are deleted, then its record with its files, notification settings and activity. Answered once
 * all of that is done; a crash in between leaves a tombstone the sweeper finishes.
 */
export async function deleteFolder(
  services: Services,
  folderId: string,
  caller: Caller,
  actor: Actor = NO_ACTOR,
): Promise<void> {
  const folder = await openAsOwner(services, folderId, caller, 'deleteFolder');
  const { store, blobs } = services;
  if (!(await store.beginOwnerDeletion(folder.id, services.clock())))
    throw notFound('folder not found: it may have expired or been deleted');
  await blobs.deleteFolder(folder.id);
  const deleted = { type: 'folder.deleted', at: services.clock(), folderId: folder.id, by: 'owner' } as const;
  await withEvents(services, [deleted], (outbox) => store.finishFolderDeletion(folder.id, outbox));
  await recordAudit(services, { ...actor, action: 'folder.delete', folderId: folder.id, detail: { by: 'owner' } });
}

/**
 * `DELETE <api>/folders/<id>/files/<fileId>`: the record first (no one can read the file from then
 * on), then its bytes; answered once they are gone. Bytes a crash leaves go with the folder.
 */
export async function deleteFile(
  services: Services,
  folderId: string,
  fileId: string,
  caller: Caller,
  ip: string | null,
  actor: Actor = NO_ACTOR,
): Promise<void> {
  const folder = await openAsOwner(services, folderId, caller, 'deleteFile');
  const file = await openFile(services, folder, fileId);
  if (!(await services.store.deleteFile(folder.id, file.id))) throw notFound('file not found');
  await services.blobs.deleteFile({ folderId: folder.id, fileId: file.id });
  await recordActivity(services, folder.id, 'delete', file.id, ip, {
    filename: file.filename,
    sealedKey: file.sealedKey,
  });
  await recordAudit(services, { ...actor, action: 'file.delete', folderId: folder.id, detail: { fileId: file.id } });
}
