import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentCreateGate, type GateFor } from '../../agents/create-gate.js';
import { buildMcpServer } from '../../agents/mcp.js';
import { checkHostAndOrigin, hostPolicy } from '../../agents/origin-check.js';
import type { Services } from '../../app/services.js';
import type { ErrorCode } from '../../contract/errors.js';
import { installErrorHandler } from '../errors.js';
import { limitedBy } from '../rate-limits.js';

/**
 * MCP Streamable HTTP at /mcp on the official SDK: 2026-07-28 stateless, and 2025-era initialize
 * clients through the SDK's stateless legacy fallback, both from one server factory.
 *
 * Registered as its own encapsulated plugin because the SDK reads the raw request stream itself:
 * this scope has no body parser that would consume it, and the handler hijacks the reply. Fastify
 * hooks still run first: the 'agents' rate limit and the Host/Origin check.
 */
export async function mcpRoutes(
  app: FastifyInstance,
  { services, gateFor }: { services: Services; gateFor: GateFor },
): Promise<void> {
  const { config } = services;
  const policy = hostPolicy(config);

  const handler = createMcpHandler(
    () => buildMcpServer(services, (error) => app.log.error({ err: error }, 'mcp tool failed')),
    {
      legacy: 'stateless',
      maxRequestBodySize: config.maxJsonBodyBytes,
      onerror: (error) => app.log.debug({ err: error }, 'mcp request refused'),
    },
  );
  const nodeHandler = toNodeHandler(handler, {
    maxRequestBodySize: config.maxJsonBodyBytes,
    onerror: (error) => app.log.error({ err: error }, 'mcp adapter failed'),
  });
  app.addHook('onClose', async () => handler.close());

  // Accept any Content-Type without reading the body: the SDK checks the media type (415) and
  // reads the stream under its own size bound (413).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  // Refusals before the SDK (rate limit, wrong Host) still answer in JSON-RPC's error shape.
  installErrorHandler(app, {
    failure: 'mcp request failed',
    render: (error) => rpcErrorBody(-32000, error.message, error.code),
  });

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = checkHostAndOrigin(policy, request.host, request.headers.origin);
    if (refusal) {
      request.log.info({ reason: refusal }, 'mcp request refused');
      return reply
        .status(403)
        .type('application/json; charset=utf-8')
        .send(rpcErrorBody(-32000, refusal, 'forbidden'));
    }
    reply.hijack();
    await currentCreateGate.run(gateFor(request), () => nodeHandler(request.raw, reply.raw));
  };
  const routeConfig = limitedBy('agents');
  app.post('/mcp', routeConfig, serve);
  // GET (2025 listen stream) and DELETE (2025 session end) are answered by the SDK: 405 when stateless.
  app.get('/mcp', routeConfig, serve);
  app.delete('/mcp', routeConfig, serve);
}

/** A refusal before the SDK, in JSON-RPC's error shape with the stable code in `error.data.code`. */
function rpcErrorBody(rpcCode: number, message: string, code: ErrorCode) {
  return { jsonrpc: '2.0', id: null, error: { code: rpcCode, message, data: { code } } };
}
