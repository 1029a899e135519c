import type { FromSchema } from 'json-schema-to-ts';
import {
  MAX_DOWNLOAD_LIMIT,
  MAX_EMAIL_LENGTH,
  MAX_FILE_SIZE,
  MAX_LIST_PAGE,
  MAX_NOTE_LENGTH,
  MAX_OPAQUE_LENGTH,
  MAX_SITE_FILES_PER_REQUEST,
  MAX_TITLE_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
} from '../domain/limits.js';
import { ID_PATTERN } from '../domain/links.js';
import { MODES } from '../domain/modes.js';
import { MAX_SENDING_FILES } from '../domain/sending.js';
import { upTo } from './schema-parts.js';

/**
 * The path parameters and query strings of every route family, and the bodies that are not part
 * of the v2 contract (the site's register call, the agents' folder request), as JSON Schemas for
 * the one validation layer (./validation.ts). The v2 bodies are in ./schemas.ts, v1's in ./v1.ts.
 *
 * Query strings: a parameter given twice arrives as an array, which is ambiguous, so each known
 * parameter must be one string; parameters a route does not read are ignored, as HTTP caches,
 * proxies and link trackers add their own. Path parameters are exactly the route's.
 */
const id = { type: 'string', pattern: ID_PATTERN.source, errorMessage: 'is malformed' } as const;
const once = { type: 'string', errorMessage: 'must be given once' } as const;
const chunkNumber = { type: 'string', pattern: '^\\d{1,5}$', errorMessage: 'number must be 1 to 5 digits' } as const;

function params<const K extends string, const S extends Record<K, object>>(names: readonly K[], schemas: S) {
  return { type: 'object', additionalProperties: false, required: names, properties: schemas } as const;
}

export const folderParams = params(['folderId'], { folderId: id });
export const fileParams = params(['folderId', 'fileId'], { folderId: id, fileId: id });
export const chunkParams = params(['folderId', 'fileId', 'chunk'], { folderId: id, fileId: id, chunk: chunkNumber });

/** `GET /v2/folders/{folderId}/files/{fileId}/upload-status?uploadAuth=` */
export const uploadStatusQuery = {
  type: 'object',
  properties: { uploadAuth: once },
} as const;

/** file.kiwi v1's `GET /v1/upload/check/{fid}?webfolderId=&apiAuth=` (src/app/v1.ts). */
export const v1CheckParams = params(['fid'], { fid: id });
export const v1CheckQuery = {
  type: 'object',
  required: ['webfolderId'],
  properties: {
    webfolderId: {
      type: 'string',
      pattern: ID_PATTERN.source,
      errorMessage: { type: 'must be given once', pattern: 'is malformed' },
    },
    apiAuth: once,
  },
} as const;

/**
 * A page of the site's file list: `cursor` is the `nextCursor` of the previous page (`p` and the last
 * position), `limit` a whole number from 1 to MAX_LIST_PAGE; empty means absent.
 */
export const siteListQuery = {
  type: 'object',
  properties: {
    cursor: {
      type: 'string',
      pattern: '^(p\\d{1,9})?$',
      errorMessage: { type: 'must be given once', pattern: 'is malformed: pass nextCursor as it was given' },
    },
    limit: {
      type: 'string',
      // 1 to 999, or exactly the maximum.
      pattern: `^(${upTo(MAX_LIST_PAGE)})?$`,
      errorMessage: { type: 'must be given once', pattern: `must be a whole number between 1 and ${MAX_LIST_PAGE}` },
    },
  },
} as const;

/** The signed chunk URL's parameters (src/blobs/local/url-signer.ts). */
export const chunkUploadQuery = {
  type: 'object',
  properties: {
    'X-Amz-Algorithm': once,
    'X-Amz-Credential': once,
    'X-Amz-Date': once,
    'X-Amz-Expires': once,
    'X-Amz-Signature': once,
  },
} as const;

/** Opaque values the browser encrypted or sealed: the server stores them as given. */
const opaque = { type: 'string', minLength: 1, maxLength: MAX_OPAQUE_LENGTH } as const;
const optionalOpaque = { type: ['string', 'null'], minLength: 1, maxLength: MAX_OPAQUE_LENGTH } as const;

/** Most files one site registration may carry (the page sends bigger selections in batches). */
export { MAX_SITE_FILES_PER_REQUEST };

/** `POST <site>/api/site/folders/{folderId}/files` (src/contract/site.ts has its type). */
export const siteRegisterRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['files'],
  properties: {
    files: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_SITE_FILES_PER_REQUEST,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['filename', 'filesize'],
        properties: {
          filename: opaque,
          // The same rule as a v2 file entry (./schemas.ts).
          filesize: { type: 'integer', exclusiveMinimum: 0, maximum: MAX_FILE_SIZE },
          mimetype: optionalOpaque,
          sealedKey: optionalOpaque,
        },
      },
    },
    ske: optionalOpaque,
    ownerPublicKey: optionalOpaque,
  },
} as const;
/** The register body as the schema admits it (nulls included); the app normalises it. */
export type SiteRegisterBody = FromSchema<typeof siteRegisterRequestSchema>;

/**
 * A folder's password parameters (src/contract/site.ts PasswordParams): exactly these fields, N a
 * power of two from 2^14 to 2^20, r 1..16, p 1..4, a 16-byte salt in base64url without padding.
 */
export const passwordParamsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kdf', 'N', 'r', 'p', 'salt'],
  errorMessage: { additionalProperties: 'is not a password parameter (only kdf, N, r, p and salt)' },
  properties: {
    kdf: { type: 'string', enum: ['scrypt'], errorMessage: { enum: 'must be "scrypt"' } },
    N: {
      type: 'integer',
      enum: [16384, 32768, 65536, 131072, 262144, 524288, 1048576],
      errorMessage: 'must be a power of two from 16384 (2^14) to 1048576 (2^20)',
    },
    r: { type: 'integer', minimum: 1, maximum: 16, errorMessage: 'must be a whole number from 1 to 16' },
    p: { type: 'integer', minimum: 1, maximum: 4, errorMessage: 'must be a whole number from 1 to 4' },
    salt: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{22}$',
      errorMessage: 'must be 16 bytes in base64url without padding (22 characters)',
    },
  },
} as const;

const downloadLimit = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_DOWNLOAD_LIMIT,
  errorMessage: `must be a whole number from 1 to ${MAX_DOWNLOAD_LIMIT}`,
} as const;
const optionalDownloadLimit = {
  type: ['integer', 'null'],
  minimum: 1,
  maximum: MAX_DOWNLOAD_LIMIT,
  errorMessage: `must be null or a whole number from 1 to ${MAX_DOWNLOAD_LIMIT}`,
} as const;
const note = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_NOTE_LENGTH,
  errorMessage: `must be the encrypted note, 1 to ${MAX_NOTE_LENGTH} characters`,
} as const;

/**
 * `POST <site>/api/site/folders`: create and claim in one step (src/contract/site.ts has its type).
 * `expiresInHours` is checked against the operator's MAX_EXPIRES_HOURS by the app, which knows it.
 */
export const siteCreateFolderSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['mode', 'ske'],
  errorMessage: { additionalProperties: 'is not an accepted field' },
  properties: {
    mode: { type: 'string', enum: MODES, errorMessage: { enum: 'must be "send", "share" or "request"' } },
    title: { type: 'string', maxLength: MAX_TITLE_LENGTH },
    ske: opaque,
    ownerPublicKey: opaque,
    expiresInHours: { type: 'integer', minimum: 1, errorMessage: 'must be a whole number of hours, at least 1' },
    maxDownloads: downloadLimit,
    note,
    password: passwordParamsSchema,
  },
} as const;

/** `PATCH <site>/api/site/folders/{folderId}`: the owner's folder settings; at least one. */
export const siteFolderUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  errorMessage: {
    additionalProperties: 'is not a folder setting (expiresAt, maxDownloads, note, password)',
    minProperties: 'must change at least one setting',
  },
  properties: {
    expiresAt: { type: 'integer', minimum: 0, errorMessage: 'must be a time in epoch milliseconds' },
    maxDownloads: optionalDownloadLimit,
    note: {
      ...note,
      type: ['string', 'null'],
      errorMessage: `must be null or the encrypted note, 1 to ${MAX_NOTE_LENGTH} characters`,
    },
    password: passwordParamsSchema,
  },
} as const;

/** `PATCH <site>/api/site/folders/{folderId}/files/{fileId}`: the file's own download limit. */
export const siteFileUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['maxDownloads'],
  errorMessage: { additionalProperties: 'is not a file setting (only maxDownloads)' },
  properties: { maxDownloads: optionalDownloadLimit },
} as const;

/** `POST <site>/api/site/folders/{folderId}/sending` (src/contract/site.ts SiteSending). */
export const siteSendingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['fileIds', 'sending'],
  errorMessage: { additionalProperties: 'is not part of a heartbeat (fileIds, sending)' },
  properties: {
    fileIds: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_SENDING_FILES,
      items: id,
      errorMessage: `must be 1 to ${MAX_SENDING_FILES} file ids`,
    },
    sending: { type: 'boolean', errorMessage: 'must be true or false' },
  },
} as const;

/** A site chunk GET may carry its download ticket in the query (the service worker, a redirect). */
export const siteChunkQuery = {
  type: 'object',
  properties: {
    ticket: { type: 'string', maxLength: 200, errorMessage: 'must be given once' },
  },
} as const;

/** The agent flow's modes: a "request" folder is refused there with its own reason. */
export const AGENT_MODES = ['send', 'share'] as const;

/**
 * What an agent may ask for (the MCP tool's arguments, an A2A data part): the empty-folder flow's
 * title and mode, nothing else. The MCP tool publishes this schema as its inputSchema.
 */
export const agentFolderRequestSchema = {
  type: 'object',
  additionalProperties: false,
  errorMessage: { additionalProperties: 'is not an accepted field (only "title" and "mode")' },
  properties: {
    title: { type: ['string', 'null'], maxLength: MAX_TITLE_LENGTH },
    mode: { type: 'string', enum: AGENT_MODES, errorMessage: { enum: 'must be "send" or "share"' } },
  },
} as const;

/**
 * `PUT <site>/api/site/folders/{folderId}/notifications` (src/contract/site.ts SiteNotificationsUpdate):
 * the properties given change, the others stay. `email` is an address in the `email` format (ASCII,
 * as SMTP's envelope needs); `webhookUrl`'s host and scheme are checked by the app, which knows the
 * operator's settings.
 */
export const siteNotificationsUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  errorMessage: {
    additionalProperties: 'is not a notification setting (email, webhookUrl, onDownload, onUpload, language)',
  },
  properties: {
    language: {
      type: 'string',
      maxLength: 35,
      pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$',
      errorMessage: 'must be a language tag such as de or pt-BR',
    },
    email: {
      type: ['string', 'null'],
      maxLength: MAX_EMAIL_LENGTH,
      format: 'email',
      errorMessage: 'must be an e-mail address (or null)',
    },
    webhookUrl: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: MAX_WEBHOOK_URL_LENGTH,
      errorMessage: 'must be a URL (or null)',
    },
    onDownload: { type: 'boolean', errorMessage: 'must be true or false' },
    onUpload: { type: 'boolean', errorMessage: 'must be true or false' },
  },
} as const;

export type AgentFolderRequest = FromSchema<typeof agentFolderRequestSchema>;

/**
 * The query of a mail consent link (`<site>/mail/confirm?address=&expires=&sig=`,
 * `<site>/mail/refuse?address=&sig=`; src/app/mail-consent.ts): what the server put in the mail.
 */
export const mailConsentQuery = {
  type: 'object',
  required: ['address', 'sig'],
  properties: {
    address: {
      type: 'string',
      maxLength: MAX_EMAIL_LENGTH,
      format: 'email',
      errorMessage: 'must be the address the mail was sent to',
    },
    expires: { type: 'string', pattern: '^\\d{1,16}$', errorMessage: 'must be given once, as in the mail' },
    sig: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', errorMessage: 'must be given once, as in the mail' },
  },
} as const;
