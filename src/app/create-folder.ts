import type {
  CreateRequest,
  CreateResponse,
  CreateResponseDirect,
  CreateResponseEmpty,
  FileEntry,
} from '../contract/types.js';
import { hashToken, newFolderSecret, newId, newToken } from '../domain/ids.js';
import { emptyFolderDeadline, folderDeleteAfter } from '../domain/lifecycle.js';
import { UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { folderPageUrl, shareLink } from '../domain/links.js';
import { DEFAULT_MODE } from '../domain/modes.js';
import { defaultTitle } from '../domain/titles.js';
import type { NewAuditEntry } from '../store/audit-store.js';
import type { NewFolder } from '../store/metadata-store.js';
import { type Actor, auditEntry, auditRecorded, NO_ACTOR } from './audit.js';
import { creatorOf } from './create-policy.js';
import { invalid } from './errors.js';
import { type AppEvent, fileEvent, withEvents } from './events.js';
import { newFolder } from './new-folder.js';
import { quotaRefused, storageQuota } from './quota.js';
import { registerFiles } from './register-files.js';
import type { Services } from './services.js';

/**
 * createV2Folder (spec 4.1): the one create use case behind POST /v2/folders, the MCP tool and the
 * A2A skill. `request` has been checked against createRequestSchema by its surface (the route's
 * schema, the agents' own schema, v1's): validated once, where it arrives. What no schema of this
 * shape states readably is checked here: a non-empty files[] needs encryption.ske (spec 4.1 rule 2).
 */
export async function createFolder(
  services: Services,
  request: CreateRequest,
  actor: Actor = NO_ACTOR,
): Promise<CreateResponse> {
  const accountId = creatorOf(services, actor.principal, 'api');
  const now = services.clock();
  const folderId = newId();
  const mode = request.mode ?? DEFAULT_MODE;
  const title = request.title ?? defaultTitle(now);
  const files = request.files ?? [];
  const ske = request.encryption?.ske;
  if (files.length > 0 && !ske) throw invalid('encryption.ske is required when files are given');
  // Stored in the create's own transaction: a crash can neither lose the entry nor invent one.
  const audit = await auditEntry(services, {
    ...actor,
    action: 'folder.create',
    folderId,
    detail: { flow: files.length === 0 ? 'empty' : 'direct', mode, files: files.length, bytes: sumSizes(files) },
  });
  const basics = { folderId, mode, title, now, accountId, audit };
  const created =
    files.length === 0 || !ske
      ? await createEmptyFolder(services, basics)
      : await createDirectUpload(services, { ...basics, ske, files }, actor);
  auditRecorded(services, audit);
  return created;
}

const sumSizes = (files: readonly FileEntry[]) => files.reduce((sum, f) => sum + f.filesize, 0);

interface FolderBasics {
  folderId: string;
  mode: NewFolder['mode'];
  title: string;
  now: number;
  /** The signed-in account making it (create-policy.ts), or null. */
  accountId: string | null;
  /** The creation's audit entry, committed with the folder. */
  audit: NewAuditEntry;
}

async function createEmptyFolder(services: Services, f: FolderBasics): Promise<CreateResponseEmpty> {
  // The key of the browser encryption format, returned once in the fragment and never kept:
  // whoever holds the link can decrypt, the server never can.
  const secret = newFolderSecret();
  const { folder, created } = newFolder({
    id: f.folderId,
    mode: f.mode,
    title: f.title,
    flow: 'empty',
    createdAt: f.now,
    deleteAfter: emptyFolderDeadline(f.now),
    accountId: f.accountId,
  });
  await withEvents(services, [created], (outbox) =>
    services.store.createFolder(folder, [], { outbox, audit: f.audit }),
  );
  const base = folderPageUrl(services.config.webUrl, f.folderId);
  return {
    folderId: f.folderId,
    folderUrl: shareLink(base, secret),
    folderUrlBase: base,
    mode: f.mode,
    uploadRequiredWithinHours: UPLOAD_REQUIRED_WITHIN_HOURS,
    files: [],
  };
}

async function createDirectUpload(
  services: Services,
  f: FolderBasics & { ske: string; files: readonly FileEntry[] },
  actor: Actor,
): Promise<CreateResponseDirect> {
  const { config, store } = services;
  const uploadAuth = newToken();
  // Presign before persisting: if the blob backend fails, nothing is left behind.
  const { records, uploadUrls, release } = await registerFiles(services, f.folderId, f.now, f.files, {
    existing: false,
    client: actor.clientAddress ?? null,
  });
  const { folder, created: folderCreated } = newFolder({
    id: f.folderId,
    mode: f.mode,
    title: f.title,
    flow: 'direct',
    createdAt: f.now,
    ske: f.ske,
    uploadAuthHash: hashToken(uploadAuth),
    deleteAfter: 0,
    accountId: f.accountId,
  });
  const events: AppEvent[] = [
    folderCreated,
    ...records.map((r) => fileEvent('file.registered', f.now, folder, r, 'owner')),
  ];
  const created = await withEvents(
    services,
    events,
    (outbox) =>
      store.createFolder({ ...folder, deleteAfter: folderDeleteAfter(folder, records) }, records, {
        outbox,
        quota: storageQuota(services),
        audit: f.audit,
      }),
    (r) => r === 'created',
  ).catch((error: unknown) => {
    release();
    throw error;
  });
  if (created !== 'created') {
    release();
    throw quotaRefused(services, created, records);
  }
  return {
    folderId: f.folderId,
    folderUrl: folderPageUrl(config.webUrl, f.folderId),
    mode: f.mode,
    uploadAuth,
    files: records.map((r, i) => ({
      filename: r.filename,
      fileId: r.id,
      chunkSize: r.chunkSize,
      chunks: r.chunks,
      freeDownloadHours: config.freeDownloadHours,
      uploadUrls: uploadUrls[i]!,
    })),
  };
}
