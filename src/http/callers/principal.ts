import type { FastifyInstance } from 'fastify';
import { AppError } from '../../app/errors.js';
import { principalOfApiKey, principalOfSession } from '../../app/principal.js';
import type { Services } from '../../app/services.js';
import { ANONYMOUS, API_KEY_PREFIX, type Principal } from '../../domain/principal.js';
import { sessionCookieOf } from './route-guard.js';
import { policyOf } from './route-policy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request speaks for (src/domain/principal.ts): anonymous unless proven otherwise. */
    principal: Principal;
  }
}

/**
 * Decorates every request with `request.principal`: an account when a live session cookie or an API
 * key (`Authorization: Bearer wfk_…`) proves one, else anonymous. Each is read only where the matched
 * route's declaration (src/http/callers/route-policy.ts) says it counts: the API key where the route accepts
 * `api-key`, the cookie where `cookie` is set (the route guard, src/http/callers/route-guard.ts, has already
 * refused a cookie-borne change from another origin). So a request to the API or the agents with
 * only the cookie is anonymous, and a request with neither costs no store read. A key that is
 * presented where keys count but is unknown or revoked is refused (401 `api_key_invalid`, in the
 * route's own error style: 400 within the contract's statuses) rather than treated as anonymous: a
 * script whose key was revoked must learn it, not go on making folders nobody owns. A session cookie
 * that is not (or no longer) valid just counts as anonymous. Other bearer tokens (METRICS_TOKEN,
 * ADMIN_TOKEN) are left to their routes. Must be added after the route guard.
 */
export function installPrincipal(app: FastifyInstance, services: Services): void {
  // A reference-free initial value (Fastify's rule for decorations); the hook sets every request's own.
  app.decorateRequest('principal', null as never);
  // A callback hook: a request with neither key nor cookie (most of them) is answered without a
  // promise; only a store lookup waits.
  app.addHook('onRequest', (request, _reply, done) => {
    request.principal = ANONYMOUS;
    const policy = policyOf(request.routeOptions.config);
    if (!policy) return done();
    const authorization = request.headers.authorization;
    // The scheme's name is case-insensitive (RFC 9110), as the admin and metrics tokens read it.
    const bearer = authorization && /^bearer /i.test(authorization) ? authorization.slice(7).trim() : null;
    if (bearer?.startsWith(API_KEY_PREFIX) && policy.accepts.includes('api-key')) {
      principalOfApiKey(services, bearer, (error) =>
        request.log.warn({ err: error }, 'recording an API key use failed'),
      ).then((principal) => {
        if (!principal) return done(new AppError('api_key_invalid', 'the API key is unknown or revoked'));
        request.principal = principal;
        done();
      }, done);
      return;
    }
    const session = policy.cookie ? sessionCookieOf(request) : undefined;
    if (!session) return done();
    principalOfSession(services, session).then((principal) => {
      request.principal = principal ?? ANONYMOUS;
      done();
    }, done);
  });
}
