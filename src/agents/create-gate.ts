import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../app/errors.js';
import type { Config } from '../config/config.js';

/**
 * The create budget of the agent surfaces. Every MCP or A2A request first passes the route-level
 * 'agents' bucket (protocol traffic: initialize, tools/list, card fetches...). A request that
 * actually creates a folder is then also counted against a limiter with the numbers of the 'create'
 * bucket (RATE_LIMIT_CREATE per RATE_LIMIT_WINDOW_SECONDS, per client address), so an agent cannot
 * create folders faster than a REST client can.
 *
 * The count happens inside the tool/skill, not in a route hook, because only the SDK knows (after
 * reading the body) whether a request is a create. @fastify/rate-limit keeps one store per route, so
 * this limiter is shared by MCP and A2A but counts separately from POST /v2/folders.
 */
export type CreateGate = () => Promise<void>;

export type GateFor = (request: FastifyRequest) => CreateGate;

/** One limiter for both surfaces: create it once and hand it to the MCP and the A2A plugin. */
export function createGateFor(app: FastifyInstance, config: Config): GateFor {
  const limiter = app.createRateLimit({ max: config.rateLimit.create, timeWindow: config.rateLimit.windowSeconds * 1000 });
  return (request) => async () => {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError(429, `too many folders created: retry in ${Math.max(1, result.ttlInSeconds)} seconds`);
    }
  };
}

/**
 * Carries the current HTTP request's create gate into the MCP tool handlers: the SDK builds a
 * server per request from a factory that has no access to the Fastify request, but the tool
 * handlers run inside the async context of the route handler that called the SDK.
 */
export const currentCreateGate = new AsyncLocalStorage<CreateGate>();
