import { AppError } from './errors.js';
import type { Services } from './services.js';

/**
 * Storage quotas (QUOTA_TOTAL_MIB, QUOTA_FOLDER_MIB): checked when files are registered, against
 * the registered (plaintext) sizes, so an upload is refused before its first byte rather than
 * failing half-way. The instance total is a sum over every file, so it is read at most every few
 * seconds and what this node registered since is added on top: a burst across many nodes can
 * overshoot by what they register within that window, never more.
 */
export class QuotaExceeded extends AppError {
  override name = 'QuotaExceeded';
  constructor(status: 413 | 507, message: string) {
    super(status, message, status === 413 ? 'quota_exceeded' : 'insufficient_storage');
  }
}

const TOTAL_TTL_MS = 5000;
const totals = new WeakMap<Services, { bytes: number; readAt: number }>();

/** The instance's registered bytes, cached per service set for a few seconds. */
async function totalBytes(services: Services): Promise<{ bytes: number; readAt: number }> {
  const now = Date.now();
  const cached = totals.get(services);
  if (cached && now - cached.readAt < TOTAL_TTL_MS) return cached;
  const fresh = { bytes: (await services.store.ops.usage()).bytes, readAt: now };
  totals.set(services, fresh);
  return fresh;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

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
  const { quotaFolderBytes } = services.config.ops;
  if (quotaFolderBytes === null) return;
  const adding = sumSizes(files);
  const held = folderId === null ? 0 : await services.store.ops.folderBytes(folderId);
  if (held + adding > quotaFolderBytes)
    throw new QuotaExceeded(
      413,
      `folder quota exceeded: this folder may hold ${mib(quotaFolderBytes)}, it holds ${mib(held)} and these files add ${mib(adding)}`,
    );
}

/**
 * Refuses files past the instance quota (507); otherwise counts them against the cached total. The
 * last check of a registration (after the disk floor), so that a registration refused for any other
 * reason is not counted against the quota.
 */
export async function takeInstanceQuota(
  services: Services,
  files: readonly { readonly filesize: number }[],
): Promise<void> {
  const { quotaTotalBytes } = services.config.ops;
  if (quotaTotalBytes === null) return;
  const adding = sumSizes(files);
  const total = await totalBytes(services);
  if (total.bytes + adding > quotaTotalBytes)
    throw new QuotaExceeded(
      507,
      `this server's storage quota is used up (${mib(quotaTotalBytes)}): try smaller files or later`,
    );
  total.bytes += adding;
}

const sumSizes = (files: readonly { readonly filesize: number }[]) => files.reduce((sum, f) => sum + f.filesize, 0);
