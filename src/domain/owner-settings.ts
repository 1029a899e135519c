import { emptyFolderDeadline } from './lifecycle.js';
import { HOUR_MS } from './limits.js';

/**
 * The rules of a folder owner's settings, each stated once: the expiry an owner may
 * choose, what it does to the folder's files and deletion time, and the download limit that applies
 * to a file. Times are epoch ms supplied by the caller: nothing here reads a clock.
 */

/** Why `expiresAt` cannot be chosen at `now` under the operator's maximum, or null when it can. */
export function expiryRefusal(expiresAt: number, now: number, maxExpiresHours: number): string | null {
  if (!Number.isSafeInteger(expiresAt)) return 'expiresAt must be a time in epoch milliseconds';
  if (expiresAt <= now) return 'expiresAt must be in the future';
  if (expiresAt > latestExpiry(now, maxExpiresHours))
    return `expiresAt must be at most ${maxExpiresHours} hours from now (the server's maximum)`;
  return null;
}

/** The latest expiry an owner may choose at `now`. */
export function latestExpiry(now: number, maxExpiresHours: number): number {
  return now + maxExpiresHours * HOUR_MS;
}

/** An expiry chosen as hours from `now` (the create request's `expiresInHours`). */
export function expiryInHours(now: number, hours: number): number {
  return now + hours * HOUR_MS;
}

/**
 * A file's expiry: the folder's chosen one when its owner chose one (it applies to every file, the
 * ones added later too), else the file's own (domain/lifecycle.ts fileExpiresAt).
 */
export function effectiveFileExpiry(chosen: number | null, own: number): number {
  return chosen ?? own;
}

/**
 * The folder's deleteAfter once its owner chose `expiresAt`: that time when it has files (all of
 * them now expire then); an empty folder keeps its upload deadline unless the choice is earlier.
 */
export function deleteAfterForChosenExpiry(
  folder: { readonly createdAt: number; readonly fileCount: number },
  expiresAt: number,
): number {
  if (folder.fileCount > 0) return expiresAt;
  return Math.min(emptyFolderDeadline(folder.createdAt), expiresAt);
}

/** What the page shows as the folder's expiry: the owner's choice, else the latest file expiry, else none. */
export function folderExpiresAt(
  folder: { readonly expiresAt: number | null; readonly deleteAfter: number },
  hasFiles: boolean,
): number | null {
  return folder.expiresAt ?? (hasFiles ? folder.deleteAfter : null);
}

/** The download limit of a file: its own, else its folder's; null: no limit. */
export function effectiveLimit(fileLimit: number | null, folderLimit: number | null): number | null {
  return fileLimit ?? folderLimit;
}

/** Downloads left under `limit` after `downloads`; null when there is no limit. */
export function downloadsLeft(downloads: number, limit: number | null): number | null {
  return limit === null ? null : Math.max(0, limit - downloads);
}

/** Whether one more download may be counted. */
export function mayDownload(downloads: number, limit: number | null): boolean {
  return limit === null || downloads < limit;
}
