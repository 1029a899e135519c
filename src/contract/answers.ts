import { MODES } from '../domain/modes.js';
import {
  type AccountView,
  type ApiKeyCreated,
  type ApiKeyView,
  accountViewSchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
} from './account.js';
import type { AccountFolderList } from './account-folders.js';
import {
  type AdminFolderDetail,
  type AdminFolderList,
  type AdminStats,
  adminAnswerSchemas,
  type TakeDownInfo,
  takeDownAnswer,
} from './admin.js';
import { int, intOrNull, object, strOrNull } from './schema-parts.js';
import { createResponseDirectSchema, createResponseEmptySchema, uploadStatusResponseSchema } from './schemas.js';
import type {
  DownloadTicket,
  FileProgress,
  FolderInfo,
  SiteActivity,
  SiteCreateFolderResponse,
  SiteFile,
  SiteFileList,
  SiteNotifications,
  SiteRegisteredFile,
  SiteRegisterResponse,
} from './site.js';
import type { CreateResponseDirect, CreateResponseEmpty, UploadStatusResponse } from './types.js';

/**
 * What every client (the library, the CLI, the page and its service worker) accepts as a server's
 * JSON answer, one JSON Schema per answer: the v2 answers are the contract's own schemas
 * (./schemas.ts); the site's answers state the shapes of ./site.ts. The outbound-request layer
 * (src/transfer/outbound.ts) checks every answer against its schema before any field is read, so
 * a foreign or broken answer (a proxy's `{}`, another service at the address) is a clear error
 * naming the call, never an `undefined` link or a crash further on.
 *
 * The site's answers name every field a client reads, with its type; further properties are
 * allowed (a newer server may add fields an older client ignores). No `format` and no length
 * keywords: the page's copy of these validators is generated ahead of time (web/vite.config.ts,
 * the page's CSP forbids compiling code at run time) and must need no run-time helper module.
 */
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const mode = { type: 'string', enum: MODES } as const;
const role = { type: 'string', enum: ['owner', 'visitor'] } as const;

const uploadUrls = object({
  head: str,
  tail: str,
  path: str,
  signatures: { type: 'array', items: str },
  headers: { type: 'object', additionalProperties: str },
});

const registeredFile = object({ fileId: str, chunkSize: int, chunks: int, uploadUrls });

const siteFile = object({
  fileId: str,
  filename: str,
  mimetype: strOrNull,
  filesize: int,
  chunkSize: int,
  chunks: int,
  complete: bool,
  storedChunks: int,
  createdAt: int,
  expiresAt: int,
  sealedKey: strOrNull,
  mine: bool,
  downloads: int,
  maxDownloads: intOrNull,
  downloadsLeft: intOrNull,
});

const passwordParams = object({ kdf: { type: 'string', const: 'scrypt' }, N: int, r: int, p: int, salt: str });

const folderInfo = object({
  folderId: str,
  mode,
  title: str,
  createdAt: int,
  uploadDeadline: intOrNull,
  owned: bool,
  isOwner: bool,
  role,
  rights: object({ upload: bool, list: bool, download: bool }),
  ske: strOrNull,
  ownerPublicKey: strOrNull,
  chunkSize: int,
  expiresAt: intOrNull,
  maxExpiresInHours: { type: 'number' },
  maxDownloads: intOrNull,
  note: strOrNull,
  password: { anyOf: [{ type: 'null' }, passwordParams] },
  fileCount: int,
  totalSize: int,
  createdBy: { type: 'string', enum: ['site', 'api'] },
});

const notifications = object({
  email: strOrNull,
  webhookUrl: strOrNull,
  webhookSecret: strOrNull,
  onDownload: bool,
  onUpload: bool,
  emailStatus: { type: ['string', 'null'], enum: ['confirmed', 'pending', 'refused', null] },
});

/**
 * A schema as a client reads it: the same, but properties it does not know are let through (the
 * server's serialiser keeps to the contract; a client must still work with a service that adds a
 * field, file.kiwi's own included).
 */
function tolerant<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(tolerant) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, tolerant(value)]),
  ) as T;
}

/**
 * The site's answers as its routes write them (their response schemas, src/http/routes/site*.ts):
 * strict, so the serialiser writes exactly the stated fields and the handlers are typed by them.
 */
export const siteAnswerSchemas = {
  siteCreateFolder: object({ folderId: str, folderUrl: str, uploadDeadline: int }),
  folderInfo,
  register: object({ role, claimed: bool, files: { type: 'array', items: registeredFile } }),
  registeredFile,
  fileList: object({ files: { type: 'array', items: siteFile }, nextCursor: strOrNull }),
  siteFile,
  fileProgress: uploadStatusResponseSchema,
  notifications,
  activity: object({
    events: {
      type: 'array',
      items: object({
        at: int,
        kind: { type: 'string', enum: ['upload', 'download', 'delete'] },
        fileId: str,
        ip: strOrNull,
        filename: strOrNull,
        sealedKey: strOrNull,
      }),
    },
  }),
  downloadTicket: object({ ticket: str, expiresAt: int, downloads: int, maxDownloads: intOrNull }),
  /** A chunk download answered as object storage's presigned address (asked with Accept: JSON). */
  chunkLocation: object({ url: str }),
  /** Why a folder was taken down (src/contract/admin.ts). */
  takeDown: takeDownAnswer,
  /** Who is signed in, and their API keys (./account.ts). */
  accountView: accountViewSchema,
  apiKeyList: apiKeyListSchema,
  apiKeyCreated: apiKeyCreatedSchema,
  /** "My folders" (./account-folders.ts). */
  accountFolders: object({
    folders: {
      type: 'array',
      items: object({
        folderId: str,
        title: str,
        mode,
        createdAt: int,
        expiresAt: intOrNull,
        deleteAfter: int,
        fileCount: int,
        totalSize: int,
        downloads: int,
        maxDownloads: intOrNull,
        state: { type: 'string', enum: ['empty', 'uploading', 'ready', 'taken-down'] },
        lastActivity: {
          anyOf: [
            { type: 'null' },
            object({ at: int, kind: { type: 'string', enum: ['upload', 'download', 'delete'] } }),
          ],
        },
        folderUrl: str,
        password: bool,
      }),
    },
    nextCursor: strOrNull,
  }),
} as const;

/** Every JSON answer a client reads, by name. */
export const answerSchemas = {
  // v2 (spec section 2): the contract's own schemas.
  v2CreateEmpty: tolerant(createResponseEmptySchema),
  v2CreateDirect: tolerant(createResponseDirectSchema),
  v2UploadStatus: tolerant(uploadStatusResponseSchema),
  // The site's endpoints (./site.ts), as a client reads them.
  ...tolerant(siteAnswerSchemas),
  // The admin console's (./admin.ts).
  ...tolerant(adminAnswerSchemas),
} as const;

export type AnswerName = keyof typeof answerSchemas;

/** The type a client reads each answer as, once its schema has passed. */
export interface Answers {
  v2CreateEmpty: CreateResponseEmpty;
  v2CreateDirect: CreateResponseDirect;
  v2UploadStatus: UploadStatusResponse;
  siteCreateFolder: SiteCreateFolderResponse;
  folderInfo: FolderInfo;
  register: SiteRegisterResponse;
  registeredFile: SiteRegisteredFile;
  fileList: SiteFileList;
  siteFile: SiteFile;
  fileProgress: FileProgress;
  notifications: SiteNotifications;
  activity: SiteActivity;
  downloadTicket: DownloadTicket;
  chunkLocation: { readonly url: string };
  takeDown: TakeDownInfo;
  adminFolderList: AdminFolderList;
  adminFolder: AdminFolderDetail;
  adminStats: AdminStats;
  accountFolders: AccountFolderList;
  accountView: AccountView;
  apiKeyList: { readonly keys: readonly ApiKeyView[] };
  apiKeyCreated: ApiKeyCreated;
}

/** The answers the page and its service worker read (their validators are built into the bundle). */
export const PAGE_ANSWERS = [
  'siteCreateFolder',
  'folderInfo',
  'register',
  'registeredFile',
  'fileList',
  'siteFile',
  'fileProgress',
  'notifications',
  'activity',
  'downloadTicket',
  'chunkLocation',
  'takeDown',
  'adminFolderList',
  'adminFolder',
  'adminStats',
  'accountFolders',
  'accountView',
  'apiKeyList',
  'apiKeyCreated',
] as const satisfies readonly AnswerName[];
