import type { AdminCounts, AdminFolder, AdminFolderQuery, AdminSort } from '../admin-store.js';
import { type FolderRow, toFolder } from './rows.js';

/**
 * The admin console's statements as both SQL stores run them (same text but for placeholders), and
 * the take-down's columns. `ph(n)` writes the n-th parameter (`$n` in PostgreSQL, `@pn` in SQLite).
 */
type Int = number | string;

/** The take-down's columns of `folders`, read with every folder (rows.ts toFolder). */
export const TAKE_DOWN_COLUMNS = 'taken_down_at, take_down_reason, take_down_note';
export interface AdminFolderRow extends FolderRow {
  byte_count: Int;
  downloads: Int | null;
  creator_email: string | null;
}

export const toAdminFolder = (r: AdminFolderRow): AdminFolder => ({
  folder: toFolder(r),
  bytes: Number(r.byte_count),
  downloads: Number(r.downloads ?? 0),
  creatorEmail: r.creator_email,
});

const SORT_COLUMNS: Record<AdminSort, string> = {
  created: 'd.created_at',
  size: 'd.byte_count',
  expiry: 'd.delete_after',
  downloads: 'downloads',
};

const SELECT = `SELECT d.id, d.mode, d.title, d.flow, d.created_at, d.ske, d.upload_auth_hash, d.owner_token_hash,
     d.owner_public_key, d.delete_after, d.expires_at, d.max_downloads, d.note, d.password, d.created_by,
     d.file_count, d.byte_count, d.taken_down_at, d.take_down_reason, d.take_down_note, d.account_id,
     (SELECT SUM(f.downloads) FROM files f WHERE f.folder_id = d.id) AS downloads,
     (SELECT a.email FROM accounts a WHERE a.id = d.account_id) AS creator_email
   FROM folders d`;

/** `%text%` for LIKE, with the pattern's own characters escaped (ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE of a search: live folders whose id is the text or whose title contains it. */
function where(ph: (n: number) => string, search: boolean): string {
  return `WHERE d.deleting_since IS NULL${search ? ` AND (d.id = ${ph(1)} OR LOWER(d.title) LIKE ${ph(2)} ESCAPE '\\')` : ''}`;
}

/**
 * A page of the list. Parameters: with a search, 1 = the text, 2 = its LIKE pattern; then limit and
 * offset (3 and 4, or 1 and 2). The id breaks ties, so that pages never overlap or skip.
 */
export function adminListSql(
  ph: (n: number) => string,
  query: Pick<AdminFolderQuery, 'sort' | 'order'>,
  search: boolean,
) {
  const n = search ? 2 : 0;
  const order = query.order === 'asc' ? 'ASC' : 'DESC';
  return {
    list: `${SELECT} ${where(ph, search)} ORDER BY ${SORT_COLUMNS[query.sort]} ${order}, d.id ${order} LIMIT ${ph(n + 1)} OFFSET ${ph(n + 2)}`,
    count: `SELECT COUNT(*) AS total FROM folders d ${where(ph, search)}`,
  };
}

/** One live folder with its figures; parameter 1 is its id. */
export const adminFolderSql = (ph: (n: number) => string) =>
  `${SELECT} WHERE d.id = ${ph(1)} AND d.deleting_since IS NULL`;

/** Parameters 1-4: when, reason, note, the folder's id. */
export const takeDownSql = (ph: (n: number) => string) =>
  `UPDATE folders SET taken_down_at = ${ph(1)}, take_down_reason = ${ph(2)}, take_down_note = ${ph(3)}
   WHERE id = ${ph(4)} AND deleting_since IS NULL`;

/** Counts by state; parameter 1 is now (epoch ms). Mirrors domain/take-down.ts folderState. */
export const adminCountsSql = (ph: (n: number) => string) =>
  `SELECT COUNT(*) AS folders,
     COALESCE(SUM(CASE WHEN taken_down_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS taken_down,
     COALESCE(SUM(CASE WHEN taken_down_at IS NULL AND delete_after <= ${ph(1)} THEN 1 ELSE 0 END), 0) AS expired,
     COALESCE(SUM(CASE WHEN taken_down_at IS NULL AND delete_after > ${ph(1)} AND file_count = 0
       AND owner_token_hash IS NULL AND upload_auth_hash IS NULL THEN 1 ELSE 0 END), 0) AS empty_ownerless
     , (SELECT COUNT(*) FROM accounts) AS accounts
   FROM folders WHERE deleting_since IS NULL`;

export interface AdminCountsRow {
  folders: Int;
  taken_down: Int;
  expired: Int;
  empty_ownerless: Int;
  accounts: Int;
}

export const toAdminCounts = (r: AdminCountsRow): AdminCounts => ({
  folders: Number(r.folders),
  takenDown: Number(r.taken_down),
  expired: Number(r.expired),
  emptyOwnerless: Number(r.empty_ownerless),
  accounts: Number(r.accounts),
});
