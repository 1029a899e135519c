import type { FastifyInstance } from 'fastify';
import { createA2aService, rpcError } from '../../agents/a2a.js';
import { coreAgentCard } from '../../agents/a2a-card.js';
import { currentActor, type GateFor } from '../../agents/create-gate.js';
import type { Services } from '../../app/services.js';
import type { ErrorCode } from '../../contract/errors.js';
import { A2A_VERSION_HEADER, agentCardV1, agentCardV03, cardVersionFor } from '../../discovery/agent-card.js';
import { installErrorHandler } from '../answers/errors.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { actorOf } from '../callers/actor.js';
import { AGENT_POLICY, routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { agentOriginGuard } from './agent-guard.js';

/**
 * A2A at /a2a (JSON-RPC, protocol 1.0 and 0.3) and its agent card. Its own encapsulated scope: the
 * body is read by the same rules as every JSON body (src/http/bodies/json-body.ts) under
 * MAX_JSON_BODY_BYTES, the agent surfaces' Host/Origin policy applies (./agent-guard.ts), and every
 * refusal, including Fastify's own (too large, wrong media type, rate limited), answers in
 * JSON-RPC's error shape with a 4xx status; malformed JSON is a parse error (-32700).
 */
export async function a2aRoutes(
  app: FastifyInstance,
  { services, gateFor }: { services: Services; gateFor: GateFor },
): Promise<void> {
  const { config } = services;
  const cards = { '1.0': JSON.stringify(agentCardV1(config)), '0.3': JSON.stringify(agentCardV03(config)) };
  const a2a = createA2aService(services, coreAgentCard(config), (error) =>
    app.log.error({ err: error }, 'a2a request failed'),
  );

  installJsonBodies(app, config.maxJsonBodyBytes, { empty: 'invalid', otherTypes: 'refuse' });

  // The one error mapping (src/http/answers/errors.ts), in JSON-RPC's error shape: the status is the
  // precise one (413, 415, 429), as the MCP SDK answers, and `error.data.code` is the stable code.
  installErrorHandler(app, {
    failure: 'a2a request failed',
    render: (error) =>
      rpcError(null, RPC_CODES[error.code] ?? (error.status >= 500 ? -32603 : -32600), error.message, error.code),
  });

  // Each protocol version gets the card it defines, chosen as A2A chooses versions (header, else 0.3).
  app.get<{ Querystring: Record<string, unknown> }>(
    '/.well-known/agent-card.json',
    { ...limitedBy('agents'), config: routePolicy('discovery', ['anonymous']) },
    async (request, reply) => {
      const header = request.headers[A2A_VERSION_HEADER.toLowerCase()];
      const query = request.query[A2A_VERSION_HEADER];
      const requested = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
      reply.header('cache-control', 'public, max-age=300').header('vary', A2A_VERSION_HEADER);
      return reply.type('application/json; charset=utf-8').send(cards[cardVersionFor(requested)]);
    },
  );

  // The endpoint takes JSON-RPC by POST only; other methods are told so instead of "no route".
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/a2a',
    config: AGENT_POLICY,
    handler: async (_request, reply) =>
      reply
        .status(405)
        .header('allow', 'POST')
        .type('application/json; charset=utf-8')
        .send(rpcError(null, -32600, 'method not allowed: send A2A JSON-RPC requests with POST', 'method_not_allowed')),
  });

  const guarded = { config: AGENT_POLICY, onRequest: [agentOriginGuard(config), limitedBy('agents').onRequest] };
  app.post('/a2a', guarded, async (request, reply) => {
    const answer = await currentActor.run(actorOf(request), () =>
      a2a.handle(request.body, request.headers, gateFor(request)),
    );
    return reply.status(answer.status).type('application/json; charset=utf-8').send(answer.body);
  });
}

/** JSON-RPC error codes for the stable codes that have one of their own (A2A names -32005). */
const RPC_CODES: Partial<Record<ErrorCode, number>> = {
  invalid_json: -32700,
  unsupported_media_type: -32005,
  rate_limited: -32000,
  internal_error: -32603,
};
