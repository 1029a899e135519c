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

/**
 * The migration that adds the owner's settings, download counts and the activity list; the same in
 * both dialects but for the integer type and the key of the activity table.
 */
export function ownerMigration(bigint: 'INTEGER' | 'BIGINT'): string {
  const key = bigint === 'BIGINT' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
  return `ALTER TABLE folders ADD COLUMN expires_at ${bigint};
   ALTER TABLE folders ADD COLUMN max_downloads INTEGER;
   ALTER TABLE folders ADD COLUMN note TEXT;
   ALTER TABLE folders ADD COLUMN password TEXT;
   ALTER TABLE folders ADD COLUMN created_by TEXT NOT NULL DEFAULT 'api' CHECK (created_by IN ('site', 'api'));
   ALTER TABLE files ADD COLUMN max_downloads INTEGER;
   ALTER TABLE files ADD COLUMN downloads INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE activity (
     id ${key},
     folder_id TEXT NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
     at ${bigint} NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('upload', 'download', 'delete')),
     file_id TEXT NOT NULL,
     ip TEXT
   );
   CREATE INDEX activity_folder ON activity (folder_id, id);`;
}

/**
 * A deletion's encrypted file name and sealed key on its activity line: the
 * owner's page names a deleted file after a reload or in another browser. Text in both dialects.
 */
export const activityNamesMigration = (): string =>
  `ALTER TABLE activity ADD COLUMN filename TEXT;
   ALTER TABLE activity ADD COLUMN sealed_key TEXT;`;
