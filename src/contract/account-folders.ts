import type { FromSchema } from 'json-schema-to-ts';
import { MAX_ACCOUNT_FOLDERS_PAGE } from '../domain/limits.js';
import type { Mode } from '../domain/modes.js';
import { upTo } from './schema-parts.js';

/**
 * "My folders": `GET <site>/api/account/folders?sort=&cursor=&limit=`, the folders the
 * signed-in account made. A page is at most MAX_ACCOUNT_FOLDERS_PAGE folders; `nextCursor` continues
 * the same sort. Titles are plaintext (the API takes them so); no key, name or content is here: the
 * server has none it could read.
 */

export const accountFoldersQuery = {
  type: 'object',
  properties: {
    sort: {
      type: 'string',
      enum: ['newest', 'expiry'],
      errorMessage: { type: 'must be given once', enum: 'must be newest or expiry' },
    },
    cursor: {
      type: 'string',
      // The sort key (epoch ms) and the last folder's id: what nextCursor gives.
      pattern: '^\\d{1,15}\\.[A-Za-z0-9_-]{16}$',
      errorMessage: { type: 'must be given once', pattern: 'is malformed: pass nextCursor as it was given' },
    },
    limit: {
      type: 'string',
      pattern: `^(${upTo(MAX_ACCOUNT_FOLDERS_PAGE)})$`,
      errorMessage: {
        type: 'must be given once',
        pattern: `must be a whole number between 1 and ${MAX_ACCOUNT_FOLDERS_PAGE}`,
      },
    },
  },
} as const;
export type AccountFoldersQuery = FromSchema<typeof accountFoldersQuery>;

/**
 * What a folder is doing, as the list shows it; `taken-down`: the operator took it down (nothing of it
 * is served, and its controls answer 404 taken_down).
 */
export type AccountFolderState = 'empty' | 'uploading' | 'ready' | 'taken-down';

export interface AccountFolder {
  readonly folderId: string;
  readonly title: string;
  readonly mode: Mode;
  readonly createdAt: number;
  /** When the files stop being available (as the folder info's), or null for a folder without files. */
  readonly expiresAt: number | null;
  /** When the folder is deleted (an empty folder: its upload deadline). */
  readonly deleteAfter: number;
  readonly fileCount: number;
  /** Plaintext bytes of its files. */
  readonly totalSize: number;
  /** Counted downloads of its files (the owner's own are not counted). */
  readonly downloads: number;
  /** The folder's download limit per file, or null. */
  readonly maxDownloads: number | null;
  readonly state: AccountFolderState;
  /** The newest line of its activity (upload, download, delete), or null. */
  readonly lastActivity: { readonly at: number; readonly kind: 'upload' | 'download' | 'delete' } | null;
  /** The folder's page on this site, without the key (the fragment): the server never has it. */
  readonly folderUrl: string;
  /** Whether a password protects it (the page cannot open it without that either). */
  readonly password: boolean;
}

export interface AccountFolderList {
  readonly folders: AccountFolder[];
  readonly nextCursor: string | null;
}
