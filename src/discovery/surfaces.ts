import type { publishedSchemas } from '../contract/schemas.js';

export type PublishedSchemaName = keyof typeof publishedSchemas;

/** Where a contract schema is published. */
export const schemaPath = (name: PublishedSchemaName) => `/schemas/${name}` as const;

/**
 * Every discovery and agent surface of spec 4.3, by key. The service index, llms.txt, the OpenAPI
 * document, the docs site and the routes that serve them all read this list, so an address is
 * written down once; a published schema's surface names the schema it serves.
 */
export const SURFACES = {
  openapi: { paths: ['/openapi.json', '/.well-known/openapi.json'], title: 'OpenAPI 3.1 description' },
  llms: { paths: ['/llms.txt', '/.well-known/llms.txt'], title: 'Plain-text guide for language models' },
  mcp: { paths: ['/mcp'], title: 'MCP Streamable HTTP endpoint' },
  mcpCard: { paths: ['/.well-known/mcp.json', '/mcp/server-card'], title: 'MCP server card' },
  agentCard: { paths: ['/.well-known/agent-card.json'], title: 'A2A agent card' },
  a2a: { paths: ['/a2a'], title: 'A2A JSON-RPC endpoint' },
  aiPlugin: { paths: ['/.well-known/ai-plugin.json'], title: 'AI plugin manifest' },
  createRequestSchema: {
    paths: [schemaPath('v2-folder-create-request.json')],
    title: 'JSON schema of the create request',
    schema: 'v2-folder-create-request.json',
  },
  createResponseSchema: {
    paths: [schemaPath('v2-folder-create-response.json')],
    title: 'JSON schema of the create response',
    schema: 'v2-folder-create-response.json',
  },
  uploadStatusSchema: {
    paths: [schemaPath('v2-upload-status-response.json')],
    title: 'JSON schema of the upload status response',
    schema: 'v2-upload-status-response.json',
  },
} as const;

export type SurfaceKey = keyof typeof SURFACES;

/**
 * The two operations of the v2 API (spec 4.1, 4.2): their id, method, path and what they do, as the
 * OpenAPI document, the service index and llms.txt say it.
 */
export const OPERATIONS = {
  createV2Folder: {
    method: 'POST',
    path: '/v2/folders',
    summary: 'Create a share folder (empty-folder or direct API upload flow)',
    description:
      'Without files (or with []), creates an empty folder for a person to fill in the browser. With files, registers them and returns presigned chunk upload URLs.',
  },
  getV2UploadStatus: {
    method: 'GET',
    path: '/v2/folders/{folderId}/files/{fileId}/upload-status',
    summary: 'Check which chunks of a directly uploaded file are missing',
    description:
      'Reports which chunks of a file registered through the direct API upload flow are missing. Not for the empty-folder flow.',
  },
} as const;

export type OperationId = keyof typeof OPERATIONS;

export const SERVICE_NAME = 'webfolder';
export const API_VERSION = 'v2';
export const OPENAPI_VERSION = '2.0.0';

/** Absolute address of a surface's primary path. */
export function surfaceUrl(baseUrl: string, key: SurfaceKey, index = 0): string {
  return `${baseUrl}${SURFACES[key].paths[index] ?? SURFACES[key].paths[0]}`;
}
