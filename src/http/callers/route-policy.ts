import type { FastifyContextConfig, FastifyInstance } from 'fastify';

/**
 * What a route is and who may call it, declared by the route itself in its Fastify route config
 * (`config: routePolicy(...)`). One guard (src/http/callers/route-guard.ts) enforces it on every request, and
 * the metrics, the 404 handler, the principal hook and the error style read the same declaration
 * instead of guessing a route's kind from its URL. A route without a declaration fails the route
 * table test (test/api/route-policy.test.ts), so none can be added without saying who may call it.
 */

/** The surface a route belongs to: decides the error style, the metrics family and CORS. */
export type RouteSurface =
  /** The v2 and v1 contract operations (`/v2/folders…`, `/v1/…`). */
  | 'api'
  /** Chunk bodies in and out (`/v2/uploads/…`, the site's chunk downloads). */
  | 'chunk'
  /** The browser site's own JSON endpoints (`<site>/api/site/…`). */
  | 'site'
  /** HTML pages and their static files: the site's page and assets, the mail links' pages. */
  | 'page'
  /** MCP and A2A. */
  | 'agents'
  /** A signed-in person's own account: who am I, API keys, My folders. */
  | 'account'
  /** The admin console's API. */
  | 'admin'
  /** The OpenID Connect sign-in flow: login, callback, logout. */
  | 'auth'
  /** OpenAPI, llms.txt, schemas, the service index and the other well-known documents. */
  | 'discovery'
  /** The docs site. */
  | 'docs'
  /** Health, readiness and metrics. */
  | 'ops';

/**
 * A credential a route accepts. `anonymous` means the route answers without any; the others name what
 * the route's handler checks (a folder's owner or visitor token, an upload's auth, a chunk URL's
 * signature, a download ticket) or what the principal hook proves (a session cookie, an API key),
 * and `admin` the admin guard (an admin account or ADMIN_TOKEN).
 */
export type RouteCredential =
  | 'anonymous'
  | 'owner-token'
  | 'visitor-token'
  | 'upload-auth'
  | 'signed-url'
  | 'download-ticket'
  | 'session'
  | 'api-key'
  | 'admin'
  | 'metrics-token';

export interface RoutePolicy {
  readonly surface: RouteSurface;
  /** Every credential the route accepts; the guard and the route table test read it. */
  readonly accepts: readonly RouteCredential[];
  /**
   * Whether the session cookie counts on this route at all. Where it does not, the principal hook
   * never reads it, so a request with only the cookie is anonymous. Where it does, a request that
   * changes state (any method but GET, HEAD and OPTIONS) with the cookie passes only from the
   * instance's own origin: scheme, host and port exact.
   */
  readonly cookie: boolean;
  /** The contract operation the metrics count apart (src/ops/metrics.ts), for the routes that are one. */
  readonly operation?: 'create' | 'upload-status';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's declaration (src/http/callers/route-policy.ts); required of every route. */
    policy?: RoutePolicy;
  }
}

/** The route config that declares a route's policy: `app.post(path, { config: routePolicy(...) }, …)`. */
export function routePolicy(
  surface: RouteSurface,
  accepts: readonly RouteCredential[],
  options: { readonly cookie?: boolean; readonly operation?: RoutePolicy['operation'] } = {},
): FastifyContextConfig {
  const { cookie = accepts.includes('session'), operation } = options;
  return { policy: { surface, accepts, cookie, ...(operation ? { operation } : {}) } };
}

/**
 * Declares the routes a plugin registers in `scope` that cannot take a route config themselves
 * (@fastify/static's file routes): each route registered there from now on without a declaration
 * gets `config`'s. Use it in a scope of its own that holds only that plugin's routes.
 */
export function declarePluginRoutes(scope: FastifyInstance, config: FastifyContextConfig): void {
  scope.addHook('onRoute', (route) => {
    if (policyOf(route.config)) return;
    if (route.config) Object.assign(route.config, config);
    else route.config = { ...config };
  });
}

/** The declaration of a matched route, or undefined for an unmatched request (the 404 handler). */
export function policyOf(config: FastifyContextConfig | undefined): RoutePolicy | undefined {
  return config?.policy;
}

/**
 * MCP and A2A: programs, anonymous or with an API key. The session cookie does not count there: an
 * agent runtime has no sign-in session, and a browser page could otherwise borrow the person's.
 */
export const AGENT_POLICY = routePolicy('agents', ['anonymous', 'api-key']);

/**
 * The site's endpoints on one folder: its credential headers (owner token, visitor token, upload
 * auth; src/http/routes/site-caller.ts), or the account that made it (a session from the site's own
 * pages, or an API key from the CLI).
 */
export const FOLDER_CALLER: readonly RouteCredential[] = [
  'anonymous',
  'owner-token',
  'visitor-token',
  'upload-auth',
  'session',
  'api-key',
];

/** A page or a static file of one: anyone, and no credential counts. */
export const PAGE_POLICY = routePolicy('page', ['anonymous']);

/** The admin API: an admin account (its session or API key) or ADMIN_TOKEN (src/http/callers/admin-guard.ts). */
export const ADMIN_POLICY = routePolicy('admin', ['admin', 'session', 'api-key']);
