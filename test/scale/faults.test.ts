import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.js';
import { siteApiPath } from '../../src/http/routes/site.js';
import { chunkBody, chunkUrl, createDirect, slowPut } from '../support/api.js';
import { until } from '../support/poll.js';
import { type SpawnedServer, spawnServer, tempDir } from '../support/server.js';
import {
  isUnavailable,
  type PostgresService,
  type RedisService,
  startPostgres,
  startRedis,
} from '../support/services.js';
import { type Answer, startLoad } from './load.js';

/**
 * Faults of a scale-out deployment, injected into real processes: two API nodes (the server's entry
 * in child processes) on one PostgreSQL and one Redis, under steady load, while PostgreSQL restarts or
 * stays down, Redis is lost, or a node is stopped with SIGTERM. What each fault does and how long the
 * recovery took is printed as a diagnostic (docs/scale-out.md records it).
 *
 * Blobs are on each node's local disk here: these faults are of the metadata database, the counters
 * and the nodes. Object storage lost mid-upload is in s3-faults.test.ts.
 */
const state: { pg?: PostgresService; redis?: RedisService; skip?: string; databaseUrl?: string } = {};
const nodes: SpawnedServer[] = [];
const dirs: string[] = [];
let siteApi = '';

before(async () => {
  const [pgs, redis] = await Promise.all([startPostgres(), startRedis()]);
  if (!isUnavailable(pgs)) state.pg = pgs;
  if (!isUnavailable(redis)) state.redis = redis;
  const missing = [pgs, redis].filter(isUnavailable).map((u) => u.skip);
  if (missing.length > 0) state.skip = missing.join('; ');
  else if (!state.pg?.control || !state.redis?.control)
    state.skip = 'fault tests need PostgreSQL and Redis started by the tests (unset TEST_DATABASE_URL, TEST_REDIS_URL)';
  if (state.skip) return;
  state.databaseUrl = await state.pg!.freshDatabase();
  siteApi = siteApiPath(loadConfig({ DATA_DIR: '/tmp' }));
  nodes.push(...(await Promise.all([startNode(), startNode()])));
});
after(async () => {
  await Promise.allSettled(nodes.map((n) => n.kill()));
  await Promise.allSettled([state.pg?.stop(), state.redis?.stop()]);
  await Promise.allSettled(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function startNode(extra: Record<string, string> = {}): Promise<SpawnedServer> {
  const dataDir = await tempDir('webfolder-fault-node-');
  dirs.push(dataDir);
  return spawnServer({
    DATA_DIR: dataDir,
    DATABASE_URL: state.databaseUrl!,
    REDIS_URL: state.redis!.url,
    RATE_LIMIT_CREATE: '100000',
    RATE_LIMIT_STATUS: '100000',
    RATE_LIMIT_SITE: '100000',
    LOG_LEVEL: 'warn',
    ...extra,
  });
}

/** The nodes are alive, and none logged the crash a checked-out pg client's error used to cause. */
function assertAlive(): void {
  for (const [i, node] of nodes.entries()) {
    assert.equal(node.child.exitCode, null, `node ${i} is still running:\n${node.output().slice(-2000)}`);
    assert.doesNotMatch(node.output(), /Unhandled 'error' event/);
  }
}

/** Every answer was a success or a clean `{error, code}` with one of `allowed` for its route. */
function assertClean(answers: readonly Answer[], allowed: Record<Answer['route'], number[]>): void {
  const resets = answers.filter((a) => a.status === 'reset');
  assert.equal(resets.length, 0, `no connection was reset or refused (${resets.length} were)`);
  const unclean = answers.filter((a) => a.unclean !== undefined);
  assert.deepEqual(unclean, [], 'every refusal is JSON with error and code');
  for (const a of answers) {
    assert.ok(allowed[a.route].includes(a.status as number), `${a.route} answered ${a.status} (${a.code})`);
    if (a.status !== 200) assert.equal(a.code, 'unavailable', `${a.route} ${a.status} says unavailable`);
  }
}

/** Both nodes create a folder again; resolves with the milliseconds from `since`. */
async function bothServe(since: number): Promise<number> {
  await until(
    'both nodes to create folders again',
    async () => {
      const results = await Promise.all(
        nodes.map((n) =>
          fetch(`${n.baseUrl}/v2/folders`, { method: 'POST' })
            .then((r) => r.status)
            .catch(() => 0),
        ),
      );
      return results.every((s) => s === 200);
    },
    30_000,
  );
  return Date.now() - since;
}

/** How many of `ids` are folders in the database. */
async function present(ids: readonly string[]): Promise<number> {
  const db = new pg.Client({ connectionString: state.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM folders WHERE id = ANY($1)', [ids]);
    return Number(rows[0]!.n);
  } finally {
    await db.end();
  }
}

/** The statuses the routes may answer during a database outage: the v2 operations 500, the site 503. */
const DATABASE_DOWN = { create: [200, 500], status: [200, 500], site: [200, 503] };

test('PostgreSQL restarted under load (pg_ctl stop -m fast, start): no node dies, clean errors in the gap, both serve again, nothing acknowledged lost', {
  timeout: 180_000,
}, async (t) => {
  if (state.skip) return void t.skip(state.skip);
  const control = state.pg!.control!;
  for (let round = 1; round <= 2; round++) {
    const load = startLoad(
      nodes.map((n) => n.baseUrl),
      siteApi,
    );
    await until('the load to get going', () => load.acknowledged.length >= 20);
    await control.halt();
    const down = Date.now();
    await control.resume();
    const up = Date.now();
    const recovered = await bothServe(up);
    await until('the load to create folders again', () => load.answers.some((a) => a.at > up && a.status === 200));
    await load.stop();
    assertAlive();
    assertClean(load.answers, DATABASE_DOWN);
    const refused = load.answers.filter((a) => a.status !== 200).length;
    t.diagnostic(
      `round ${round}: restart took ${up - down} ms; both nodes served ${recovered} ms after it; ` +
        `${load.answers.length} answers, ${refused} refused as unavailable, ${load.acknowledged.length} folders acknowledged`,
    );
    assert.equal(await present(load.acknowledged), load.acknowledged.length, 'every acknowledged folder is there');
  }
});

test('PostgreSQL down for a while: /readyz 503 naming the store, /healthz 200, requests answered unavailable; back within seconds of its start', {
  timeout: 180_000,
}, async (t) => {
  if (state.skip) return void t.skip(state.skip);
  const control = state.pg!.control!;
  const load = startLoad(
    nodes.map((n) => n.baseUrl),
    siteApi,
  );
  await until('the load to get going', () => load.acknowledged.length >= 10);
  await control.halt();
  const down = Date.now();
  try {
    // Every route refuses while it is down, on both nodes.
    await until('both nodes to refuse creates as unavailable', () =>
      [0, 1].every((n) =>
        load.answers.some((a) => a.node === n && a.at > down && a.route === 'create' && a.status === 500),
      ),
    );
    for (const node of nodes) {
      const ready = await fetch(`${node.baseUrl}/readyz`);
      assert.equal(ready.status, 503);
      const body = (await ready.json()) as { checks: Record<string, string> };
      assert.match(body.checks.store!, /^down: /);
      assert.equal((await fetch(`${node.baseUrl}/healthz`)).status, 200);
      const site = await fetch(`${node.baseUrl}${siteApi}/folders/${load.acknowledged[0]}`, {
        headers: { accept: 'application/json' },
      });
      assert.equal(site.status, 503);
      assert.deepEqual(await site.json(), { error: 'the database is unavailable: retry shortly', code: 'unavailable' });
      const create = await fetch(`${node.baseUrl}/v2/folders`, { method: 'POST' });
      assert.equal(create.status, 500, 'the v2 contract lists no 503: its operations answer 500 with the code');
      assert.equal(((await create.json()) as { code: string }).code, 'unavailable');
    }
  } finally {
    await control.resume();
  }
  const up = Date.now();
  const recovered = await bothServe(up);
  for (const node of nodes)
    await until('readyz to say ready', async () => (await fetch(`${node.baseUrl}/readyz`)).status === 200);
  await load.stop();
  assertAlive();
  assertClean(load.answers, DATABASE_DOWN);
  t.diagnostic(`down ${up - down} ms; both nodes served ${recovered} ms after PostgreSQL's start`);
  assert.equal(await present(load.acknowledged), load.acknowledged.length);
});

test('Redis lost: nodes serve on without limits and stay ready; reported ok again once it is back', {
  timeout: 120_000,
}, async (t) => {
  if (state.skip) return void t.skip(state.skip);
  const control = state.redis!.control!;
  const load = startLoad(
    nodes.map((n) => n.baseUrl),
    siteApi,
  );
  await until('the load to get going', () => load.acknowledged.length >= 10);
  await control.halt();
  const down = Date.now();
  try {
    await until(
      'the load to go on without Redis',
      () => load.answers.filter((a) => a.at > down + 200 && a.status === 200).length >= 20,
    );
    for (const node of nodes) {
      const ready = await fetch(`${node.baseUrl}/readyz`);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      assert.equal(ready.status, 200, 'Redis holds only counters: a node without it is still ready');
      assert.equal(body.status, 'ready');
      assert.match(body.checks.redis!, /^down: /);
    }
  } finally {
    await control.resume();
  }
  const up = Date.now();
  for (const node of nodes)
    await until('readyz to report Redis ok', async () => {
      const body = (await (await fetch(`${node.baseUrl}/readyz`)).json()) as { checks: Record<string, string> };
      return body.checks.redis === 'ok';
    });
  const recovered = Date.now() - up;
  await load.stop();
  assertAlive();
  // Nothing was refused at all: no route depends on Redis for correctness.
  assertClean(load.answers, { create: [200], status: [200], site: [200] });
  t.diagnostic(`Redis down ${up - down} ms; both nodes reported it ok ${recovered} ms after its start`);
});

test('SIGTERM under load: a chunk upload in flight finishes, new requests are refused or get 503 with a code, the process exits 0 soon after', {
  timeout: 120_000,
}, async (t) => {
  if (state.skip) return void t.skip(state.skip);
  // A third node, so the pair above stays for any test after this one.
  const node = await startNode({ SHUTDOWN_GRACE_SECONDS: '30', CHUNK_SIZE_MIB: '5' });
  const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
  // A chunk upload held half-sent keeps the node draining until it is let go.
  const size = 1_000_000;
  const created = await createDirect(node.baseUrl, [size]);
  const file = created.files[0]!;
  const held = slowPut(chunkUrl(file.uploadUrls, 1), file.uploadUrls.headers, chunkBody(size, file.chunkSize, 1));
  const load = startLoad([node.baseUrl], siteApi, 6);
  // Should a check fail, the load would go round forever and the node wait on the held upload.
  t.after(async () => {
    await load.stop();
    if (node.child.exitCode === null) node.child.kill('SIGKILL');
  });
  await until('the load to get going', () => load.acknowledged.length >= 20);
  const signalled = Date.now();
  node.child.kill('SIGTERM');
  // The draining node takes no new connection and closes each kept-alive one once its answer is
  // written: the load's next requests are refused (the load balancer's cue), or answered 503 with a
  // code where one was already on its way.
  await until('the load to meet the draining node', () =>
    load.answers.some((a) => a.at >= signalled && (a.status === 'reset' || a.code === 'unavailable')),
  );
  const ready = await fetch(`${node.baseUrl}/readyz`).catch(() => null);
  if (ready) assert.equal(ready.status, 503, '/readyz says not ready while draining');
  held.rest();
  assert.equal(await held.status, 200, 'the upload in flight finished');
  const released = Date.now();
  const code = await exited;
  const took = Date.now() - signalled;
  // The drain ends with its last request, not with the 30 s grace period (a generous bound: the
  // machine is shared, and the exit comes about a second after the last answer).
  assert.ok(Date.now() - released < 15_000, `exited ${Date.now() - released} ms after its last request`);
  await load.stop();
  assert.equal(code, 0);
  const during = load.answers.filter((a) => a.at >= signalled);
  // Once the port is closed connections are refused: that is the load balancer's cue, not a failure.
  const answered = during.filter((a) => a.status !== 'reset');
  for (const a of answered) {
    assert.equal(a.unclean, undefined, 'every answer while draining is JSON with error and code');
    if (a.status !== 200) assert.equal(a.code, 'unavailable', `${a.route} ${a.status}`);
  }
  assert.ok(load.answers.filter((a) => a.at < signalled).every((a) => a.status === 200));
  t.diagnostic(
    `exit 0 ${took} ms after SIGTERM (the held upload let go first); after it ${answered.length} answered (${answered.filter((a) => a.status !== 200).length} refused as unavailable), ` +
      `${during.length - answered.length} connections refused`,
  );
  assert.equal(await present(load.acknowledged), load.acknowledged.length);
});
