import type { AccountFolderPage, AccountFolderSort, AccountFolderSummary } from '../account-folders.js';
import { type FolderRow, toFolder } from './rows.js';

/** "My folders" rows as both SQL stores read them, their mapping, the page's query and its index. */
type Int = number | string;
export interface AccountFolderRow extends FolderRow {
  byte_count: Int;
  download_count: Int | null;
  incomplete_count: Int;
  last_at: Int | null;
  last_kind: string | null;
}

export const toAccountFolder = (r: AccountFolderRow): AccountFolderSummary => ({
  ...toFolder(r),
  bytes: Number(r.byte_count),
  downloads: Number(r.download_count ?? 0),
  incompleteFiles: Number(r.incomplete_count),
  lastActivity:
    r.last_at === null || r.last_kind === null
      ? null
      : { at: Number(r.last_at), kind: r.last_kind as 'upload' | 'download' | 'delete' },
});

/** The parameters of a page, in the order `accountFoldersSql` numbers them. */
export function accountFolderParams(accountId: string, now: number, page: AccountFolderPage): (string | number)[] {
  const base = [accountId, now, page.limit];
  return page.after ? [...base, page.after.key, page.after.id] : base;
}

/**
 * The page's query, the same text on both stores but for placeholders (`p(n)`, numbered as
 * `accountFolderParams` orders them). Newest first: created_at, id descending; by expiry: the soonest
 * deletion first (delete_after, when the folder and its files go), id ascending.
 */
export function accountFoldersSql(p: (n: number) => string, sort: AccountFolderSort, withCursor: boolean): string {
  const [column, direction, compare] = sort === 'newest' ? ['created_at', 'DESC', '<'] : ['delete_after', 'ASC', '>'];
  const cursor = withCursor
    ? `AND (d.${column} ${compare} ${p(4)} OR (d.${column} = ${p(4)} AND d.id ${compare} ${p(5)}))`
    : '';
  return `SELECT d.*,
     (SELECT SUM(f.downloads) FROM files f WHERE f.folder_id = d.id) AS download_count,
     (SELECT COUNT(*) FROM files f WHERE f.folder_id = d.id AND f.completed_at IS NULL) AS incomplete_count,
     (SELECT a.at FROM activity a WHERE a.folder_id = d.id ORDER BY a.id DESC LIMIT 1) AS last_at,
     (SELECT a.kind FROM activity a WHERE a.folder_id = d.id ORDER BY a.id DESC LIMIT 1) AS last_kind
   FROM folders d
   WHERE d.account_id = ${p(1)} AND d.deleting_since IS NULL AND d.delete_after > ${p(2)} ${cursor}
   ORDER BY d.${column} ${direction}, d.id ${direction} LIMIT ${p(3)}`;
}
