import type { FastifyRequest } from 'fastify';
import { AppError } from '../../app/errors.js';
import { type Caller, checkCaller } from '../../app/site/access.js';
import type { Config } from '../../config/config.js';
import type { Principal } from '../../domain/principal.js';

/** Who calls a site endpoint: its credential headers, each at most once, checked for shape. */
function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) throw new AppError('invalid_request', `${name} must be given once`);
  return value === undefined || value === '' ? undefined : value;
}

export function callerOf(request: FastifyRequest): Caller {
  return checkCaller({
    ownerToken: header(request, 'x-owner-token'),
    visitorToken: header(request, 'x-visitor-token'),
    uploadAuth: header(request, 'x-upload-auth'),
    // Signed in (src/http/principal.ts): the account that made a folder has its keyless controls.
    principal: accountOf.get(request) ?? request.principal,
  });
}

const accountOf = new WeakMap<FastifyRequest, Principal>();
const ANONYMOUS: Principal = { kind: 'anonymous' };

/**
 * A site request's session counts only when it comes from this instance's own pages, for a change
 * (any method but GET and HEAD): the cookie is SameSite=Lax, and this closes what Lax leaves open, a
 * same-site sibling origin's request (the admin guard's rule, src/http/admin-guard.ts). An API key
 * is not ambient, so it is taken from anywhere. Installed as the site routes' onRequest hook.
 */
export function sessionsFromOwnPages(config: Config) {
  const own = new Set([new URL(config.webUrl).origin, new URL(config.baseUrl).origin]);
  return async (request: FastifyRequest): Promise<void> => {
    const p = request.principal;
    if (p?.kind !== 'account' || p.via !== 'session' || request.method === 'GET' || request.method === 'HEAD') return;
    const origin = request.headers.origin;
    if (origin !== undefined && !own.has(origin)) accountOf.set(request, ANONYMOUS);
  };
}

/** A download ticket (app/site/downloads.ts): the `X-Download-Ticket` header, or `?ticket=` for links. */
export function downloadTicketOf(request: FastifyRequest): string | undefined {
  return header(request, 'x-download-ticket') ?? ((request.query as { ticket?: string }).ticket || undefined);
}
