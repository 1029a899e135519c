import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config/config.js';

/**
 * Per-client-address rate limits (@fastify/rate-limit), in named buckets. The counters live in
 * process memory by default and in Redis when REDIS_URL is set, so that limits hold across nodes.
 * Routes opt in with `config: { rateLimit: rateLimitFor(config, 'create') }`; routes that share a
 * bucket (the REST create and the agent surfaces' create) share its groupId.
 */
export type Bucket = 'create' | 'status' | 'chunk' | 'site' | 'agents';

export async function installRateLimits(app: FastifyInstance, config: Config, redis: Redis | null): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'webfolder-rl:' } : {}),
    // Redis down must not take the API down with it.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`too many requests: retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds`), { statusCode: 429 }),
  });
}

export function rateLimitFor(config: Config, bucket: Bucket) {
  return { max: config.rateLimit[bucket], timeWindow: config.rateLimit.windowSeconds * 1000, groupId: bucket };
}
