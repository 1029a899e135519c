import type { FromSchema } from 'json-schema-to-ts';
import type {
  createRequestSchema,
  createResponseDirectSchema,
  createResponseEmptySchema,
  fileEntrySchema,
  registeredFileSchema,
  uploadStatusResponseSchema,
  uploadUrlsSchema,
} from './schemas.js';

/** TypeScript types of the contract, derived from the schemas (never written by hand). */
export type CreateRequest = FromSchema<typeof createRequestSchema, { keepDefaultedPropertiesOptional: true }>;
export type FileEntry = FromSchema<typeof fileEntrySchema>;
export type UploadUrls = FromSchema<typeof uploadUrlsSchema>;
export type RegisteredFile = FromSchema<typeof registeredFileSchema>;
export type CreateResponseEmpty = FromSchema<typeof createResponseEmptySchema>;
export type CreateResponseDirect = FromSchema<typeof createResponseDirectSchema>;
export type CreateResponse = CreateResponseEmpty | CreateResponseDirect;
export type UploadStatusResponse = FromSchema<typeof uploadStatusResponseSchema>;
