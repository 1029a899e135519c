import type { FromSchema } from 'json-schema-to-ts';
import type { AccountView, ApiKeyCreated, apiKeyListSchema } from './account.js';
import type { AccountFolderList } from './account-folders.js';
import {
  type AdminFolderDetail,
  type AdminFolderList,
  type AdminStats,
  adminAnswerSchemas,
  type TakeDownInfo,
} from './admin.js';
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
import { siteAnswerSchemas } from './site-answers.js';
import type { CreateResponseDirect, CreateResponseEmpty, UploadStatusResponse } from './types.js';

/**
 * What every client (the library, the CLI, the page and its service worker) accepts as a server's
 * JSON answer, one JSON Schema per answer: the v2 answers are the contract's own schemas
 * (./schemas.ts), the site's are ./site-answers.ts, the console's ./admin.ts. The outbound-request
 * layer (src/transfer/outbound.ts) checks every answer against its schema before any field is read,
 * so a foreign or broken answer (a proxy's `{}`, another service at the address) is a clear error
 * naming the call, never an `undefined` link or a crash further on. A client lets further
 * properties through (a newer server may add fields an older client ignores).
 */
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

/**
 * The type a client reads each answer as, once its schema has passed: each is its schema's own
 * (FromSchema, in ./site.ts, ./admin.ts, ./account.ts, ./account-folders.ts and ./types.ts), named
 * here one by one so that the type-checker derives each once rather than for every generic call.
 */
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
  chunkLocation: FromSchema<typeof siteAnswerSchemas.chunkLocation>;
  takeDown: TakeDownInfo;
  adminFolderList: AdminFolderList;
  adminFolder: AdminFolderDetail;
  adminStats: AdminStats;
  accountFolders: AccountFolderList;
  accountView: AccountView;
  apiKeyList: FromSchema<typeof apiKeyListSchema>;
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
