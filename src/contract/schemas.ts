import {
  MAX_FILE_SIZE,
  MAX_FILES_PER_REQUEST,
  MAX_TITLE_LENGTH,
  UPLOAD_REQUIRED_WITHIN_HOURS,
} from '../domain/limits.js';
import { MODES } from '../domain/modes.js';
import { CONTRACT_ERROR_STATUSES, ERROR_CODE_NAMES, ERROR_CODES } from './errors.js';

/**
 * The v2 contract as data: one JSON Schema (draft 2020-12 compatible subset) per object of
 * shared/spec/folder-service-v2.md section 2. Request validation, response serialisation, the
 * published /schemas/*.json documents, the OpenAPI document and the TypeScript types (types.ts) are
 * all derived from these objects, so they cannot drift apart.
 *
 * The objects carry no `$id`: Ajv and Fastify register ids globally, and these objects nest. The
 * published documents get an absolute `$id` from the configured base URL (see published.ts).
 */

export const modeSchema = {
  type: 'string',
  enum: MODES,
  description:
    'send: owner uploads, others download (default). share: everyone uploads and downloads. request: visitors upload, owner reads.',
} as const;

export const encryptionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    keyStrategy: {
      type: 'string',
      enum: ['server_generated'],
      description:
        'For empty folders the service generates the secret key included in the fragment of the returned folderUrl.',
    },
    ske: {
      type: 'string',
      minLength: 1,
      description:
        'Encrypted share key: the folder secret encrypted under itself (a key check), an RFC 8188 message in standard base64 with padding. Required when files[] is non-empty.',
    },
  },
} as const;

export const fileEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['filename', 'filesize'],
  properties: {
    filename: { type: 'string', minLength: 1, description: 'Encrypted filename or a client-selected filename value.' },
    filesize: {
      type: 'integer',
      exclusiveMinimum: 0,
      maximum: MAX_FILE_SIZE,
      description: 'Plaintext size in bytes.',
    },
    mimetype: { type: 'string' },
  },
} as const;

export const createRequestSchema = {
  title: 'V2FolderCreateRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    title: {
      type: ['string', 'null'],
      maxLength: MAX_TITLE_LENGTH,
      description: 'Folder title; a date-based title is used when omitted or null.',
    },
    mode: { ...modeSchema, default: 'send' },
    encryption: encryptionSchema,
    files: {
      type: 'array',
      maxItems: MAX_FILES_PER_REQUEST,
      items: fileEntrySchema,
      description:
        'Omit or [] for the empty-folder flow; non-empty for the direct API upload flow (then encryption.ske is required).',
    },
  },
  // Spec 4.1 rule 2, in the schema itself: non-empty files[] requires encryption.ske. The closed
  // shape is the outer schema's; these only add a condition, and say so (`additionalProperties:
  // true`) for tools that take an object schema without it as closed (Redocly's example check).
  if: {
    required: ['files'],
    additionalProperties: true,
    properties: { files: { type: 'array', minItems: 1, items: {} } },
  },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then; an object, so never a thenable
  then: {
    required: ['encryption'],
    additionalProperties: true,
    properties: {
      encryption: {
        type: 'object',
        additionalProperties: true,
        required: ['ske'],
        properties: { ske: { type: 'string' } },
        errorMessage: { required: 'is required when files are given' },
      },
    },
    errorMessage: { required: 'is required when files are given' },
  },
} as const;

/**
 * How a client makes chunk n's upload URL from an upload-URLs object (file.kiwi's rule, which its
 * clients follow): the one statement of it, in the schema's description and the discovery documents.
 */
export const CHUNK_URL_RULE =
  'Chunk n (1-based) is uploaded with `PUT head + path + "/" + NNNNN + "?" + tail + "&X-Amz-Signature=" + signatures[n-1]`, where NNNNN is n zero-padded to five digits, sending every header in `headers` plus `Content-Length`.';

export const uploadUrlsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['head', 'tail', 'path', 'signatures', 'headers'],
  description: CHUNK_URL_RULE,
  properties: {
    head: { type: 'string' },
    tail: { type: 'string' },
    path: { type: 'string' },
    signatures: { type: 'array', items: { type: 'string' } },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

export const registeredFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['filename', 'fileId', 'chunkSize', 'chunks', 'freeDownloadHours', 'uploadUrls'],
  properties: {
    filename: { type: 'string' },
    fileId: { type: 'string' },
    chunkSize: { type: 'integer', description: 'Plaintext bytes per chunk (the last chunk may be shorter).' },
    chunks: { type: 'integer' },
    freeDownloadHours: { type: 'number' },
    uploadUrls: uploadUrlsSchema,
  },
} as const;

export const createResponseEmptySchema = {
  title: 'Empty-folder variant',
  type: 'object',
  additionalProperties: false,
  required: ['folderId', 'folderUrl', 'folderUrlBase', 'mode', 'uploadRequiredWithinHours', 'files'],
  properties: {
    folderId: { type: 'string' },
    folderUrl: {
      type: 'string',
      format: 'uri',
      description: 'Share URL including the secret key in the fragment. Give it to the person in full.',
    },
    folderUrlBase: { type: 'string', format: 'uri', description: 'folderUrl without the fragment.' },
    mode: modeSchema,
    uploadRequiredWithinHours: { type: 'number', const: UPLOAD_REQUIRED_WITHIN_HOURS },
    files: { type: 'array', maxItems: 0, items: {} },
  },
} as const;

export const createResponseDirectSchema = {
  title: 'Direct-API-upload variant',
  type: 'object',
  additionalProperties: false,
  required: ['folderId', 'folderUrl', 'mode', 'uploadAuth', 'files'],
  properties: {
    folderId: { type: 'string' },
    folderUrl: {
      type: 'string',
      format: 'uri',
      description: 'Share URL without a secret: the client appends "#" + its own folder secret.',
    },
    mode: modeSchema,
    uploadAuth: { type: 'string', description: 'Token for the uploadAuth query parameter of upload-status.' },
    files: { type: 'array', items: registeredFileSchema },
  },
} as const;

export const createResponseSchema = {
  title: 'V2FolderCreateResponse',
  oneOf: [createResponseEmptySchema, createResponseDirectSchema],
} as const;

export const uploadStatusResponseSchema = {
  title: 'V2UploadStatusResponse',
  type: 'object',
  additionalProperties: false,
  required: ['complete', 'missing'],
  properties: {
    complete: { type: 'boolean' },
    missing: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      description: 'Missing chunk numbers, one-based, ascending.',
    },
  },
} as const;

export const errorResponseSchema = {
  title: 'ErrorResponse',
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'What is wrong, for people; the wording may change.' },
    code: {
      type: 'string',
      enum: ERROR_CODE_NAMES,
      description: `Stable error code, for programs: branch on this, never on \`error\`. The status after each code is what the service's other endpoints answer with it; the two v2 operations (create and upload-status) answer only ${CONTRACT_ERROR_STATUSES.join(', ')}, so there a refusal of another 4xx status (for example \`unsupported_media_type\` or \`payload_too_large\`) is a 400 and a fault of another 5xx a 500, with the same code. ${ERROR_CODE_NAMES.map((c) => `\`${c}\` (${ERROR_CODES[c].status}): ${ERROR_CODES[c].description}`).join(' ')}`,
    },
  },
} as const;

/** The documents published under /schemas/, by file name. */
export const publishedSchemas = {
  'v2-folder-create-request.json': createRequestSchema,
  'v2-folder-create-response.json': createResponseSchema,
  'v2-upload-status-response.json': uploadStatusResponseSchema,
} as const;
