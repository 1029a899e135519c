import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { GateFor } from '../agents/create-gate.js';
import { RateLimited } from '../app/errors.js';
import type { Config } from '../config/config.js';

/**
 * Per-client-address rate limits (@fastify/rate-limit), in named buckets. The counters live in
 * process memory by default and in Redis when REDIS_URL is set, so that limits hold across nodes.
 * Routes opt in with `config: { rateLimit: rateLimitFor(config, 'status') }`, each route counting on
 * its own; the create budget is the one exception, shared across routes (installCreateGate).
 */
export type Bucket = 'status' | 'chunk' | 'site' | 'agents';

export async function installRateLimits(app: FastifyInstance, config: Config, redis: Redis | null): Promise<void> {
  if (redis) await watchRedis(app, redis);
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'webfolder-rl:' } : {}),
    // Redis down must not take the API down with it.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`too many requests: retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds`), { statusCode: 429 }),
  });
}

/**
 * The one create budget of the service, shared by POST /v2/folders and the agent surfaces' create
 * tool and skill. @fastify/rate-limit keeps a store per route, so a shared budget must be a single
 * limiter object; it is created once here and decorated onto the root instance as `createGate`.
 */
export function installCreateGate(app: FastifyInstance, config: Config): void {
  const limiter = app.createRateLimit({ max: config.rateLimit.create, timeWindow: config.rateLimit.windowSeconds * 1000, keyGenerator: (r) => `create:${normalizeIP(r.ip)}` });
  const gateFor: GateFor = (request) => async () => {
    // The plugin appends the calling route's own groupId to the key, which would split this budget
    // per route; so the limiter sees only the client address, not the route.
    const subject = { ip: request.ip, routeOptions: { config: {} } } as unknown as FastifyRequest;
    const result = await limiter(subject);
    if (!result.isAllowed && result.isExceeded) {
      const seconds = Math.max(1, result.ttlInSeconds);
      throw new RateLimited(`too many requests: retry in ${seconds} seconds`, seconds);
    }
  };
  app.decorate('createGate', gateFor);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared create budget: call `app.createGate(request)()` before creating a folder. */
    createGate: GateFor;
  }
}

export function rateLimitFor(config: Config, bucket: Bucket) {
  return { max: config.rateLimit[bucket], timeWindow: config.rateLimit.windowSeconds * 1000, groupId: bucket };
}

/** How long a starting node waits for Redis before it serves (unlimited) without it. */
const REDIS_READY_TIMEOUT_MS = 5000;

/**
 * Logs Redis going away and coming back (once per change, not on every reconnect attempt), and waits
 * at start, bounded, until the client is connected: with the offline queue off, a command sent while
 * connecting fails, and skipOnError would let those first requests through uncounted.
 */
async function watchRedis(app: FastifyInstance, redis: Redis): Promise<void> {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    app.log.warn({ err: error }, 'rate-limit Redis is unreachable: requests are not limited until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    app.log.info('rate-limit Redis is reachable again');
  });
  // quit() waits for a connection that may never come back; once the server is closed nothing is
  // left to count, so drop the connection and stop reconnecting.
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  if (redis.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), REDIS_READY_TIMEOUT_MS);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
  if (!ready) app.log.warn(`rate-limit Redis not ready after ${REDIS_READY_TIMEOUT_MS / 1000} s: starting without shared limits until it is`);
}
