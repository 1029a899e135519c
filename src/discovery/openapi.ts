import type { Config } from '../config/config.js';
import type { ErrorCode } from '../contract/errors.js';
import {
  CHUNK_URL_RULE,
  createRequestSchema,
  createResponseDirectSchema,
  createResponseEmptySchema,
  errorResponseSchema,
  fileEntrySchema,
  registeredFileSchema,
  uploadStatusResponseSchema,
  uploadUrlsSchema,
} from '../contract/schemas.js';
import { publishable } from '../contract/validation.js';
import { MAX_CHUNKS_PER_FILE } from '../domain/chunk-plan.js';
import { UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { folderPagePath } from '../domain/links.js';
import { OPENAPI_VERSION, OPERATIONS, type OperationId, surfaceUrl } from './surfaces.js';

/**
 * The OpenAPI 3.1 document, assembled from the contract schemas (OpenAPI 3.1 schemas are JSON
 * Schema), so it cannot disagree with what the server validates and serialises.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** Error responses of an operation; `examples` gives its own `error` text where the shared one does not fit. */
const errorResponses = (statuses: readonly number[], examples: Readonly<Record<number, string>> = {}) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      {
        description: ERROR_DESCRIPTIONS[s],
        ...(s === 429 ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
        content: {
          'application/json': {
            schema: ref('ErrorResponse'),
            example: { error: examples[s] ?? ERROR_EXAMPLES[s]!.error, code: ERROR_EXAMPLES[s]!.code },
          },
        },
      },
    ]),
  );

/** The header every 429 carries: when the client may try again. */
const RETRY_AFTER = {
  description: 'Seconds until the client address may try again.',
  required: true,
  schema: { type: 'integer', minimum: 0 },
} as const;

/** The one tag: every operation is about share folders (linters and generated clients group by tag). */
const FOLDERS_TAG = 'folders';

/** An operation's id, tag, summary and description, as src/discovery/surfaces.ts states them. */
const operation = (operationId: OperationId) => ({
  operationId,
  tags: [FOLDERS_TAG],
  summary: OPERATIONS[operationId].summary,
  description: OPERATIONS[operationId].description,
});

/**
 * The direct-upload example of a 25 MiB file (3 chunks of 10 MiB), as the local backend answers it;
 * encrypted names and `ske` are standard base64 (docs/encryption.md).
 */
const directExample = (config: Config) => {
  const folderId = 'uRAZ9i40fdhSez8R';
  const fileId = '5ieh4p21POVlHPRB';
  const name = '<encrypted name: an RFC 8188 message, standard base64>';
  return {
    request: {
      mode: 'send',
      encryption: { ske: '<the folder secret encrypted under itself: an RFC 8188 message, standard base64>' },
      files: [{ filename: name, filesize: 26214400, mimetype: 'application/pdf' }],
    },
    response: {
      folderId,
      folderUrl: `${config.webUrl}${folderPagePath(folderId)}`,
      mode: 'send',
      uploadAuth: '6PpgzyHLDqYTiiubW4pJbPJp45_Og4xIWnGkZGBYAlo',
      files: [
        {
          filename: name,
          fileId,
          chunkSize: 10485760,
          chunks: 3,
          freeDownloadHours: config.freeDownloadHours,
          uploadUrls: {
            head: `${config.baseUrl}/v2/uploads/`,
            path: `${folderId}/${fileId}`,
            tail: 'X-Amz-Algorithm=WEBFOLDER-AES256-PRF&X-Amz-Credential=f73250f50a7a%2F20261121%2Fwebfolder&X-Amz-Date=20261121T201645Z&X-Amz-Expires=259199',
            signatures: [
              'f362be51f99dd82db3a9d470acd2259a55d673b30b8bbdabac57d20d829bde1f',
              '70face9af5165000887f4b2895bc9bf09504b321c6b568eafef8fe971be77848',
              '335715ec98529f32b9aafb16cae0a2cbc3189d69be6053f387838b56120409ff',
            ],
            headers: { 'Content-Type': 'application/octet-stream' },
          },
        },
      ],
    },
  };
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is malformed; `error` names the field or rule at fault.',
  404: 'Unknown folder or file, an expired file, or a wrong uploadAuth.',
  429: 'Too many requests from this client address; retry after the `Retry-After` header (seconds).',
  500: 'A fault of the service.',
};
const ERROR_EXAMPLES: Record<number, { readonly error: string; readonly code: ErrorCode }> = {
  400: { error: 'files[2].filesize must be greater than 0', code: 'invalid_request' },
  404: { error: 'file not found', code: 'not_found' },
  429: { error: 'too many requests: retry in 42 seconds', code: 'rate_limited' },
  500: { error: 'internal error', code: 'internal_error' },
};

export const CHUNK_UPLOAD_RULE = `${CHUNK_URL_RULE}
\`signatures.length\` equals \`chunks\`. The body of chunk n is plaintext bytes
\`[(n-1)*chunkSize, min(n*chunkSize, filesize))\` encrypted as one RFC 8188 aes128gcm message with
record size 65536, so its length is exactly \`21 + p + 17*ceil(p/65519)\` for \`p\` plaintext bytes.
Chunks may be sent in any order and in parallel; a file is complete once every chunk is stored, which
upload-status reports. There is no separate completion call.`;

export function openApiDocument(config: Config) {
  const direct = directExample(config);
  return {
    openapi: '3.1.0',
    info: {
      title: 'webfolder API',
      version: OPENAPI_VERSION,
      summary: 'End-to-end-encrypted share folders for people and agents.',
      description: `Create share folders.

**Empty-folder flow** (for agents): \`POST /v2/folders\` without \`files\`. Give the full \`folderUrl\`
(with its \`#\` fragment, which holds the encryption key) to the person. They open it in a browser and
upload at least one file within ${UPLOAD_REQUIRED_WITHIN_HOURS} hours; the first uploader becomes the
owner; then the same link is shared with recipients. Use mode \`send\` for one person sending to others,
\`share\` for collaborators; do not choose \`request\` in this flow.

**Direct API upload flow** (for programs): \`POST /v2/folders\` with up to 10 \`files\` and
\`encryption.ske\`; upload each chunk to its presigned URL, then check \`upload-status\`.

${CHUNK_UPLOAD_RULE}

Files have at most ${MAX_CHUNKS_PER_FILE} chunks; chunkSize is a whole number of MiB (10 MiB by default,
larger only for very large files). Encryption format: ${config.docsUrl}/encryption.`,
      contact: {
        name: 'webfolder operator',
        ...(config.contactEmail ? { email: config.contactEmail } : {}),
        url: config.docsUrl,
      },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    externalDocs: { url: config.docsUrl, description: 'webfolder documentation' },
    servers: [{ url: config.baseUrl }],
    // No operation takes credentials: the uploadAuth token is a query parameter of one operation.
    security: [],
    tags: [
      {
        name: FOLDERS_TAG,
        description: 'Create share folders (empty-folder and direct-upload flows) and check direct uploads.',
      },
    ],
    paths: {
      [OPERATIONS.createV2Folder.path]: {
        post: {
          ...operation('createV2Folder'),
          requestBody: {
            required: false,
            content: {
              'application/json': {
                schema: ref('V2FolderCreateRequest'),
                examples: {
                  emptyFolder: {
                    summary: 'Empty folder for a person to upload into',
                    value: { title: 'Holiday photos', mode: 'send' },
                  },
                  directUpload: { summary: 'Direct API upload of one file', value: direct.request },
                },
              },
            },
          },
          responses: {
            '200': {
              description:
                'The created folder: the empty-folder variant when no files were given, else the direct-API-upload variant.',
              content: {
                'application/json': {
                  schema: ref('V2FolderCreateResponse'),
                  examples: {
                    emptyFolder: {
                      summary: 'Empty folder',
                      value: {
                        folderId: 'q1w2e3r4t5y6u7i8',
                        folderUrl: `${config.webUrl}/f/q1w2e3r4t5y6u7i8#hBpPDCeFGgmzeR5J3sZQ2w`,
                        folderUrlBase: `${config.webUrl}/f/q1w2e3r4t5y6u7i8`,
                        mode: 'send',
                        uploadRequiredWithinHours: UPLOAD_REQUIRED_WITHIN_HOURS,
                        files: [],
                      },
                    },
                    directUpload: { summary: 'Direct API upload of one 25 MiB file', value: direct.response },
                  },
                },
              },
            },
            ...errorResponses([400, 429, 500]),
          },
        },
      },
      [OPERATIONS.getV2UploadStatus.path]: {
        get: {
          ...operation('getV2UploadStatus'),
          parameters: [
            { name: 'folderId', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'fileId', in: 'path', required: true, schema: { type: 'string' } },
            {
              name: 'uploadAuth',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'The uploadAuth token returned by folder creation.',
            },
          ],
          responses: {
            '200': {
              description: 'Upload status',
              content: {
                'application/json': {
                  schema: ref('V2UploadStatusResponse'),
                  example: { complete: false, missing: [2, 5] },
                },
              },
            },
            ...errorResponses([400, 404, 429, 500], { 400: 'folderId is malformed' }),
          },
        },
      },
    },
    components: {
      schemas: {
        V2FolderCreateRequest: {
          ...publishable(createRequestSchema),
          properties: {
            ...createRequestSchema.properties,
            encryption: ref('V2FolderEncryption'),
            files: { ...createRequestSchema.properties.files, items: ref('V2FolderFileEntry') },
          },
        },
        V2FolderEncryption: createRequestSchema.properties.encryption,
        V2FolderFileEntry: fileEntrySchema,
        V2FolderCreateResponse: { oneOf: [ref('V2FolderCreateResponseEmpty'), ref('V2FolderCreateResponseDirect')] },
        V2FolderCreateResponseEmpty: createResponseEmptySchema,
        V2FolderCreateResponseDirect: {
          ...createResponseDirectSchema,
          properties: {
            ...createResponseDirectSchema.properties,
            files: { type: 'array', items: ref('V2RegisteredFile') },
          },
        },
        V2RegisteredFile: {
          ...registeredFileSchema,
          properties: { ...registeredFileSchema.properties, uploadUrls: ref('V2UploadUrls') },
        },
        V2UploadUrls: uploadUrlsSchema,
        V2UploadStatusResponse: uploadStatusResponseSchema,
        ErrorResponse: errorResponseSchema,
      },
    },
    'x-agent-surfaces': {
      mcp: surfaceUrl(config.baseUrl, 'mcp'),
      a2a: surfaceUrl(config.baseUrl, 'agentCard'),
      llms: surfaceUrl(config.baseUrl, 'llms'),
    },
  };
}
