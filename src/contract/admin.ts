import type { FromSchema } from 'json-schema-to-ts';
import { MAX_ADMIN_PAGE } from '../domain/limits.js';
import { TAKE_DOWN_NOTE_MAX, TAKE_DOWN_REASONS } from '../domain/take-down.js';
import { int, intOrNull, object, strOrNull, upTo } from './schema-parts.js';

/**
 * The admin API (`/api/admin/…`, docs/organisations.md#admin-console): its query strings, bodies and
 * answers as JSON Schemas for the one validation layer, the routes' serialisers and the console's
 * answer checks (answers.ts). Only an admin reaches these routes (src/http/callers/admin-guard.ts).
 */
export const ADMIN_API_PATH = '/api/admin';

export const ADMIN_SORTS = ['created', 'size', 'expiry', 'downloads'] as const;
export const FOLDER_STATES = ['active', 'expired', 'taken-down', 'empty-ownerless'] as const;

/** `GET /api/admin/folders?q=&sort=&order=&limit=&offset=`; every parameter optional (empty = absent). */
export const adminFolderListQuery = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 200, errorMessage: 'must be given once, at most 200 characters' },
    sort: {
      type: 'string',
      pattern: `^(${ADMIN_SORTS.join('|')})?$`,
      errorMessage: { type: 'must be given once', pattern: `must be one of ${ADMIN_SORTS.join(', ')}` },
    },
    order: {
      type: 'string',
      pattern: '^(asc|desc)?$',
      errorMessage: { type: 'must be given once', pattern: 'must be asc or desc' },
    },
    limit: {
      type: 'string',
      pattern: `^(${upTo(MAX_ADMIN_PAGE)})?$`,
      errorMessage: { type: 'must be given once', pattern: `must be a whole number between 1 and ${MAX_ADMIN_PAGE}` },
    },
    offset: {
      type: 'string',
      pattern: '^\\d{0,7}$',
      errorMessage: { type: 'must be given once', pattern: 'must be a whole number below 10000000' },
    },
  },
} as const;

/** `POST /api/admin/folders/{folderId}/take-down`. */
export const takeDownRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  errorMessage: { additionalProperties: 'is not a take-down field (only reason and note)' },
  properties: {
    reason: {
      type: 'string',
      enum: TAKE_DOWN_REASONS,
      errorMessage: `must be one of ${TAKE_DOWN_REASONS.join(', ')}`,
    },
    note: {
      type: ['string', 'null'],
      maxLength: TAKE_DOWN_NOTE_MAX,
      errorMessage: `must be null or text of at most ${TAKE_DOWN_NOTE_MAX} characters`,
    },
  },
} as const;

const str = { type: 'string' } as const;

/** What visitors of a taken-down folder read (`GET <site>/api/site/folders/{id}/take-down`). */
export const takeDownAnswer = object({
  reason: { type: 'string', enum: TAKE_DOWN_REASONS },
  note: strOrNull,
  at: int,
});

const adminFolder = object({
  folderId: str,
  title: str,
  mode: str,
  flow: str,
  createdBy: str,
  createdAt: int,
  /** When the sweeper deletes the folder (its files' expiry, or the empty folder's deadline). */
  deleteAfter: int,
  files: int,
  bytes: int,
  downloads: int,
  owned: { type: 'boolean' },
  state: { type: 'string', enum: FOLDER_STATES },
  /** The account that made it (sign-in), or null for anonymous. */
  creator: { anyOf: [{ type: 'null' }, object({ accountId: str, email: strOrNull })] },
  takeDown: { anyOf: [{ type: 'null' }, takeDownAnswer] },
});

const adminFile = object({
  fileId: str,
  size: int,
  chunks: int,
  complete: { type: 'boolean' },
  createdAt: int,
  expiresAt: int,
  downloads: int,
  maxDownloads: intOrNull,
});

/** The admin API's answers, strict as the routes write them (answers.ts makes the clients' copies). */
export const adminAnswerSchemas = {
  adminFolderList: object({
    folders: { type: 'array', items: adminFolder },
    total: int,
    limit: int,
    offset: int,
  }),
  adminFolder: object({ folder: adminFolder, files: { type: 'array', items: adminFile } }),
  adminStats: object({
    folders: int,
    files: int,
    bytes: int,
    openUploads: int,
    takenDown: int,
    expired: int,
    emptyOwnerless: int,
    accounts: int,
    quota: object({ totalBytes: intOrNull, folderBytes: intOrNull }),
    store: { type: 'string', enum: ['sqlite', 'postgresql'] },
    blobs: { type: 'string', enum: ['local', 's3'] },
    disk: {
      anyOf: [{ type: 'null' }, object({ freeBytes: int, totalBytes: int, floorBytes: int, usableBytes: int })],
    },
  }),
  takeDown: takeDownAnswer,
} as const;

export type AdminFolderList = FromSchema<typeof adminAnswerSchemas.adminFolderList>;
export type AdminFolderView = AdminFolderList['folders'][number];
export type AdminFolderDetail = FromSchema<typeof adminAnswerSchemas.adminFolder>;
export type AdminStats = FromSchema<typeof adminAnswerSchemas.adminStats>;
export type TakeDownInfo = FromSchema<typeof takeDownAnswer>;
export type TakeDownRequest = FromSchema<typeof takeDownRequestSchema>;
