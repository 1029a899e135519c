import { HOUR_MS, UPLOAD_REQUIRED_WITHIN_HOURS } from './limits.js';

/**
 * When a folder is due for deletion (spec 3, and our decisions where the spec is silent):
 *
 * - A folder with no files is deleted 24 hours after creation. In the empty-folder flow this is the
 *   spec's rule; the first browser upload both registers a file and claims the folder.
 * - A folder with files lives until its last file expires. A file expires `freeDownloadHours` after
 *   its upload completed, or, if it never completes, that long after it was registered.
 *
 * Stores keep the result as a column (`deleteAfter`) recomputed whenever files change, so the sweeper
 * asks one indexed question and this function stays the only statement of the rule.
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
  return Math.max(...files.map((f) => f.expiresAt));
}

export function isDue(deleteAfter: number, now: number): boolean {
  return deleteAfter <= now;
}
