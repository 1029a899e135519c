import type { FromSchema } from 'json-schema-to-ts';
import { MAX_ACCOUNT_FOLDERS_PAGE } from '../domain/limits.js';
import { upTo } from './schema-parts.js';
import type { siteAnswerSchemas } from './site-answers.js';

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

/** One page of "My folders" (its fields: ./site-answers.ts accountFolders). */
export type AccountFolderList = FromSchema<typeof siteAnswerSchemas.accountFolders>;
export type AccountFolder = AccountFolderList['folders'][number];
