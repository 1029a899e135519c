import { MCP_PROTOCOL_VERSIONS, toolDefinitions } from '../agents/mcp.js';
import type { Config } from '../config/config.js';
import { OPENAPI_VERSION, SERVICE_NAME, surfaceUrl } from './surfaces.js';

/**
 * The MCP server card (SEP-2127 draft; /.well-known/mcp.json is the older SEP-1649 path the spec
 * names, /mcp/server-card the newer one: the same document at both). The tool list is generated
 * from the same definitions the MCP server registers.
 */
export const MCP_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** Reverse-DNS name with one "/" (SEP-2127): the public host reversed, e.g. com.example.files/webfolder. */
export function cardName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const isDomain = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host) && !/^\d+(\.\d+){3}$/.test(host);
  const namespace = isDomain ? host.toLowerCase().split('.').reverse().join('.') : 'local.webfolder';
  return `${namespace}/${SERVICE_NAME}`;
}

export function mcpServerCard(config: Config) {
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
    capabilities: { tools: { listChanged: false } },
    tools: toolDefinitions(),
  };
}
