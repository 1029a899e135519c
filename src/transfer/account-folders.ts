import type { AccountFolderList } from '../contract/account-folders.js';
import { ACCOUNT_FOLDERS_PATH } from '../contract/paths.js';
import { homeJson } from './outbound.js';
import type { HttpOptions } from './retry.js';
import { apiUrl } from './urls.js';

/** A page of "My folders" to ask for: the sort, where the previous page ended, how many. */
export interface AccountFoldersRequest {
  readonly sort?: 'newest' | 'expiry';
  readonly cursor?: string | null;
  readonly limit?: number;
}

/**
 * One page of the folders the signed-in account made (`GET <site>/api/account/folders`).
 * The page's session cookie goes with it (same origin); the answer is checked against its schema.
 * `site` is the site's address or path (WEB_URL, "/" on the page at the root).
 */
export function listAccountFolders(
  site: string,
  page: AccountFoldersRequest = {},
  http: HttpOptions = {},
): Promise<AccountFolderList> {
  const query = new URLSearchParams();
  if (page.sort) query.set('sort', page.sort);
  if (page.cursor) query.set('cursor', page.cursor);
  if (page.limit !== undefined) query.set('limit', String(page.limit));
  const q = query.toString();
  const url = apiUrl(site, ACCOUNT_FOLDERS_PATH) + (q ? `?${q}` : '');
  return homeJson('list my folders', url, 'accountFolders', {}, http);
}
