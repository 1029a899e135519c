import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimited } from '../../app/errors.js';
import type { Config } from '../../config/config.js';
import { PerKeyLimit } from './per-key-limit.js';

/**
 * Per-client-address rate limits (@fastify/rate-limit), in named buckets, each with its own limit
 * (RATE_LIMIT_<BUCKET> per RATE_LIMIT_WINDOW_SECONDS). A bucket is one counter per client, shared by
 * every route and surface that spends from it: creating a folder costs from `create` whether it
 * comes through POST /v2/folders, the MCP tool or the A2A skill. The counters live in process memory
 * by default and in Redis when REDIS_URL is set, so that limits hold across nodes.
 */
export const BUCKETS = ['create', 'status', 'chunk', 'site', 'agents'] as const;
export type Bucket = (typeof BUCKETS)[number];

export async function installRateLimits(app: FastifyInstance, config: Config, redis: Redis | null): Promise<void> {
  if (redis) await watchRedis(app, redis);
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'webfolder-rl:' } : {}),
    // Redis down must not take the API down with it.
    skipOnError: true,
  });
  // @fastify/rate-limit keeps a store per route, so a bucket shared by several routes must be one
  // limiter object, made once here.
  const window = config.rateLimit.windowSeconds * 1000;
  const limiters = new Map(
    BUCKETS.map((bucket) => [
      bucket,
      app.createRateLimit({
        max: config.rateLimit[bucket],
        timeWindow: window,
        keyGenerator: (r) => `${bucket}:${normalizeIP(r.ip)}`,
      }),
    ]),
  );
  app.decorate('spend', async (bucket: Bucket, request: FastifyRequest) => {
    // The plugin appends the calling route's own groupId to the key, which would split a bucket per
    // route; so the limiter sees only the client address.
    const subject = { ip: request.ip, routeOptions: { config: {} } } as unknown as FastifyRequest;
    const result = await limiters.get(bucket)!(subject);
    if (!result.isAllowed && result.isExceeded) {
      const seconds = Math.max(1, result.ttlInSeconds);
      throw new RateLimited(`too many requests: retry in ${seconds} seconds`, seconds);
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts one request of this client against `bucket`; throws RateLimited (429) past the limit. */
    spend(bucket: Bucket, request: FastifyRequest): Promise<void>;
  }
}

/** Route options that count every request of the route against `bucket`, before its body is read. */
export function limitedBy(bucket: Bucket) {
  return { onRequest: async (request: FastifyRequest) => request.server.spend(bucket, request) };
}

/**
 * A per-client cap on requests in flight at once (MAX_CONCURRENT_CHUNK_UPLOADS for chunk PUTs): a
 * request over it answers 429 before its body is read. Counted per node, in memory: a request holds
 * a connection on one node, so that is where its cost is. The count drops when the response is done
 * or the connection is gone, whichever comes first.
 */
export function concurrentPerClient(max: number, what: string) {
  const inFlight = new PerKeyLimit(max);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const release = inFlight.take(normalizeIP(request.ip));
    if (!release) throw new RateLimited(`too many ${what} at once from this address: at most ${max}`, 1);
    reply.raw.once('close', release);
  };
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
  if (!ready)
    app.log.warn(
      `rate-limit Redis not ready after ${REDIS_READY_TIMEOUT_MS / 1000} s: starting without shared limits until it is`,
    );
}
