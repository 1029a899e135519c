import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../app/audit.js';

/**
 * The create budget of the agent surfaces. Every MCP or A2A request first passes the route-level
 * 'agents' bucket (protocol traffic: initialize, tools/list, card fetches...). A request that
 * actually creates a folder is then also counted against the one create budget of the service
 * (the `create` bucket of src/http/connections/rate-limits.ts), the same counter POST /v2/folders uses, so a client
 * gets RATE_LIMIT_CREATE folders per window whichever surface it uses.
 *
 * The count happens inside the tool/skill, not in a route hook, because only the SDK knows (after
 * reading the body) whether a request is a create.
 */
export type CreateGate = () => Promise<void>;

export type GateFor = (request: FastifyRequest) => CreateGate;

/**
 * Carries the current HTTP request's create gate into the MCP tool handlers: the SDK builds a
 * server per request from a factory that has no access to the Fastify request, but the tool
 * handlers run inside the async context of the route handler that called the SDK.
 */
export const currentCreateGate = new AsyncLocalStorage<CreateGate>();

/**
 * Who the current MCP or A2A request speaks for (src/http/callers/principal.ts) and its client address,
 * carried the same way into the SDKs' handlers: a folder an agent makes with an API key is recorded
 * under its account, and its audit entry has the client as every other create's has.
 */
export const currentActor = new AsyncLocalStorage<Actor>();
