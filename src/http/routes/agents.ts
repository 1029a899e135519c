import type { FastifyInstance } from 'fastify';
import type { GateFor } from '../../agents/create-gate.js';
import { toolDefinitions } from '../../agents/mcp.js';
import { creatorOf } from '../../app/create-policy.js';
import type { Services } from '../../app/services.js';
import { AI_PLUGIN_LOGO_PATH, AI_PLUGIN_LOGO_SVG, aiPluginManifest } from '../../discovery/ai-plugin.js';
import { llmsText } from '../../discovery/llms.js';
import { MCP_CARD_MEDIA_TYPE, mcpServerCard } from '../../discovery/mcp-card.js';
import { SURFACES } from '../../discovery/surfaces.js';
import { routePolicy } from '../callers/route-policy.js';
import { a2aRoutes } from './a2a.js';
import { mcpRoutes } from './mcp.js';

/**
 * The agent surfaces (spec 4.3): MCP, A2A, and the documents that describe them. MCP and A2A read
 * their bodies in their own ways, so each is its own encapsulated plugin; the documents are
 * constants built once at start (they depend only on configuration).
 */
export async function agentRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const { config } = services;
  // Creates spend from the service's one create bucket, shared with POST /v2/folders.
  // Who may make folders (CREATE_POLICY) is checked before the create budget is spent.
  const gateFor: GateFor = (request) => async () => {
    creatorOf(services, request.principal, 'api');
    await app.spend('create', request);
  };
  await app.register(mcpRoutes, { services, gateFor });
  await app.register(a2aRoutes, { services, gateFor });

  const open = { config: routePolicy('discovery', ['anonymous']) };
  const llms = llmsText(config);
  for (const path of SURFACES.llms.paths) {
    app.get(path, open, async (_request, reply) => reply.type('text/plain; charset=utf-8').send(llms));
  }
  const plugin = JSON.stringify(aiPluginManifest(config));
  for (const path of SURFACES.aiPlugin.paths) {
    app.get(path, open, async (_request, reply) => reply.type('application/json; charset=utf-8').send(plugin));
  }
  app.get(AI_PLUGIN_LOGO_PATH, open, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(AI_PLUGIN_LOGO_SVG),
  );
  const card = JSON.stringify(mcpServerCard(config, toolDefinitions()));
  for (const path of SURFACES.mcpCard.paths) {
    // The well-known path is read by generic JSON tools; the SEP-2127 path gets its own media type.
    const type = path.startsWith('/.well-known/')
      ? 'application/json; charset=utf-8'
      : `${MCP_CARD_MEDIA_TYPE}; charset=utf-8`;
    app.get(path, open, async (_request, reply) => reply.type(type).send(card));
  }
}
