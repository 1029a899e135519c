import type { Config } from '../config/config.js';
import { MAX_FILES_PER_REQUEST, MAX_TITLE_LENGTH, UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { A2A_VERSION_HEADER } from './agent-card.js';
import { MCP_PROTOCOL_VERSIONS } from './mcp-card.js';
import { CHUNK_UPLOAD_RULE } from './openapi.js';
import { OPERATIONS, SERVICE_NAME, SURFACES, type SurfaceKey } from './surfaces.js';

/**
 * /llms.txt (llmstxt.org): an H1, a one-line summary in a quote, free text, then H2 sections of
 * links. The surface list comes from SURFACES and the chunk rule from the OpenAPI module, so this
 * text cannot name an address or a rule differently from the documents it points at.
 */
const SURFACE_NOTES: Record<SurfaceKey, string> = {
  openapi: 'the v2 HTTP API (create a folder, check direct-upload status)',
  llms: 'this guide',
  mcp: `MCP Streamable HTTP (protocol ${MCP_PROTOCOL_VERSIONS[0]}, and ${MCP_PROTOCOL_VERSIONS.slice(1).join(', ')} via initialize); tools create_share_folder and get_usage_guide`,
  mcpCard: 'MCP server card',
  agentCard: `A2A agent card (protocol 1.0 with the ${A2A_VERSION_HEADER}: 1.0 header, else 0.3); skill create-empty-webfolder`,
  a2a: 'A2A JSON-RPC endpoint (SendMessage for 1.0, message/send for 0.3)',
  aiPlugin: 'AI plugin manifest pointing at the OpenAPI document',
  createRequestSchema: 'JSON Schema of the POST /v2/folders body',
  createResponseSchema: 'JSON Schema of the POST /v2/folders response',
  uploadStatusSchema: 'JSON Schema of the upload-status response',
};

export function llmsText(config: Config): string {
  const url = (path: string) => `${config.baseUrl}${path}`;
  const create = OPERATIONS.createV2Folder;
  const status = OPERATIONS.getV2UploadStatus;
  const surfaceLinks = (Object.keys(SURFACES) as SurfaceKey[])
    .flatMap((key) =>
      SURFACES[key].paths.map(
        (path, i) => `- [${SURFACES[key].title}${i > 0 ? ` (${path})` : ''}](${url(path)}): ${SURFACE_NOTES[key]}`,
      ),
    )
    .join('\n');
  return `# ${SERVICE_NAME}

> End-to-end-encrypted share folders. An agent creates an empty folder and gives its link to a person, who uploads files into it in a browser; programs can also upload files directly.

No account or API key is needed. The folder's encryption key travels only in the link's fragment (after \`#\`); the server never sees it, so always pass the link on in full.

## Give a person a folder (empty-folder flow)

1. Create the folder: \`${create.method} ${url(create.path)}\` with an optional JSON body \`{"title": "...", "mode": "send"}\` (no \`files\`). The title has at most ${MAX_TITLE_LENGTH} characters. The same is offered as the MCP tool \`create_share_folder\` and the A2A skill \`create-empty-webfolder\`.
2. Give the person the full \`folderUrl\` from the response, including the part after \`#\`.
3. The person opens it in a browser and uploads at least one file within ${UPLOAD_REQUIRED_WITHIN_HOURS} hours (\`uploadRequiredWithinHours\`); otherwise the empty folder is deleted. The first person to upload becomes the folder's owner; opening the link alone does not.
4. Afterwards the person shares the same link with the recipients.

Do not register files or call upload-status for such a folder: uploads happen in the browser.

## Which mode to choose

- \`send\` (default): one person sends large files to others. The owner uploads, others download.
- \`share\`: collaborators exchange files with each other. Everyone with the link can upload and download.
- \`request\`: do not choose it for an empty folder. Because the first browser uploader becomes the owner, a request folder would belong to whoever uploads first.

## Direct upload (for programs that have the files)

1. \`${create.method} ${url(create.path)}\` with up to ${MAX_FILES_PER_REQUEST} \`files\` entries (\`filename\`, \`filesize\`, optional \`mimetype\`) and \`encryption.ske\`. The response gives, per file, \`fileId\`, \`chunkSize\`, \`chunks\` and \`uploadUrls\`, and one \`uploadAuth\` token.
2. Upload every chunk:

${CHUNK_UPLOAD_RULE}

3. Check progress with \`${status.method} ${url(status.path)}?uploadAuth=...\`: \`{"complete": true|false, "missing": [chunk numbers]}\`; re-send the missing chunks.

The encryption format is described at ${config.docsUrl}/encryption.

## Discovery and agent surfaces

${surfaceLinks}

## Optional

- [Documentation](${config.docsUrl}): set-up, API reference, encryption format
- [Agent integration](${config.docsUrl}/agents): MCP and A2A set-up, what each tool returns
- [Service index](${config.baseUrl}/.well-known/webfolder.json): every address above as JSON
`;
}
