import type { Config } from '../config/config.js';
import { OPENAPI_VERSION, SERVICE_NAME, surfaceUrl } from './surfaces.js';

/**
 * The MCP server card (SEP-2127 draft; /.well-known/mcp.json is the older SEP-1649 path the spec
 * names, /mcp/server-card the newer one: the same document at both), built from plain data: this
 * module imports no SDK. The protocol revisions and the capabilities below are the one source for
 * both the card and what the MCP server itself declares (src/agents/mcp.ts passes them to the SDK),
 * and the tools are handed in from the definitions the server registers, so the card cannot say
 * anything `initialize` and `tools/list` do not.
 */
export const MCP_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/**
 * Protocol revisions served at /mcp (spec 9): 2026-07-28 natively, the published 2025 and 2024
 * revisions through `initialize`. An `initialize` that proposes any other revision is answered with
 * the newest of these (the MCP rule for an unsupported version); the client then continues or
 * disconnects. The SDK must implement each (test/agents/discovery.test.ts checks every one).
 */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** The tool list is fixed for the life of the process, so no list-changed notifications. */
export const MCP_SERVER_CAPABILITIES = { tools: { listChanged: false } } as const;

/** A tool as `tools/list` lists it: plain JSON, whatever library produced the schemas. */
export interface McpToolDefinition {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description: string;
  readonly inputSchema: object;
  readonly outputSchema?: object | undefined;
  readonly annotations?: object | undefined;
}

/** Reverse-DNS name with one "/" (SEP-2127): the public host reversed, e.g. com.example.files/webfolder. */
export function cardName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const isDomain = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host) && !/^\d+(\.\d+){3}$/.test(host);
  const namespace = isDomain ? host.toLowerCase().split('.').reverse().join('.') : 'local.webfolder';
  return `${namespace}/${SERVICE_NAME}`;
}

export function mcpServerCard(config: Config, tools: readonly McpToolDefinition[]) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: cardName(config.baseUrl),
    version: OPENAPI_VERSION,
    // At most 100 characters.
    description: 'Creates end-to-end-encrypted share folders that a person uploads files into in a browser.',
    title: 'webfolder',
    websiteUrl: config.docsUrl,
    remotes: [
      {
        type: 'streamable-http',
        url: surfaceUrl(config.baseUrl, 'mcp'),
        supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      },
    ],
    capabilities: MCP_SERVER_CAPABILITIES,
    tools,
  };
}
