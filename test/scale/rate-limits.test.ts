import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postJson } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';
import { isUnavailable, startRedis } from '../support/services.js';

/**
 * Rate limits through real servers, one suite for each counter store: in process memory (default) and
 * Redis (REDIS_URL). With Redis two servers count together, which is what makes limits hold behind a
 * load balancer; in memory each node counts alone.
 */
interface Harness {
  /** Extra environment for a node. */
  readonly env: Record<string, string>;
  /** Whether nodes share their counters. */
  readonly shared: boolean;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

const LIMITS = { RATE_LIMIT_CREATE: '4', RATE_LIMIT_STATUS: '3', RATE_LIMIT_WINDOW_SECONDS: '120' };

async function create(srv: RunningServer): Promise<{ status: number; headers: Headers; body: { error?: string } }> {
  return postJson<{ error?: string }>(`${srv.baseUrl}/v2/folders`);
}

function assertLimited(res: { status: number; headers: Headers; body: { error?: string } }): void {
  assert.equal(res.status, 429);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(typeof res.body.error, 'string');
  assert.match(res.body.error!, /too many requests/);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 120,
    `Retry-After ${res.headers.get('retry-after')}`,
  );
}

function rateLimitSuite(name: string, factory: () => Promise<Harness | { skip: string }>): void {
  describe(`rate limits: ${name}`, () => {
    let h: Harness | null = null;
    let skip = '';
    const servers: RunningServer[] = [];
    before(async () => {
      const made = await factory();
      if ('skip' in made) skip = made.skip;
      else h = made;
    });
    after(async () => {
      await Promise.allSettled(servers.map((s) => s.close()));
      await h?.stop();
    });
    const node = async (h: Harness) => {
      const srv = await startServer({ ...LIMITS, ...h.env });
      servers.push(srv);
      return srv;
    };

    test('past the limit: 429 with Retry-After and an {error} body; buckets count apart', async (t) => {
      if (!h) return void t.skip(skip);
      await h.reset();
      const srv = await node(h);
      for (let i = 0; i < 4; i++) assert.equal((await create(srv)).status, 200, `create ${i + 1}`);
      assertLimited(await create(srv));
      assertLimited(await create(srv));
      const status = `${srv.baseUrl}/v2/folders/AAAAAAAAAAAAAAAA/files/AAAAAAAAAAAAAAAA/upload-status`;
      for (let i = 0; i < 3; i++) assert.equal((await fetch(status)).status, 404);
      const limited = await fetch(status);
      assertLimited({
        status: limited.status,
        headers: limited.headers,
        body: (await limited.json()) as { error?: string },
      });
    });

    test('two nodes: counters shared through the store, or kept per node', async (t) => {
      if (!h) return void t.skip(skip);
      await h.reset();
      const [a, b] = [await node(h), await node(h)];
      for (let i = 0; i < 4; i++) assert.equal((await create(a)).status, 200);
      assertLimited(await create(a));
      const onB = await create(b);
      if (h.shared) assertLimited(onB);
      else assert.equal(onB.status, 200, 'in memory, another node counts on its own');
    });
  });
}

rateLimitSuite('in memory', async () => ({ env: {}, shared: false, reset: async () => {}, stop: async () => {} }));

rateLimitSuite('Redis', async () => {
  const made = await startRedis();
  if (isUnavailable(made)) return made;
  return { env: { REDIS_URL: made.url }, shared: true, reset: () => made.flush(), stop: () => made.stop() };
});

test('rate limits: Redis going away does not take the API down', async (t) => {
  const redis = await startRedis();
  if (isUnavailable(redis)) return void t.skip(redis.skip);
  const srv = await startServer({ ...LIMITS, REDIS_URL: redis.url });
  try {
    assert.equal((await create(srv)).status, 200);
    await redis.stop();
    // Unlimited while Redis is away (skipOnError), never a 5xx.
    for (let i = 0; i < 6; i++) assert.equal((await create(srv)).status, 200);
  } finally {
    await srv.close();
  }
});
