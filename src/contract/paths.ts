/**
 * Where the local storage backend's presigned chunk URLs point (src/blobs/local): the path of the
 * chunk upload route (src/http/routes/chunks.ts). Shared by both as data, so that neither imports
 * the other.
 */
export const UPLOAD_PATH = '/v2/uploads';

/** The browser site's own JSON endpoints, relative to WEB_URL (src/http/routes/site.ts). */
export const SITE_API_PATH = '/api/site';

/** A chunk number in chunk URLs and object keys: five digits, zero-padded (the file.kiwi rule). */
export function chunkName(n: number): string {
  return String(n).padStart(5, '0');
}

/** The admin API's audit log: the listing, and `.jsonl` after it for the export. */
export const AUDIT_API_PATH = '/api/admin/audit';

/** The JSON endpoint of "My folders" (the signed-in account's folders), relative to WEB_URL. */
export const ACCOUNT_FOLDERS_PATH = '/api/account/folders';

/** The admin API's accounts with their usage and quotas. */
export const ACCOUNTS_API_PATH = '/api/admin/accounts';

/** The two operations of the v2 contract (spec 4.1, 4.2): their methods and route paths. */
export const V2_OPERATION_ROUTES = [
  { method: 'POST', path: '/v2/folders' },
  { method: 'GET', path: '/v2/folders/:folderId/files/:fileId/upload-status' },
] as const;
