import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentActor, currentCreateGate, type GateFor } from '../../agents/create-gate.js';
import { buildMcpServer } from '../../agents/mcp.js';
import type { Services } from '../../app/services.js';
import type { ErrorCode } from '../../contract/errors.js';
import { installErrorHandler } from '../answers/errors.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { actorOf } from '../callers/actor.js';
import { AGENT_POLICY } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { agentOriginGuard } from './agent-guard.js';

/**
 * MCP Streamable HTTP at /mcp on the official SDK: 2026-07-28 stateless, and 2025-era initialize
 * clients through the SDK's stateless legacy fallback, both from one server factory.
 *
 * Registered as its own encapsulated plugin: the body is parsed here by the service's JSON rules and
 * handed to the SDK, which writes the response itself (the reply is hijacked). Fastify hooks run
 * first: the agent surfaces' Host/Origin policy (./agent-guard.ts) and the 'agents' rate limit.
 */
export async function mcpRoutes(
  app: FastifyInstance,
  { services, gateFor }: { services: Services; gateFor: GateFor },
): Promise<void> {
  const { config } = services;

  const handler = createMcpHandler(
    () => buildMcpServer(services, (error) => app.log.error({ err: error }, 'mcp tool failed')),
    {
      legacy: 'stateless',
      maxRequestBodySize: config.maxJsonBodyBytes,
      onerror: (error) => app.log.debug({ err: error }, 'mcp request refused'),
    },
  );
  // The SDK answers an SSE stream with `Connection: keep-alive`, which overrode a client's
  // `Connection: close` and left its socket open until the keep-alive timeout: a client that asks
  // for close gets it, as on every other route.
  const closing = {
    fetch: async (webRequest: Request, extra?: Parameters<typeof handler.fetch>[1]) => {
      const response = await handler.fetch(webRequest, extra);
      if (/(?:^|,)\s*close\s*(?:,|$)/i.test(webRequest.headers.get('connection') ?? ''))
        response.headers.set('connection', 'close');
      return response;
    },
  };
  const nodeHandler = toNodeHandler(closing, {
    maxRequestBodySize: config.maxJsonBodyBytes,
    onerror: (error) => app.log.error({ err: error }, 'mcp adapter failed'),
  });
  app.addHook('onClose', async () => handler.close());

  // JSON bodies are read by the same rules as everywhere (size, prototype keys, duplicate keys) and
  // handed to the SDK parsed; other media types are left unread for the SDK to refuse (415).
  installJsonBodies(app, config.maxJsonBodyBytes, { empty: 'invalid', otherTypes: 'unread' });

  // Refusals before the SDK (rate limit, wrong Host) still answer in JSON-RPC's error shape.
  installErrorHandler(app, {
    failure: 'mcp request failed',
    render: (error) => rpcErrorBody(error.code === 'invalid_json' ? -32700 : -32000, error.message, error.code),
  });

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await currentCreateGate.run(gateFor(request), () =>
      currentActor.run(actorOf(request), () => nodeHandler(request.raw, reply.raw, request.body)),
    );
  };
  // The Host/Origin policy first (a refused request spends nothing), then the rate limit.
  const routeConfig = {
    config: AGENT_POLICY,
    onRequest: [agentOriginGuard(config), limitedBy('agents').onRequest],
  };
  app.post('/mcp', routeConfig, serve);
  // GET (2025 listen stream) and DELETE (2025 session end) are answered by the SDK: 405 when stateless.
  app.get('/mcp', routeConfig, serve);
  app.delete('/mcp', routeConfig, serve);
}

/** A refusal before the SDK, in JSON-RPC's error shape with the stable code in `error.data.code`. */
function rpcErrorBody(rpcCode: number, message: string, code: ErrorCode) {
  return { jsonrpc: '2.0', id: null, error: { code: rpcCode, message, data: { code } } };
}
