import type { ActivityRecord, FolderRecord, NewFile, NewFolder } from './metadata-store.js';
import { NO_SETTINGS } from './metadata-store.js';

/** The owner controls' columns and table as both SQL stores keep them (see rows.ts). */
type Int = number | string;

export interface ActivityRow {
  at: Int;
  kind: string;
  file_id: string;
  ip: string | null;
  filename: string | null;
  sealed_key: string | null;
}

export const toActivity = (r: ActivityRow): ActivityRecord => ({
  at: Number(r.at),
  kind: r.kind as ActivityRecord['kind'],
  fileId: r.file_id,
  ip: r.ip,
  filename: r.filename,
  sealedKey: r.sealed_key,
});

/** The activity table's columns as both stores write and read them, in ActivityRow's order. */
export const ACTIVITY_COLUMNS = 'at, kind, file_id, ip, filename, sealed_key';
export const activityValues = (a: ActivityRecord) => [a.at, a.kind, a.fileId, a.ip, a.filename, a.sealedKey] as const;

/** A new folder with every column filled: no settings and made by the API unless given. */
export function fullFolder(folder: NewFolder): Omit<FolderRecord, 'fileCount' | 'takeDown'> {
  return {
    ...folder,
    settings: folder.settings ?? NO_SETTINGS,
    createdBy: folder.createdBy ?? 'api',
    accountId: folder.accountId ?? null,
  };
}

/** A new file with every column filled. */
export function fullFile<F extends Omit<NewFile, 'position'>>(
  file: F,
): F & { maxDownloads: number | null; downloads: number } {
  return { ...file, maxDownloads: file.maxDownloads ?? null, downloads: file.downloads ?? 0 };
}
