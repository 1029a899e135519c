import type { Server } from 'node:http';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import Fastify, {
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { auditView } from './app/audit.js';
import { composeServices, type Services } from './app/services.js';
import { startSweeper } from './app/sweeper.js';
import { type Backends, openBackends } from './backends.js';
import type { Config } from './config/config.js';
import { ACCOUNT_PATH } from './contract/account.js';
import { ADMIN_API_PATH } from './contract/admin.js';
import { encryptedLength, MIB } from './domain/chunk-plan.js';
import { installCompression } from './http/answers/compression.js';
import { errorServerOptions, installErrorHandling } from './http/answers/errors.js';
import { installLargeJson } from './http/answers/large-json.js';
import { lingerOnUnreadBodies } from './http/answers/lingering-close.js';
import { installSecurityHeaders } from './http/answers/security-headers.js';
import { installExpectContinue } from './http/bodies/expect-continue.js';
import { installValidation } from './http/bodies/validation.js';
import { installPrincipal } from './http/callers/principal.js';
import { installRouteGuard } from './http/callers/route-guard.js';
import { policyOf, routePolicy } from './http/callers/route-policy.js';
import { guardConnections } from './http/connections/connection-guard.js';
import { closeConnectionsWhileDraining, refuseWhileDraining } from './http/connections/draining.js';
import { installRateLimits } from './http/connections/rate-limits.js';
import { loggerOptions, logRequests, migrationsLine, quietRequests } from './http/logging.js';
import { accountKeyRoutes } from './http/routes/account-keys.js';
import { adminApiBases, adminRoutes } from './http/routes/admin.js';
import { adminAccountRoutes } from './http/routes/admin-accounts.js';
import { adminAuditRoutes } from './http/routes/admin-audit.js';
import { agentRoutes } from './http/routes/agents.js';
import { apiRoutes } from './http/routes/api.js';
import { authRoutes } from './http/routes/auth.js';
import { chunkRoutes } from './http/routes/chunks.js';
import { discoveryRoutes } from './http/routes/discovery.js';
import { docsRoutes } from './http/routes/docs.js';
import { mailConsentRoutes } from './http/routes/mail-consent.js';
import { siteApiPath, sitePath, siteRoutes } from './http/routes/site.js';
import { v1Routes } from './http/routes/v1.js';
import { createNotifier, type Notifier } from './notify/notifier.js';
import { diskStatus } from './ops/disk.js';
import { readinessChecks } from './ops/health.js';
import { Metrics } from './ops/metrics.js';
import { opsRoutes, startMetricsServer } from './ops/routes.js';
import type { NewAuditEntry } from './store/audit-store.js';

/**
 * The composition root: opens the backends chosen by configuration, builds the services the use
 * cases share, and registers every HTTP concern as its own encapsulated plugin.
 */
export interface Webfolder {
  readonly app: FastifyInstance;
  readonly services: Services;
  readonly metrics: Metrics;
  /** Delivers the notification outbox (webhooks, owner mails). */
  readonly notifier: Notifier;
  /**
   * Every route as registered, with its schemas: Fastify has no public list of them, and the tests
   * that walk every route's schema (test/api/control-characters.test.ts) need one.
   */
  readonly routes: readonly RouteOptions[];
  /**
   * Stops the sweeper and the deliveries, stops accepting connections, lets requests in flight finish
   * for up to SHUTDOWN_GRACE_SECONDS (then closes their connections: a chunk cut off is not stored),
   * and closes the backends.
   */
  close(): Promise<void>;
}

export interface BuildOptions {
  /** Replaces the logger options (tests pass false or a destination). */
  readonly logger?: FastifyServerOptions['logger'];
  /** Runs the expiry sweeper (default true). */
  readonly sweeper?: boolean;
  /** Runs the notification delivery loop (default true); tests may drive `notifier.deliverDue()`. */
  readonly deliveries?: boolean;
}

/**
 * The HTTP surfaces, one line each: what it is, the plugin that registers it, and the path prefixes
 * under which it answers JSON (an unknown URL there gets a JSON 404, elsewhere the HTML page). The
 * registration loop and the 404 rule both read this table. The probes are registered before it, and
 * CORS and the rate limits (the hooks every surface here passes through) just before it.
 */
interface Surface {
  readonly name: string;
  readonly register: (app: FastifyInstance, services: Services) => PromiseLike<unknown>;
  readonly apiPrefixes: (config: Config) => readonly string[];
}
const none = () => [];
const SURFACES: readonly Surface[] = [
  { name: 'v2 API', register: (app, services) => app.register(apiRoutes, { services }), apiPrefixes: () => ['/v2/'] },
  { name: 'v1 API', register: (app, services) => app.register(v1Routes, { services }), apiPrefixes: () => ['/v1/'] },
  {
    // Only a backend that receives chunk bodies itself has the route; on S3 the path is a plain 404.
    name: 'chunk uploads',
    register: async (app, services) => {
      const { chunkReceiver } = services.capabilities;
      if (chunkReceiver) await app.register(chunkRoutes, { services, receiver: chunkReceiver });
    },
    apiPrefixes: none,
  },
  {
    name: 'discovery',
    register: (app, services) => app.register(discoveryRoutes, { services }),
    apiPrefixes: () => ['/schemas/', '/.well-known/'],
  },
  {
    name: 'agents (MCP, A2A)',
    register: (app, services) => app.register(agentRoutes, { services }),
    apiPrefixes: () => ['/mcp', '/a2a'],
  },
  { name: 'docs', register: (app, services) => app.register(docsRoutes, { services }), apiPrefixes: none },
  {
    name: 'site',
    register: (app, services) => app.register(siteRoutes, { services }),
    apiPrefixes: (config) => [`${siteApiPath(config)}/`],
  },
  {
    name: 'mail consent',
    register: (app, services) => app.register(mailConsentRoutes, { services }),
    apiPrefixes: none,
  },
  {
    // Sign-in, who is signed in, and API keys, under the site's path, which they add themselves
    // (not as the plugin's prefix: Fastify would apply that again).
    name: 'accounts',
    register: async (app, services) => {
      const base = sitePath(services.config);
      await app.register(authRoutes, { services, base });
      await app.register(accountKeyRoutes, { services, base });
    },
    apiPrefixes: (config) => [`${sitePath(config)}${ACCOUNT_PATH}`],
  },
  {
    // At BASE_URL's root for the token and scripts, and under the site's path too, where the console
    // calls it and the browser sends the session cookie (its path is the site's).
    name: 'admin API',
    register: async (app, services) => {
      for (const base of adminApiBases(services.config)) {
        await app.register(adminAuditRoutes, { services, base });
        await app.register(adminRoutes, { services, disk: () => diskStatus(services.config), base });
        await app.register(adminAccountRoutes, { services, base });
      }
    },
    apiPrefixes: (config) => adminApiBases(config).map((base) => `${base}${ADMIN_API_PATH}/`),
  },
];

/** What the cross-cutting steps of the request pipeline read. */
interface PipelineContext {
  readonly config: Config;
  readonly services: Services;
  readonly metrics: Metrics;
  readonly redis: Backends['redis'];
  readonly checks: ReturnType<typeof readinessChecks>;
  /** True once the node drains (SIGTERM). */
  readonly draining: () => boolean;
}

/**
 * The cross-cutting steps every request passes through, in the order they are installed: that
 * order is the pipeline's (Fastify runs hooks in the order they were added), so it is stated here
 * once. The probes come before CORS and the rate limits, so that neither applies to them.
 */
const PIPELINE: readonly { readonly name: string; install(app: FastifyInstance, c: PipelineContext): unknown }[] = [
  { name: 'request log line', install: (app) => logRequests(app) },
  // An answer sent before its request's body was read still reaches the client (lingering-close.ts).
  { name: 'lingering close', install: (app, { config }) => lingerOnUnreadBodies(app.server, largestBody(config)) },
  {
    // Connections past the cap are closed by Node as they arrive, before any work is done for them;
    // within it, one client address may not take every slot (see connection-guard.ts for proxies).
    name: 'connection caps',
    install: (app, { config }) => {
      app.server.maxConnections = config.limits.maxConnections;
      if (!config.ops.trustProxy)
        guardConnections(app.server, {
          max: config.limits.maxConnections,
          perClient: config.limits.maxConnectionsPerClient,
        });
    },
  },
  {
    // A browser's wrong address gets a page with a way home; the API's paths keep their JSON 404. A
    // matched route that answers 404 is judged by its declaration; an unmatched URL has none, so only
    // its path can say whether a program (JSON) or a person (a page) asked for it.
    name: 'errors and the 404 rule',
    install: (app, { config }) =>
      installErrorHandling(app, {
        home: config.webUrl,
        apiPrefixes: SURFACES.flatMap((surface) => surface.apiPrefixes(config)),
      }),
  },
  { name: 'security headers', install: (app) => installSecurityHeaders(app) },
  { name: 'Expect: 100-continue after the checks', install: (app) => installExpectContinue(app) },
  {
    name: 'the drain',
    install: (app, { draining }) => {
      refuseWhileDraining(app, draining, ['/healthz', '/readyz']);
      closeConnectionsWhileDraining(app.server, draining);
    },
  },
  { name: 'metrics', install: (app, { metrics }) => metrics.install(app) },
  { name: 'compression', install: (app) => installCompression(app) },
  { name: 'large answers', install: (app) => installLargeJson(app) },
  // Route schemas are checked by the contract's validator: no coercion, no stripping (spec).
  { name: 'validation', install: (app) => installValidation(app) },
  // Cookie-borne changes from our own origin only (the route guard), then who each request speaks for
  // (a session cookie or an API key, where the route's declaration lets them count), before any route.
  { name: 'cookies', install: (app) => app.register(cookie) },
  { name: 'cross-site guard', install: (app, { config }) => installRouteGuard(app, config) },
  { name: 'principal', install: (app, { services }) => installPrincipal(app, services) },
  {
    name: 'probes and metrics',
    install: (app, { config, metrics, checks, draining }) =>
      app.register(opsRoutes, { config, metrics, checks, shuttingDown: draining }),
  },
  // The API has no cookies or ambient credentials, so any origin may call it (browser-based clients).
  {
    name: 'CORS',
    install: (app) =>
      app.register(cors, { origin: '*', methods: ['GET', 'POST', 'PUT', 'HEAD', 'OPTIONS'], maxAge: 86400 }),
  },
  { name: 'rate limits', install: (app, { config, redis }) => installRateLimits(app, config, redis) },
];

/** The largest request body any route accepts: a whole chunk, or the JSON limit. */
function largestBody(config: Config): number {
  return Math.max(encryptedLength(config.chunkSizeMiB * MIB), config.maxJsonBodyBytes);
}

/** Fastify's options: the logger, and the bounds on what a slow or idle client can hold. */
function serverOptions(config: Config, options: BuildOptions): FastifyHttpOptions<Server> {
  return {
    logger: options.logger ?? loggerOptions(config.ops.logLevel),
    // One line per request at debug instead (http/logging.ts).
    logController: quietRequests(),
    trustProxy: config.ops.trustProxy,
    bodyLimit: config.maxJsonBodyBytes,
    // Draining is answered by refuseWhileDraining, with a code.
    return503OnClosing: false,
    // The docs routes build the docs site at start when DOCS_URL's path differs from the build's
    // (src/docs/build.ts): rendering and compressing every page took over Fastify's default 10 s on a
    // loaded 2-core machine, which failed the start. A plugin that truly hangs still fails, later.
    pluginTimeout: 120_000,
    ...errorServerOptions(),
    // Bounds on what a slow or idle client can hold (docs/configuration.md#limits): the whole request
    // must arrive within requestTimeout, and a silent connection is closed after connectionTimeout.
    // Chunk bodies also have a minimum rate (http/bodies/chunk-body.ts).
    requestTimeout: config.limits.requestTimeoutMs,
    connectionTimeout: config.limits.connectionTimeoutMs,
    // The request head must arrive within headersTimeout (a header line every
    // 2 s held a connection for good). Node checks its timeouts every connectionsCheckingInterval
    // (30 s by default, longer than the timeout itself): every second instead.
    http: { headersTimeout: config.limits.headersTimeoutMs, connectionsCheckingInterval: 1000 },
  };
}

export async function buildServer(config: Config, options: BuildOptions = {}): Promise<Webfolder> {
  const clock = () => Date.now() + config.clockOffsetSeconds * 1000;
  // The server and its logger first: everything after logs through it.
  const app = Fastify(serverOptions(config, options));
  const backends = await openBackends(config, clock);
  const { store, blobs, redis, keys } = backends;
  const metrics = new Metrics(config, store);
  const logError = (error: unknown, context: string): void => {
    app.log.error({ err: error }, `${context} failed`);
  };
  const notifier = createNotifier(config, store, clock, metrics, logError, keys);
  // AUDIT_STREAM=log: each audit entry as one log line of a stable shape (docs/organisations.md).
  const auditStream = (entry: NewAuditEntry) => app.log.info({ auditEntry: auditView(entry) }, 'audit');
  const services = composeServices({
    config,
    store,
    blobs,
    clock,
    events: notifier,
    keys,
    ...(config.audit.stream === 'log' ? { auditStream } : {}),
  });

  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // @fastify/cors registers its preflight route itself, without a config: it answers anonymously
    // for every path, and no cookie counts on it.
    if (route.url === '*' && route.method === 'OPTIONS' && !policyOf(route.config))
      route.config = { ...route.config, ...routePolicy('api', ['anonymous']) };
    routes.push(route);
  });
  // The migrations this start applied, in one line, so an upgrade's schema change is in the log (docs/deployment.md#upgrades).
  if (store.schema.applied.length > 0)
    app.log.info(
      { store: store.schema.store, migrations: store.schema.applied },
      migrationsLine(store.schema.store, store.schema.applied),
    );
  let shuttingDown = false;
  const pipeline: PipelineContext = {
    config,
    services,
    metrics,
    redis,
    checks: readinessChecks(store, blobs, redis),
    draining: () => shuttingDown,
  };
  // What every request passes through, in order (PIPELINE above), then every surface (SURFACES).
  for (const step of PIPELINE) await step.install(app, pipeline);
  for (const surface of SURFACES) await surface.register(app, services);

  const stopSweeper =
    options.sweeper === false
      ? async () => {}
      : startSweeper(
          services,
          config.sweepIntervalSeconds * 1000,
          (error) => {
            metrics.sweepFailed();
            app.log.error({ err: error }, 'sweep failed');
          },
          (r) => {
            metrics.swept(r);
            if (r.foldersDeleted || r.filesDeleted) app.log.info(r, 'swept expired folders and files');
          },
        );
  if (options.deliveries !== false) notifier.start();
  let metricsServer: Server | null = null;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    shuttingDown = true;
    // Idle keep-alive connections go at once; the rest as soon as their answer is written.
    app.server.closeIdleConnections();
    await stopSweeper();
    // Requests still running when the grace period ends lose their connections: a chunk PUT cut off
    // leaves its temporary file, never a chunk under its final name (the blob stores write whole).
    const force = setTimeout(() => app.server.closeAllConnections(), config.ops.shutdownGraceSeconds * 1000);
    force.unref();
    try {
      await app.close();
    } finally {
      clearTimeout(force);
    }
    metricsServer?.closeAllConnections();
    await Promise.allSettled([notifier.stop(), new Promise((r) => (metricsServer ? metricsServer.close(r) : r(null)))]);
    await backends.close();
  };
  // A start that fails here (the metrics port taken) closes what it started: the store's writer
  // thread, the sweeper and the deliveries would otherwise keep the process alive.
  try {
    if (config.ops.metricsPort !== null) metricsServer = await startMetricsServer(config, metrics);
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { app, services, metrics, notifier, routes, close };
}
