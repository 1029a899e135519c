/**
 * Where the local storage backend's presigned chunk URLs point (src/blobs/local): the path of the
 * chunk upload route (src/http/routes/chunks.ts). Shared by both as data, so that neither imports
 * the other.
 */
export const UPLOAD_PATH = '/v2/uploads';

/**
 * A folder's page on the browser site, relative to WEB_URL: its share link is `WEB_URL + this`, plus
 * the key in the fragment. The site route, the use cases' links and every client's reading of a
 * link go through these two.
 */
export const FOLDER_PAGE_PREFIX = '/f/';
export function folderPagePath(folderId: string): string {
  return `${FOLDER_PAGE_PREFIX}${folderId}`;
}

/** The browser site's own JSON endpoints, relative to WEB_URL (src/http/routes/site.ts). */
export const SITE_API_PATH = '/api/site';

/** A chunk number in chunk URLs and object keys: five digits, zero-padded (the file.kiwi rule). */
export function chunkName(n: number): string {
  return String(n).padStart(5, '0');
}

/** The admin API's audit log (issue 26): the listing, and `.jsonl` after it for the export. */
export const AUDIT_API_PATH = '/api/admin/audit';

/**
 * "My folders" (issue 26), relative to WEB_URL: the page that lists the signed-in account's folders,
 * and its JSON endpoint.
 */
export const MY_FOLDERS_PAGE_PATH = '/me';
export const ACCOUNT_FOLDERS_PATH = '/api/account/folders';

/** The admin API's accounts with their usage and quotas (issue 26). */
export const ACCOUNTS_API_PATH = '/api/admin/accounts';
