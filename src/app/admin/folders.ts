import type { AdminFolderDetail, AdminFolderList, AdminFolderView } from '../../contract/admin.js';
import { MAX_ADMIN_PAGE } from '../../domain/limits.js';
import { folderState, type TakeDownReason } from '../../domain/take-down.js';
import type { AdminFolder, AdminSort } from '../../store/admin-store.js';
import { invalid, notFound } from '../errors.js';
import type { Services } from '../services.js';

/**
 * The console's folder list and detail (docs/organisations.md#admin-console). Titles are plaintext
 * and shown; file names and contents are encrypted and never reach the server in clear, so the
 * detail lists each file by its id, size and counts only.
 */
export interface AdminListInput {
  readonly q?: string | undefined;
  readonly sort?: string | undefined;
  readonly order?: string | undefined;
  readonly limit?: string | undefined;
  readonly offset?: string | undefined;
}

const present = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

export async function listAdminFolders(services: Services, input: AdminListInput): Promise<AdminFolderList> {
  const limit = Number(present(input.limit) ?? 50);
  const offset = Number(present(input.offset) ?? 0);
  if (!(limit >= 1 && limit <= MAX_ADMIN_PAGE)) throw invalid(`limit must be between 1 and ${MAX_ADMIN_PAGE}`);
  const search = present(input.q?.trim());
  const page = await services.store.admin.listFolders({
    search,
    sort: (present(input.sort) ?? 'created') as AdminSort,
    order: present(input.order) === 'asc' ? 'asc' : 'desc',
    limit,
    offset,
  });
  const now = services.clock();
  return { folders: page.folders.map((f) => view(f, now)), total: page.total, limit, offset };
}

export async function adminFolderDetail(services: Services, folderId: string): Promise<AdminFolderDetail> {
  const found = await openAdminFolder(services, folderId);
  const files = await services.store.listFiles(found.folder.id);
  return {
    folder: view(found, services.clock()),
    files: files.map((f) => ({
      fileId: f.id,
      size: f.filesize,
      chunks: f.chunks,
      complete: f.completedAt !== null,
      createdAt: f.createdAt,
      expiresAt: f.expiresAt,
      downloads: f.downloads,
      maxDownloads: f.maxDownloads,
    })),
  };
}

/** A live folder for an admin action, taken down or not; 400 for a malformed id, 404 when none. */
export async function openAdminFolder(services: Services, folderId: string): Promise<AdminFolder> {
  const found = await services.store.admin.getFolder(folderId);
  if (!found) throw notFound('folder not found: it may have been deleted');
  return found;
}

export function view(f: AdminFolder, now: number): AdminFolderView {
  const { folder } = f;
  return {
    folderId: folder.id,
    title: folder.title,
    mode: folder.mode,
    flow: folder.flow,
    createdBy: folder.createdBy,
    createdAt: folder.createdAt,
    deleteAfter: folder.deleteAfter,
    files: folder.fileCount,
    bytes: f.bytes,
    downloads: f.downloads,
    owned: folder.ownerTokenHash !== null || folder.uploadAuthHash !== null,
    state: folderState(folder, now),
    creator: folder.accountId === null ? null : { accountId: folder.accountId, email: f.creatorEmail },
    takeDown: folder.takeDown
      ? { reason: folder.takeDown.reason as TakeDownReason, note: folder.takeDown.note, at: folder.takeDown.at }
      : null,
  };
}
