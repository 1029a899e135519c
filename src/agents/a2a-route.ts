import type { FastifyInstance } from 'fastify';
import type { Services } from '../app/services.js';
import { agentCardDocument, coreAgentCard } from '../discovery/agent-card.js';
import { classify } from '../http/errors.js';
import { addRetryAfter, limitedBy } from '../http/rate-limits.js';
import { createA2aService, rpcError } from './a2a.js';
import type { GateFor } from './create-gate.js';

/**
 * A2A at /a2a (JSON-RPC, protocol 1.0 and 0.3) and its agent card. Its own encapsulated scope: the
 * body is read as text under MAX_JSON_BODY_BYTES and parsed here, so that malformed JSON is a
 * JSON-RPC parse error (-32700), and every refusal, including Fastify's own (too large, wrong media
 * type, rate limited), answers in JSON-RPC's error shape with a 4xx status.
 */
export async function a2aRoutes(
  app: FastifyInstance,
  { services, gateFor }: { services: Services; gateFor: GateFor },
): Promise<void> {
  const { config } = services;
  const card = JSON.stringify(agentCardDocument(config));
  const a2a = createA2aService(services, coreAgentCard(config), (error) =>
    app.log.error({ err: error }, 'a2a request failed'),
  );

  app.removeAllContentTypeParsers();
  const asText = (_request: unknown, body: string, done: (error: Error | null, body?: unknown) => void) =>
    done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: config.maxJsonBodyBytes }, asText);
  app.addContentTypeParser(
    /^application\/[a-z0-9.+-]*\+json$/,
    { parseAs: 'string', bodyLimit: config.maxJsonBodyBytes },
    asText,
  );

  app.setErrorHandler((error, request, reply) => {
    const { status, message } = classify(error as Error);
    if (status >= 500) request.log.error({ err: error }, 'a2a request failed');
    const wrongType = message.startsWith('Content-Type');
    // The REST API answers these with 400 (spec 7 lists no other status); a JSON-RPC endpoint is
    // not bound by that and gives the precise status, as the MCP SDK does.
    const tooLarge = (error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    const httpStatus = status >= 500 ? 500 : wrongType ? 415 : tooLarge ? 413 : status;
    const code =
      status >= 500
        ? -32603
        : wrongType
          ? -32005
          : status === 429
            ? -32000
            : message.includes('valid JSON')
              ? -32700
              : -32600;
    if (!request.raw.complete) reply.header('connection', 'close');
    addRetryAfter(error, reply);
    return reply
      .status(httpStatus)
      .type('application/json; charset=utf-8')
      .send(rpcError(null, code, message));
  });

  app.get('/.well-known/agent-card.json', limitedBy('agents'), async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return reply.type('application/json; charset=utf-8').send(card);
  });

  app.post('/a2a', limitedBy('agents'), async (request, reply) => {
    const text = typeof request.body === 'string' ? request.body : '';
    let body: unknown;
    try {
      body = parseJson(text);
    } catch (error) {
      const detail =
        error instanceof SyntaxError && error.message.includes('__proto__') ? ': __proto__ keys are not allowed' : '';
      return reply
        .status(400)
        .type('application/json; charset=utf-8')
        .send(rpcError(null, -32700, `body is not valid JSON${detail}`));
    }
    const answer = await a2a.handle(body, request.headers, gateFor(request));
    return reply.status(answer.status).type('application/json; charset=utf-8').send(answer.body);
  });
}

/** JSON.parse that refuses `__proto__` keys, which could reach an object's prototype once merged. */
function parseJson(text: string): unknown {
  if (text.trim() === '') throw new SyntaxError('empty body');
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__') throw new SyntaxError('__proto__ is not allowed');
    return value;
  });
}
