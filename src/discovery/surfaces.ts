/**
 * Every discovery and agent surface of spec 4.3, by key. The service index, llms.txt, the OpenAPI
 * document and the docs site all read this list, so an address is written down once.
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
    paths: ['/schemas/v2-folder-create-request.json'],
    title: 'JSON schema of the create request',
  },
  createResponseSchema: {
    paths: ['/schemas/v2-folder-create-response.json'],
    title: 'JSON schema of the create response',
  },
  uploadStatusSchema: {
    paths: ['/schemas/v2-upload-status-response.json'],
    title: 'JSON schema of the upload status response',
  },
} as const;

export type SurfaceKey = keyof typeof SURFACES;

export const OPERATIONS = [
  {
    operationId: 'createV2Folder',
    method: 'POST',
    path: '/v2/folders',
    summary: 'Create a share folder (empty-folder or direct API upload flow)',
  },
  {
    operationId: 'getV2UploadStatus',
    method: 'GET',
    path: '/v2/folders/{folderId}/files/{fileId}/upload-status',
    summary: 'Check which chunks of a directly uploaded file are missing',
  },
] as const;

export const SERVICE_NAME = 'webfolder';
export const API_VERSION = 'v2';
export const OPENAPI_VERSION = '2.0.0';

/** Absolute address of a surface's primary path. */
export function surfaceUrl(baseUrl: string, key: SurfaceKey, index = 0): string {
  return `${baseUrl}${SURFACES[key].paths[index] ?? SURFACES[key].paths[0]}`;
}
