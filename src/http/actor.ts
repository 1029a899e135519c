import type { FastifyRequest } from 'fastify';
import { type Actor, ANONYMOUS } from '../app/audit.js';
import type { Principal } from '../domain/principal.js';

/**
 * Who acts, for the audit log: the request's principal (set by src/http/principal.ts once sign-in
 * decorates requests; anonymous until then and whenever nothing proves otherwise) and its client
 * address (the proxy's client with TRUST_PROXY), which recordAudit keeps only hashed, if at all.
 */
export function actorOf(request: FastifyRequest): Actor {
  const principal = (request as FastifyRequest & { principal?: Principal }).principal ?? ANONYMOUS;
  return { principal, clientAddress: request.ip };
}
