import type { AccountFolder, AccountFolderList, AccountFoldersQuery } from '../contract/account-folders.js';
import { DEFAULT_ACCOUNT_FOLDERS_PAGE } from '../domain/limits.js';
import { folderPageUrl } from '../domain/links.js';
import { folderExpiresAt } from '../domain/owner-settings.js';
import type { Principal } from '../domain/principal.js';
import type { AccountFolderCursor, AccountFolderSummary } from '../store/account-folders.js';
import { signInRequired } from './errors.js';
import type { Services } from './services.js';

/**
 * "My folders": the live folders the signed-in account made, on any device, with what the
 * server knows of them (title, size, counts, expiry, state, latest activity). The key of a folder is
 * never here: the server never had it, so opening the files still needs the link.
 */
export async function accountFolders(
  services: Services,
  principal: Principal,
  query: AccountFoldersQuery,
): Promise<AccountFolderList> {
  if (principal.kind !== 'account') throw signInRequired('sign in to see the folders you made');
  const sort = query.sort ?? 'newest';
  const limit = query.limit ? Number(query.limit) : DEFAULT_ACCOUNT_FOLDERS_PAGE;
  const after = query.cursor ? readCursor(query.cursor) : undefined;
  // One more than the page tells whether a next page exists without a second query.
  const rows = await services.store.listings.accountFolders(principal.accountId, services.clock(), {
    sort,
    limit: limit + 1,
    after,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    folders: page.map((f) => view(services, f)),
    nextCursor:
      rows.length > limit && last ? `${sort === 'newest' ? last.createdAt : last.deleteAfter}.${last.id}` : null,
  };
}

/** The cursor as the query schema admits it: `<sort key>.<folder id>`. */
function readCursor(cursor: string): AccountFolderCursor {
  const dot = cursor.indexOf('.');
  return { key: Number(cursor.slice(0, dot)), id: cursor.slice(dot + 1) };
}

function view(services: Services, f: AccountFolderSummary): AccountFolder {
  const hasFiles = f.fileCount > 0;
  return {
    folderId: f.id,
    title: f.title,
    mode: f.mode,
    createdAt: f.createdAt,
    expiresAt: folderExpiresAt({ expiresAt: f.settings.expiresAt, deleteAfter: f.deleteAfter }, hasFiles),
    deleteAfter: f.deleteAfter,
    fileCount: f.fileCount,
    totalSize: f.bytes,
    downloads: f.downloads,
    maxDownloads: f.settings.maxDownloads,
    state: f.takeDown ? 'taken-down' : !hasFiles ? 'empty' : f.incompleteFiles > 0 ? 'uploading' : 'ready',
    lastActivity: f.lastActivity,
    folderUrl: folderPageUrl(services.config.webUrl, f.id),
    password: f.settings.password !== null,
  };
}
