import type { FolderRecord } from '../folder-record.js';
import type { FileRecord } from '../folder-store.js';
import { TAKE_DOWN_COLUMNS } from '../sql/admin.js';
import { AUDIT_INSERT_COLUMNS } from '../sql/audit.js';

/** The column lists and inserts of folders and files, shared by the PostgreSQL store's writes. */
export const WRITTEN_FOLDER_COLUMNS =
  'id, mode, title, flow, created_at, ske, upload_auth_hash, owner_token_hash, owner_public_key, delete_after, expires_at, max_downloads, note, password, created_by, account_id';
export const FOLDER_COLUMNS = `${WRITTEN_FOLDER_COLUMNS}, file_count, ${TAKE_DOWN_COLUMNS}`;
export const FILE_COLUMNS =
  'f.id, f.folder_id, f.position, f.filename, f.mimetype, f.filesize, f.chunk_size, f.chunks, f.created_at, f.completed_at, f.expires_at, f.uploader_tag, f.sealed_key, f.max_downloads, f.downloads, f.sending_until';

export const INSERT_FOLDER = `INSERT INTO folders (${WRITTEN_FOLDER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`;
/**
 * The folder and its creation's audit entry (parameters 17 to 23, in AUDIT_INSERT_COLUMNS' order) in
 * one statement: atomic without a transaction, one round trip.
 */
export const INSERT_FOLDER_WITH_AUDIT = `WITH folder AS (${INSERT_FOLDER})
  INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES ($17, $18, $19, $20, $21, $22, $23)`;
/** A folder's counts and deleteAfter, once files are inserted. */
export const SET_COUNTS =
  'UPDATE folders SET file_count = $1, chunk_count = $2, byte_count = $3, delete_after = $4 WHERE id = $5';
export const INSERT_FILE = `INSERT INTO files (id, folder_id, position, filename, mimetype, filesize, chunk_size, chunks, created_at, completed_at, expires_at, uploader_tag, sealed_key, max_downloads, downloads)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`;

export const folderParams = (f: Omit<FolderRecord, 'fileCount' | 'takeDown'>) => [
  f.id,
  f.mode,
  f.title,
  f.flow,
  f.createdAt,
  f.ske,
  f.uploadAuthHash,
  f.ownerTokenHash,
  f.ownerPublicKey,
  f.deleteAfter,
  f.settings.expiresAt,
  f.settings.maxDownloads,
  f.settings.note,
  f.settings.password,
  f.createdBy,
  f.accountId,
];

export const fileParams = (f: FileRecord) => [
  f.id,
  f.folderId,
  f.position,
  f.filename,
  f.mimetype,
  f.filesize,
  f.chunkSize,
  f.chunks,
  f.createdAt,
  f.completedAt,
  f.expiresAt,
  f.uploaderTag,
  f.sealedKey,
  f.maxDownloads,
  f.downloads,
];
