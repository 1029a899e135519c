import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.js';
import { HttpRefusal } from '../answers/errors.js';
import { policyOf } from './route-policy.js';

/** The sign-in session's cookie (src/http/routes/auth.ts sets it). */
export const SESSION_COOKIE = 'wf_session';

/** Methods that change nothing: a cookie may ride along on them from anywhere. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The instance's own origins: WEB_URL's (the site's pages) and BASE_URL's when it differs (the API
 * host, which serves the same page at its root). Exact strings as a browser sends them in `Origin`:
 * scheme, host and port, the default port left out.
 */
export function ownOrigins(config: Config): ReadonlySet<string> {
  return new Set([new URL(config.webUrl).origin, new URL(config.baseUrl).origin]);
}

/** The session cookie's value as the request presents it, or undefined (absent or empty). */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE] || undefined;
}

/**
 * The one cross-site rule of the server, an `onRequest` hook at the root that reads the matched
 * route's declaration (src/http/callers/route-policy.ts). A request that presents the session cookie and
 * changes state (any method but GET, HEAD and OPTIONS) on a route where the cookie counts passes only
 * when its `Origin` is one of the instance's own origins, exactly. Browsers send `Origin` on every
 * such request (every POST, PUT, PATCH and DELETE, form or fetch, same-origin or not), so a request
 * with the cookie and no `Origin` is not a page of ours: it is refused too, whatever `Sec-Fetch-Site`
 * claims (a browser that sends that header also sends `Origin`). Refused with 403 `forbidden` before
 * the principal is read or the body is parsed; the route's own error style renders it.
 *
 * Where the cookie does not count (the API, the agents, the pages), the principal hook never reads it
 * (src/http/callers/principal.ts), so there is nothing for a foreign page to borrow and nothing to refuse.
 * Must be added after @fastify/cookie (which parses the cookie in its own onRequest hook).
 */
export function installRouteGuard(app: FastifyInstance, config: Config): void {
  const own = ownOrigins(config);
  app.addHook('onRequest', (request, reply, done) => {
    const policy = policyOf(request.routeOptions.config);
    if (!policy?.cookie || SAFE_METHODS.has(request.method) || sessionCookieOf(request) === undefined) return done();
    const origin = request.headers.origin;
    if (origin !== undefined && own.has(origin)) return done();
    // The refusal is not for a foreign page to read.
    reply.removeHeader('access-control-allow-origin');
    done(
      new HttpRefusal(
        'forbidden',
        origin === undefined
          ? 'a change made with the sign-in cookie needs an Origin header of this instance'
          : 'a change made with the sign-in cookie is accepted from this instance’s own pages only',
      ),
    );
  });
}
