import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../app/audit.js';
import { ANONYMOUS, type Principal } from '../../domain/principal.js';

/**
 * Who acts, for the audit log: the request's principal (set by src/http/callers/principal.ts once sign-in
 * decorates requests; anonymous until then and whenever nothing proves otherwise) and its client
 * address (the proxy's client with TRUST_PROXY), which recordAudit keeps only hashed, if at all.
 */
export function actorOf(request: FastifyRequest): Actor {
  const principal: Principal = request.principal ?? ANONYMOUS;
  return { principal, clientAddress: request.ip };
}
