import type { Mode } from '../../domain/modes.js';
import type { Flow, FolderCreator, FolderRecord, FolderSettings } from '../folder-record.js';
import type { FileInFolder, FileRecord, NewFile, NewFolder } from '../folder-store.js';

/**
 * What both SQL stores share (this folder): the rows they read, with the same column names in
 * SQLite and PostgreSQL, their mapping to the port's records, and the statements whose text is the
 * same in both dialects but for placeholders. This module: the `folders` and `files` rows. Integer columns arrive as numbers from SQLite and as
 * strings from pg (BIGINT); `int` accepts both, so the pg type parsers are left alone.
 */
type Int = number | string;

export interface FolderRow {
  id: string;
  mode: string;
  title: string;
  flow: string;
  created_at: Int;
  ske: string | null;
  upload_auth_hash: string | null;
  owner_token_hash: string | null;
  owner_public_key: string | null;
  delete_after: Int;
  expires_at: Int | null;
  max_downloads: Int | null;
  note: string | null;
  password: string | null;
  created_by: string;
  account_id: string | null;
  file_count: Int;
  /** The take-down's columns: all three set together, or all null (admin.ts takeDownSql). */
  taken_down_at: Int | null;
  take_down_reason: string | null;
  take_down_note: string | null;
}

export interface FileRow {
  id: string;
  folder_id: string;
  position: number;
  filename: string;
  mimetype: string | null;
  filesize: Int;
  chunk_size: Int;
  chunks: number;
  created_at: Int;
  completed_at: Int | null;
  expires_at: Int;
  uploader_tag: string | null;
  sealed_key: string | null;
  max_downloads: Int | null;
  downloads: Int;
  sending_until?: Int | null;
}

function int(value: Int): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`stored integer ${value} is out of range`);
  return n;
}

const nullableInt = (value: Int | null): number | null => (value === null ? null : int(value));

export const toFolder = (r: FolderRow): FolderRecord => ({
  id: r.id,
  mode: r.mode as Mode,
  title: r.title,
  flow: r.flow as Flow,
  createdAt: int(r.created_at),
  ske: r.ske,
  uploadAuthHash: r.upload_auth_hash,
  ownerTokenHash: r.owner_token_hash,
  ownerPublicKey: r.owner_public_key,
  deleteAfter: int(r.delete_after),
  settings: {
    expiresAt: nullableInt(r.expires_at),
    maxDownloads: nullableInt(r.max_downloads),
    note: r.note,
    password: r.password,
  },
  createdBy: r.created_by as FolderCreator,
  accountId: r.account_id,
  fileCount: int(r.file_count),
  takeDown:
    r.taken_down_at === null ? null : { at: int(r.taken_down_at), reason: r.take_down_reason!, note: r.take_down_note },
});

export const toFile = (r: FileRow): FileRecord => ({
  id: r.id,
  folderId: r.folder_id,
  position: r.position,
  filename: r.filename,
  mimetype: r.mimetype,
  filesize: int(r.filesize),
  chunkSize: int(r.chunk_size),
  chunks: r.chunks,
  createdAt: int(r.created_at),
  completedAt: r.completed_at === null ? null : int(r.completed_at),
  expiresAt: int(r.expires_at),
  uploaderTag: r.uploader_tag,
  sealedKey: r.sealed_key,
  maxDownloads: nullableInt(r.max_downloads),
  downloads: int(r.downloads),
  sendingUntil: nullableInt(r.sending_until ?? null),
});

const FILE_ROW_COLUMNS = [
  'id',
  'folder_id',
  'position',
  'filename',
  'mimetype',
  'filesize',
  'chunk_size',
  'chunks',
  'created_at',
  'completed_at',
  'expires_at',
  'uploader_tag',
  'sealed_key',
  'max_downloads',
  'downloads',
  'sending_until',
] as const;

/** A row of fileInFolderSql: the folder's columns as they are, the file's prefixed `file_`. */
export type FileInFolderRow = FolderRow & { [K in (typeof FILE_ROW_COLUMNS)[number] as `file_${K}`]: FileRow[K] };

/**
 * The file and its folder in one indexed read (the chunk path's: accept-chunk.ts), the same text on
 * both stores but for placeholders. The two tables share column names, so the file's are renamed.
 */
export function fileInFolderSql(placeholder: (n: number) => string): string {
  const fileColumns = FILE_ROW_COLUMNS.map((c) => `f.${c} AS file_${c}`).join(', ');
  return `SELECT d.*, ${fileColumns} FROM files f JOIN folders d ON d.id = f.folder_id
   WHERE f.folder_id = ${placeholder(1)} AND f.id = ${placeholder(2)} AND d.deleting_since IS NULL`;
}

export function toFileInFolder(r: FileInFolderRow): FileInFolder {
  const file = Object.fromEntries(FILE_ROW_COLUMNS.map((c) => [c, r[`file_${c}`]])) as unknown as FileRow;
  return { file: toFile(file), folder: toFolder(r) };
}

/** A folder without any of the owner's settings. */
export const NO_SETTINGS: FolderSettings = { expiresAt: null, maxDownloads: null, note: null, password: null };

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
): F & { maxDownloads: number | null; downloads: number; sendingUntil: number | null } {
  return {
    ...file,
    maxDownloads: file.maxDownloads ?? null,
    downloads: file.downloads ?? 0,
    sendingUntil: file.sendingUntil ?? null,
  };
}

/** What a set of files adds to the counters: their registered (plaintext) bytes, their chunks. */
export const sumBytes = (files: readonly { readonly filesize: number }[]): number =>
  files.reduce((sum, f) => sum + f.filesize, 0);
export const sumChunks = (files: readonly { readonly chunks: number }[]): number =>
  files.reduce((sum, f) => sum + f.chunks, 0);

/** The folder whose files are counted: the bytes it holds, and the account that made it (if any). */
export interface CountedFolder {
  readonly byteCount: number;
  readonly accountId: string | null;
}
