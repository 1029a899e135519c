import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { checkHostAndOrigin, hostPolicy } from '../../agents/origin-check.js';
import type { Config } from '../../config/config.js';
import { HttpRefusal } from '../errors.js';

/**
 * The one Host and Origin policy of the agent surfaces (MCP and A2A; src/agents/origin-check.ts):
 * a request whose Host is not this service's public host (DNS rebinding), or that a browser sent
 * from a page of another site (its Origin), is refused with 403 `forbidden` before anything runs.
 * A request without Origin (a program, an agent runtime) is not a browser's and is accepted.
 */
export function agentOriginGuard(config: Config): onRequestHookHandler {
  const policy = hostPolicy(config);
  return async (request: FastifyRequest, reply) => {
    const refusal = checkHostAndOrigin(policy, request.host, request.headers.origin);
    if (refusal === null) return;
    // The refusal is not for the foreign page to read.
    reply.removeHeader('access-control-allow-origin');
    throw new HttpRefusal('forbidden', refusal);
  };
}
