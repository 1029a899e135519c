import type { QuotaRefusal, StorageQuota } from '../domain/limits.js';
import { AppError } from './errors.js';
import type { Services } from './services.js';

/**
 * Storage quotas (QUOTA_TOTAL_MIB, QUOTA_FOLDER_MIB), against the registered (plaintext) sizes, so
 * an upload is refused before its first byte rather than failing half-way.
 *
 * What binds is the metadata store's check in the transaction that inserts the files (createFolder,
 * addFiles with `storageQuota`): against byte counters it keeps with every insert and delete, so
 * racing registrations, on one node or many sharing PostgreSQL, never pass a quota together that each
 * would pass alone. The checks here come earlier, from the same counters (one row read each), so that
 * a registration the quota refuses anyway costs no signing work; they are advisory only.
 */
export class QuotaExceeded extends AppError {
  override name = 'QuotaExceeded';
  constructor(code: 'quota_exceeded' | 'insufficient_storage', message: string) {
    super(code, message);
  }
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** The quotas as the store checks them. */
export function storageQuota(services: Services): StorageQuota {
  const { folderBytes, totalBytes, accountBytes } = services.config.quotas;
  return { folderBytes, instanceBytes: totalBytes, accountBytes };
}

const folderRefusal = (limit: number, adding: number, held?: number) =>
  new QuotaExceeded(
    'quota_exceeded',
    `folder quota exceeded: this folder may hold ${mib(limit)}, ${held === undefined ? 'it holds too much for' : `it holds ${mib(held)} and`} these files add ${mib(adding)}`,
  );

/**
 * The signed-in account's quota: a refusal of this account's request, like the folder
 * quota's (413 quota_exceeded; 400 on the v2 create), whatever the rest of the server holds.
 */
const accountRefusal = (adding: number) =>
  new QuotaExceeded(
    'quota_exceeded',
    `account quota exceeded: the folders of this account may not hold ${mib(adding)} more; delete some of them or ask an admin for a larger quota`,
  );

const instanceRefusal = (limit: number) =>
  new QuotaExceeded(
    'insufficient_storage',
    `this server's storage quota is used up (${mib(limit)}): try smaller files or later`,
  );

/**
 * Refuses files that would take `folderId` (null: a new folder) past its folder quota (413): a
 * refusal of this request whatever the server's state, so it is checked before the disk and the
 * instance quota, whose 507 means "try later".
 */
export async function checkFolderQuota(
  services: Services,
  folderId: string | null,
  files: readonly { readonly filesize: number }[],
): Promise<void> {
  const { folderBytes: quotaFolderBytes } = services.config.quotas;
  if (quotaFolderBytes === null) return;
  const adding = sumSizes(files);
  const held = folderId === null ? 0 : await services.store.byteCounts.folderBytes(folderId);
  if (held + adding > quotaFolderBytes) throw folderRefusal(quotaFolderBytes, adding, held);
}

/** Refuses files past the instance quota as it stands now (507). */
export async function checkInstanceQuota(
  services: Services,
  files: readonly { readonly filesize: number }[],
): Promise<void> {
  const { totalBytes: quotaTotalBytes } = services.config.quotas;
  if (quotaTotalBytes === null) return;
  if ((await services.store.byteCounts.totalBytes()) + sumSizes(files) > quotaTotalBytes)
    throw instanceRefusal(quotaTotalBytes);
}

/** The error for a store's refusal of `files` (createFolder, addFiles). */
export function quotaRefused(
  services: Services,
  refusal: QuotaRefusal,
  files: readonly { readonly filesize: number }[],
): QuotaExceeded {
  const { folderBytes: quotaFolderBytes, totalBytes: quotaTotalBytes } = services.config.quotas;
  if (refusal === 'account-quota') return accountRefusal(sumSizes(files));
  return refusal === 'folder-quota'
    ? folderRefusal(quotaFolderBytes ?? 0, sumSizes(files))
    : instanceRefusal(quotaTotalBytes ?? 0);
}

const sumSizes = (files: readonly { readonly filesize: number }[]) => files.reduce((sum, f) => sum + f.filesize, 0);
