import {
  type CallToolResult,
  fromJsonSchema,
  McpServer,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import type { Services } from '../app/services.js';
import { type AgentFolderResult, agentFolderResultSchema } from '../contract/agents.js';
import type { ErrorBody, ErrorCode } from '../contract/errors.js';
import { agentFolderRequestSchema } from '../contract/requests.js';
import { publishable } from '../contract/validation.js';
import { MCP_PROTOCOL_VERSIONS, MCP_SERVER_CAPABILITIES, type McpToolDefinition } from '../discovery/mcp-card.js';
import { OPENAPI_VERSION, SERVICE_NAME } from '../discovery/surfaces.js';
import { MAX_TITLE_LENGTH, UPLOAD_REQUIRED_WITHIN_HOURS } from '../domain/limits.js';
import { currentCreateGate } from './create-gate.js';
import {
  checkAgentRequest,
  createFolderForAgent,
  HANDOFF_STEPS,
  handoffText,
  isAppError,
  MODE_GUIDANCE,
  usageGuide,
} from './folder-intent.js';

/**
 * The MCP server: two tools over the empty-folder flow (spec 4.3). A fresh instance is built per
 * HTTP request by the SDK's stateless handler (src/http/routes/mcp.ts); it holds no state.
 */

/**
 * The tool's arguments: the contract's agent request schema (src/contract/requests.ts), published
 * with descriptions for the model. The SDK takes it as a Standard Schema whose JSON form is that
 * schema; its `validate` lets any object through, because the arguments are checked in the tool
 * itself by the one validation layer (checkAgentRequest), so that a refusal is a tool result with
 * `{error, code}` and the agent-specific reasons, not a bare protocol error.
 */
const createInputSchema = publishable({
  ...agentFolderRequestSchema,
  properties: {
    title: {
      ...agentFolderRequestSchema.properties.title,
      description: `Folder title shown to people who open the link (at most ${MAX_TITLE_LENGTH} characters). Defaults to a date-based title.`,
    },
    mode: { ...agentFolderRequestSchema.properties.mode, description: MODE_GUIDANCE },
  },
});

const createInput: StandardSchemaWithJSON<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'webfolder',
    validate: (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'arguments must be a JSON object' }] },
    jsonSchema: { input: () => ({ ...createInputSchema }), output: () => ({ ...createInputSchema }) },
  },
};

/**
 * The tool's structured answer: the contract's schema, checked by the SDK's own JSON Schema
 * validator, and published (tools/list, the server card) with its dialect named, MCP's default
 * 2020-12, as zod published it before: without it, the 2025-06-18 SDK's client checked a tool
 * error's `{error, code}` against the schema and refused it (seen in test/agents/mcp.test.ts).
 */
const createOutputSchema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...agentFolderResultSchema };
const createOutput = fromJsonSchema<AgentFolderResult>(createOutputSchema);

/**
 * Annotations, stated truthfully: creating a folder writes state (not read-only), never changes or
 * deletes anything that exists (not destructive), and every call makes a new folder (not
 * idempotent). openWorld is false: the tool acts only on this service's own store and reaches no
 * outside system. The guide is a constant text.
 */
const CREATE_ANNOTATIONS: ToolAnnotations = {
  title: 'Create a share folder',
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const GUIDE_ANNOTATIONS: ToolAnnotations = {
  title: 'How to use webfolder',
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const CREATE_DESCRIPTION =
  'Create an empty end-to-end-encrypted share folder and get its link. A person then opens the link in a ' +
  `browser and uploads files within ${UPLOAD_REQUIRED_WITHIN_HOURS} hours; afterwards the same link is shared with recipients. ` +
  'Return the full folderUrl (including the part after "#") to the person. ' +
  MODE_GUIDANCE;

const GUIDE_DESCRIPTION = 'Explain how to use the folders created by create_share_folder and which mode to choose.';

/** Tool metadata as listed by tools/list, for the MCP server card (src/discovery/mcp-card.ts). */
export function toolDefinitions(): McpToolDefinition[] {
  return [
    {
      name: 'create_share_folder',
      title: CREATE_ANNOTATIONS.title,
      description: CREATE_DESCRIPTION,
      inputSchema: { ...createInputSchema },
      outputSchema: { ...createOutputSchema },
      annotations: CREATE_ANNOTATIONS,
    },
    {
      name: 'get_usage_guide',
      title: GUIDE_ANNOTATIONS.title,
      description: GUIDE_DESCRIPTION,
      inputSchema: { type: 'object', properties: {} },
      annotations: GUIDE_ANNOTATIONS,
    },
  ];
}

export const MCP_INSTRUCTIONS = `${SERVICE_NAME} gives people a folder to upload files into. Call create_share_folder, then give the person the full folderUrl. ${HANDOFF_STEPS}`;

export function buildMcpServer(services: Services, onInternalError: (error: unknown) => void): McpServer {
  const server = new McpServer(
    { name: SERVICE_NAME, title: 'webfolder', version: OPENAPI_VERSION },
    {
      instructions: MCP_INSTRUCTIONS,
      // From the card's data, so that initialize and the server card say the same.
      capabilities: MCP_SERVER_CAPABILITIES,
      supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
    },
  );

  server.registerTool(
    'create_share_folder',
    {
      title: CREATE_ANNOTATIONS.title,
      description: CREATE_DESCRIPTION,
      inputSchema: createInput,
      outputSchema: createOutput,
      annotations: CREATE_ANNOTATIONS,
    },
    async (args): Promise<CallToolResult> => {
      try {
        const intent = checkAgentRequest(args);
        await currentCreateGate.getStore()?.();
        const folder = await createFolderForAgent(services, intent);
        const output: AgentFolderResult = {
          folderUrl: folder.folderUrl,
          folderUrlBase: folder.folderUrlBase,
          folderId: folder.folderId,
          mode: folder.mode as AgentFolderResult['mode'],
          uploadRequiredWithinHours: folder.uploadRequiredWithinHours,
          instructions: HANDOFF_STEPS,
        };
        return { content: [{ type: 'text', text: handoffText(folder) }], structuredContent: output };
      } catch (error) {
        return toolError(error, onInternalError);
      }
    },
  );

  server.registerTool(
    'get_usage_guide',
    { title: GUIDE_ANNOTATIONS.title, description: GUIDE_DESCRIPTION, annotations: GUIDE_ANNOTATIONS },
    async () => ({
      content: [{ type: 'text', text: usageGuide() }],
    }),
  );

  return server;
}

/**
 * A refused or failed call is a tool error the model can read, with `{error, code}` as its structured
 * content (the stable codes of src/contract/errors.ts); our own faults say no more than that.
 */
function toolError(error: unknown, onInternalError: (error: unknown) => void): CallToolResult {
  if (isAppError(error)) return errorResult(error.message, error.code);
  onInternalError(error);
  return errorResult('internal error: the folder could not be created, try again later', 'internal_error');
}

function errorResult(message: string, code: ErrorCode): CallToolResult {
  const body: ErrorBody = { error: message, code };
  return { isError: true, content: [{ type: 'text', text: message }], structuredContent: { ...body } };
}
