import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The one security-header policy, applied to every response of every route family (API, site,
 * docs, discovery, MCP, A2A, errors):
 *
 * - `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (a folder's address is a
 *   capability: it must not leak to another site), `Cross-Origin-Opener-Policy: same-origin`,
 *   `X-Permitted-Cross-Domain-Policies: none`;
 * - a Content-Security-Policy that allows nothing, unless the route sets its own (the site's page,
 *   the docs): a JSON answer opened in a browser can never run anything;
 * - `Strict-Transport-Security` only when the request came over https, directly or as a trusted
 *   proxy says (TRUST_PROXY): a browser ignores it over http, and a server reached over plain http
 *   (a local or test install) must not claim an https it does not have.
 *
 * The headers are set on the raw response when the request arrives, so that they reach answers
 * written by other code too (the MCP SDK writes its own responses); a route's own value for the same
 * header wins, because Node gives the headers of writeHead precedence over earlier setHeader ones.
 */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

export const HSTS = 'max-age=31536000; includeSubDomains';

const COMMON_ENTRIES = Object.entries(COMMON_HEADERS);

export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const raw = reply.raw;
  if (raw.headersSent) return;
  for (const [name, value] of COMMON_ENTRIES) if (!raw.hasHeader(name)) raw.setHeader(name, value);
  if (request.protocol === 'https') raw.setHeader('strict-transport-security', HSTS);
}

/**
 * Installs the policy on the root instance: every route, the 404 handler and the error handler. (A
 * callback hook, as the other hooks every request passes: an async one costs a promise per request.)
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    applySecurityHeaders(request, reply);
    done();
  });
}
