import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.js';
import type { Principal } from '../../domain/principal.js';

/**
 * The one admin authorisation check of the server (docs/organisations.md#console): every route under
 * `/api/admin` runs it first, the console's and the audit's alike. An admin is either
 *
 * - a signed-in account the operator named (`request.principal`, set by src/http/callers/principal.ts from a
 *   session cookie or an API key: `kind === 'account' && admin`), or
 * - the holder of the break-glass token: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant
 *   time, for instances without OIDC (or when the identity provider is down).
 *
 * The token is looked at first: it works in a browser signed in as someone else (break-glass while
 * one's own account is not, or no longer, an admin). Anything else is refused before the handler
 * runs: 401 when no admin credential was presented (or a wrong token), 403 when a signed-in account
 * is not an admin. With neither OIDC nor ADMIN_TOKEN set, every admin route answers 401: nothing is
 * open by default. A session's changes come from the instance's own origin only: the route guard
 * (src/http/callers/route-guard.ts) has refused any other before this runs.
 */

/** Who acts as admin on this request. */
export type AdminActor =
  | { readonly via: 'account'; readonly accountId: string; readonly email: string | null; readonly session: boolean }
  | { readonly via: 'token' };

const actors = new WeakMap<FastifyRequest, AdminActor>();

/** The admin the guard let through on this request (only called from a guarded route). */
export function adminOf(request: FastifyRequest): AdminActor {
  const actor = actors.get(request);
  if (!actor) throw new Error('adminOf called on a route without the admin guard');
  return actor;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether the header carries exactly `Bearer <token>`. Both sides are hashed first, so the comparison
 * is of equal-length digests and its time tells neither the token nor its length.
 */
export function bearerIs(header: string | undefined, token: string): boolean {
  const m = /^Bearer ([\x21-\x7e]+)$/i.exec(header ?? '');
  if (!m) return false;
  return timingSafeEqual(sha256(m[1]!), sha256(token));
}

/** The request's principal (src/http/callers/principal.ts sets it on every request when sign-in is configured). */
function principalOf(request: FastifyRequest): Principal | undefined {
  return (request as unknown as { principal?: Principal }).principal;
}

type Refusal = { readonly status: 401 | 403; readonly error: string };

/** The actor, or why not: the decision itself, apart from the reply (tested directly). */
export function decideAdmin(request: FastifyRequest, config: Config): AdminActor | Refusal {
  const token = config.ops.adminToken;
  if (token !== null && bearerIs(request.headers.authorization, token)) return { via: 'token' };
  const principal = principalOf(request);
  if (principal?.kind === 'account') {
    if (!principal.admin) return { status: 403, error: 'this account is not an admin of this instance' };
    const session = principal.via === 'session';
    return { via: 'account', accountId: principal.accountId, email: principal.email, session };
  }
  return {
    status: 401,
    error:
      token === null
        ? 'admin access needs sign-in as an admin account (the instance has no ADMIN_TOKEN)'
        : 'admin access needs sign-in as an admin account or Authorization: Bearer <ADMIN_TOKEN>',
  };
}

/**
 * The guard as a Fastify hook, added as `preHandler` in each admin plugin (after the contract's
 * validation: a malformed request is a 400 for anyone; no handler runs for a non-admin).
 */
export function adminGuard(config: Config) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const decision = decideAdmin(request, config);
    if ('status' in decision) {
      if (decision.status === 401) reply.header('www-authenticate', 'Bearer realm="admin"');
      return reply.status(decision.status).header('cache-control', 'no-store').send({
        error: decision.error,
        code: 'forbidden',
      });
    }
    actors.set(request, decision);
  };
}
