import type { FromSchema } from 'json-schema-to-ts';
import { MAX_FILES_PER_REQUEST, MAX_TITLE_LENGTH } from '../domain/limits.js';
import { encryptionSchema, fileEntrySchema, uploadUrlsSchema } from './schemas.js';

/**
 * file.kiwi's v1 API as data: only the two operations its official Node SDK, CLI and MCP server
 * call (`POST /v1/delivery-webfolder`, `GET /v1/upload/check/{fid}`). They are thin translations
 * onto the v2 use cases (src/app/v1.ts), so every field that v1 shares with v2 reuses the v2
 * schema object: a file entry, the upload URLs and `ske` are the same values under v1 names.
 */

export const v1CreateRequestSchema = {
  title: 'V1DeliveryWebfolderRequest',
  type: 'object',
  additionalProperties: false,
  required: ['title', 'ske', 'files'],
  properties: {
    title: { type: 'string', maxLength: MAX_TITLE_LENGTH },
    ske: encryptionSchema.properties.ske,
    files: { type: 'array', maxItems: MAX_FILES_PER_REQUEST, items: fileEntrySchema },
  },
} as const;

export const v1RegisteredFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['filename', 'fid', 'chunkSize', 'chunks', 'freeDownloadHours', 'uploadUrls'],
  properties: {
    filename: { type: 'string' },
    fid: { type: 'string' },
    chunkSize: { type: 'integer' },
    chunks: { type: 'integer' },
    freeDownloadHours: { type: 'number' },
    uploadUrls: uploadUrlsSchema,
  },
} as const;

export const v1CreateResponseSchema = {
  title: 'V1DeliveryWebfolderResponse',
  type: 'object',
  additionalProperties: false,
  required: ['webfolderId', 'webfolderUrl', 'apiAuth', 'retentionHours', 'files'],
  properties: {
    webfolderId: { type: 'string' },
    webfolderUrl: { type: 'string', format: 'uri' },
    apiAuth: { type: 'string' },
    retentionHours: { type: 'number' },
    files: { type: 'array', items: v1RegisteredFileSchema },
  },
} as const;

export type V1CreateRequest = FromSchema<typeof v1CreateRequestSchema>;
export type V1CreateResponse = FromSchema<typeof v1CreateResponseSchema>;
