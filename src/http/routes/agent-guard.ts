import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { checkHostAndOrigin, hostPolicy } from '../../agents/origin-check.js';
import type { Config } from '../../config/config.js';
import { HttpRefusal } from '../answers/errors.js';

/**
 * The one Host and Origin policy of the agent surfaces (MCP and A2A; src/agents/origin-check.ts):
 * a request whose Host is not this service's public host (DNS rebinding), or that a browser sent
 * from a page of another site (its Origin), is refused with 403 `forbidden` before anything runs.
 * A request without Origin (a program, an agent runtime) is not a browser's and is accepted.
 * Origins are compared by host name here, which is what DNS rebinding needs; no credential rides on
 * it, since the session cookie never counts on the agent surfaces (src/http/callers/route-policy.ts
 * AGENT_POLICY): what a page of another port could send here acts as anonymous.
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
