import type { Mode } from '../domain/modes.js';
import type { FileRecord, Flow, FolderCreator, FolderRecord } from './metadata-store.js';

/**
 * The `folders` and `files` rows as both SQL stores read them (same column names in SQLite and
 * PostgreSQL), and their mapping to records. Integer columns arrive as numbers from SQLite and as
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
  /** The take-down's columns (admin-rows.ts); absent from a query that does not read them. */
  taken_down_at?: Int | null;
  take_down_reason?: string | null;
  take_down_note?: string | null;
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
  accountId: r.account_id ?? null,
  fileCount: int(r.file_count),
  takeDown:
    r.taken_down_at === null || r.taken_down_at === undefined
      ? null
      : { at: int(r.taken_down_at), reason: r.take_down_reason ?? 'other', note: r.take_down_note ?? null },
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
});
