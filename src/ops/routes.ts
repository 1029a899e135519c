import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { routePolicy } from '../http/callers/route-policy.js';
import { checkReadiness } from './health.js';
import type { Metrics } from './metrics.js';

/**
 * GET /healthz (the process answers), GET /readyz (it can serve: 503 naming what is down) and
 * GET /metrics (Prometheus text). None is rate-limited: they are cheap, and a monitor polling them
 * must not be refused. The metrics tell stored bytes, folder counts and free disk, so they are never
 * public by default: with METRICS_PORT they are served on their own listener
 * (METRICS_HOST, loopback by default); otherwise on the main port only with METRICS_TOKEN, behind
 * `Authorization: Bearer`; with neither, nowhere (the main port answers 404).
 */
export interface OpsRouteOptions {
  readonly config: Config;
  readonly metrics: Metrics;
  readonly checks: Record<string, () => Promise<unknown>>;
  readonly shuttingDown: () => boolean;
}

const READY_TIMEOUT_MS = 2000;

/** Constant-time check of `Authorization: Bearer <token>`. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim(), 'utf8');
  const expected = Buffer.from(token, 'utf8');
  // Compare equal-length buffers whatever was given, so the time does not tell the length either.
  const padded = Buffer.alloc(expected.length);
  given.copy(padded, 0, 0, Math.min(given.length, expected.length));
  return timingSafeEqual(padded, expected) && given.length === expected.length;
}

/** Whether the main port serves /metrics: only behind a token, and only when no own port is set. */
export function metricsOnMainPort(config: Config): boolean {
  return config.ops.metricsPort === null && config.ops.metricsToken !== null;
}

export async function opsRoutes(app: FastifyInstance, options: OpsRouteOptions): Promise<void> {
  const { config, metrics, checks, shuttingDown } = options;
  const noStore = { 'cache-control': 'no-store' };
  const open = { config: routePolicy('ops', ['anonymous']) };
  app.get('/healthz', open, async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }));
  app.get('/readyz', open, async (_request, reply) => {
    const result = await checkReadiness(checks, READY_TIMEOUT_MS, shuttingDown());
    return reply
      .status(result.ready ? 200 : 503)
      .headers(noStore)
      .send({ status: result.ready ? 'ready' : 'not ready', checks: result.checks });
  });
  if (metricsOnMainPort(config)) {
    app.get('/metrics', { config: routePolicy('ops', ['metrics-token']) }, async (request, reply) => {
      const token = config.ops.metricsToken;
      if (token !== null && !bearerMatches(request.headers.authorization, token))
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ error: 'metrics need Authorization: Bearer <METRICS_TOKEN>', code: 'forbidden' });
      return reply
        .headers(noStore)
        .type(metrics.contentType)
        .send(await metrics.text());
    });
  }
}

/** The separate metrics listener (METRICS_HOST:METRICS_PORT): /metrics only, behind METRICS_TOKEN when set. */
export async function startMetricsServer(config: Config, metrics: Metrics): Promise<Server> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, type: string, body: string, extra: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra });
      response.end(body);
    };
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics')
      return send(
        404,
        'application/json',
        JSON.stringify({ error: 'only GET /metrics is served here', code: 'not_found' }),
      );
    const token = config.ops.metricsToken;
    if (token !== null && !bearerMatches(request.headers.authorization, token))
      return send(
        401,
        'application/json',
        JSON.stringify({ error: 'metrics need Authorization: Bearer <METRICS_TOKEN>', code: 'forbidden' }),
        {
          'www-authenticate': 'Bearer realm="metrics"',
        },
      );
    metrics.text().then(
      (text) => send(200, metrics.contentType, text),
      () => send(500, 'application/json', JSON.stringify({ error: 'metrics unavailable', code: 'internal_error' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.ops.metricsPort!, config.ops.metricsHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
