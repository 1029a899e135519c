import { HOUR_MS, UPLOAD_REQUIRED_WITHIN_HOURS } from './limits.js';

/**
 * When a folder is due for deletion (spec 3, and our decisions where the spec is silent):
 *
 * - A folder with no files is deleted 24 hours after creation. In the empty-folder flow this is the
 *   spec's rule; the first browser upload both registers a file and claims the folder.
 * - A folder with files lives until its last file expires. A file expires `freeDownloadHours` after
 *   its upload completed, or, if it never completes, that long after it was registered.
 *
 * Stores keep the result as a column (`deleteAfter`) so the sweeper asks one indexed question. A file
 * only ever joins a folder or has its expiry extended (completion), and only expired files leave a
 * folder that lives on, so the column is kept up to date in O(1) from the folder's current state
 * (`deleteAfterWith`), never by reading every file: a folder may hold many thousands.
 */
export interface LifecycleFolder {
  readonly createdAt: number;
}
export interface LifecycleFile {
  readonly expiresAt: number;
}

export function emptyFolderDeadline(createdAt: number): number {
  return createdAt + UPLOAD_REQUIRED_WITHIN_HOURS * HOUR_MS;
}

export function fileExpiresAt(registeredAt: number, completedAt: number | null, freeDownloadHours: number): number {
  return (completedAt ?? registeredAt) + freeDownloadHours * HOUR_MS;
}

export function folderDeleteAfter(folder: LifecycleFolder, files: readonly LifecycleFile[]): number {
  if (files.length === 0) return emptyFolderDeadline(folder.createdAt);
  // A loop, not Math.max(...spread): a spread of many thousands of arguments overflows the stack.
  let latest = files[0]!.expiresAt;
  for (const f of files) if (f.expiresAt > latest) latest = f.expiresAt;
  return latest;
}

/** What a store knows of a folder's files without reading them. */
export interface FolderFileState {
  readonly deleteAfter: number;
  /** How many file records the folder has (expired ones not yet swept included). */
  readonly fileCount: number;
}

/**
 * The folder's deleteAfter once files with these expiries join it, or once one of its files gets a
 * later expiry (completion): `folderDeleteAfter` over all its files, computed from the current state
 * alone. A folder without files still has its empty-folder deadline, which the first files replace.
 */
export function deleteAfterWith(folder: FolderFileState, expiries: readonly number[]): number {
  if (expiries.length === 0) return folder.deleteAfter;
  let latest = folder.fileCount > 0 ? folder.deleteAfter : expiries[0]!;
  for (const e of expiries) if (e > latest) latest = e;
  return latest;
}

export function isDue(deleteAfter: number, now: number): boolean {
  return deleteAfter <= now;
}
