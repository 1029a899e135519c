import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { RouteOptions } from 'fastify';
import { hashToken, newId, newToken } from '../../src/domain/ids.js';
import { policyOf, type RoutePolicy } from '../../src/http/callers/route-policy.js';
import { newApiKey, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';

/**
 * Every route declares what it is and who may call it (src/http/callers/route-policy.ts), and one guard
 * enforces it (src/http/callers/route-guard.ts). This walks every route the server registered (with sign-in
 * on, so the sign-in, account and admin routes exist) and proves each declaration from outside
 * against a real server and a real OpenID provider: a route without one fails here; every route where
 * the session cookie counts refuses a change made with it from a foreign origin, `null`, another port
 * of the host, a suffix domain or no Origin at all, with a clean 4xx `{error, code}`, and accepts it
 * from the instance's own origin; where it does not count, the cookie makes no one anyone; a key is
 * read only where keys count; a wrong ADMIN_TOKEN is refused on every admin route.
 */
const SURFACES = ['api', 'chunk', 'site', 'page', 'agents', 'account', 'admin', 'auth', 'discovery', 'docs', 'ops'];
const CREDENTIALS = [
  'anonymous',
  'owner-token',
  'visitor-token',
  'upload-auth',
  'signed-url',
  'download-ticket',
  'session',
  'api-key',
  'admin',
  'metrics-token',
];
const ADMIN_TOKEN = 'a-break-glass-token-of-enough-length-0123456789';
const BOGUS_KEY = `wfk_${'A'.repeat(43)}`;
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Endpoint {
  readonly method: string;
  readonly url: string;
  readonly policy: RoutePolicy | undefined;
}

/** Each method of each registered route, once. */
function endpoints(routes: readonly RouteOptions[]): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const route of routes)
    for (const method of [route.method].flat())
      seen.set(`${method} ${route.url}`, { method, url: route.url, policy: policyOf(route.config) });
  return [...seen.values()];
}

/** A concrete path for a route pattern: every parameter and wildcard filled in with a well-formed id. */
function pathOf(url: string): string {
  if (url === '*') return '/any/path';
  return url
    .replace(/:chunk\b/, '00001')
    .replace(/:[A-Za-z]+/g, 'AAAAAAAAAAAAAAAA')
    .replace(/\*$/, 'x');
}

let provider: OidcFixture;
let node: RunningServer;
let alice: string;
let root: string;
let aliceKey: string;
let aliceAccount = '';
const aliceId = () => aliceAccount;
let otherPort: number;

before(async () => {
  const port = await freePort();
  otherPort = await freePort();
  provider = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
  node = await startServer(
    {
      ...provider.serverEnv(),
      ADMIN_TOKEN,
      METRICS_TOKEN: 'metrics-token-of-enough-length-0123456789',
      CREATE_POLICY: 'signed-in',
      RATE_LIMIT_SITE: '100000',
      RATE_LIMIT_CREATE: '100000',
      RATE_LIMIT_AGENTS: '100000',
    },
    { port },
  );
  alice = await provider.sessionCookie(node.baseUrl, 'alice');
  root = await provider.sessionCookie(node.baseUrl, 'root');
  aliceKey = (await newApiKey(node.baseUrl, alice, 'route table')).apiKey;
  const me = await fetch(`${node.baseUrl}/api/account`, { headers: { cookie: alice } });
  aliceAccount = ((await me.json()) as { account: { id: string } }).account.id;
});
after(async () => {
  await node?.close();
  await provider?.stop();
});

/** Sends one request to the route: an empty text/plain body on a change, or the JSON body given. */
async function send(endpoint: Endpoint, headers: Record<string, string>, json?: unknown) {
  const body = json !== undefined ? JSON.stringify(json) : SAFE.has(endpoint.method) ? undefined : '';
  const type = json !== undefined ? 'application/json' : 'text/plain';
  const response = await fetch(`${node.baseUrl}${pathOf(endpoint.url)}`, {
    method: endpoint.method,
    redirect: 'manual',
    headers: { ...(body === undefined ? {} : { 'content-type': type }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

/** The error code of a refusal: `{error, code}`, or JSON-RPC's `error.data.code` on the agent surfaces. */
function codeOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { code?: string; error?: string | { data?: { code?: string } } };
    if (typeof body.error === 'object') return body.error.data?.code;
    return typeof body.error === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

const cookieChanges = () =>
  endpoints(node.server.routes).filter((e) => e.policy?.cookie && !SAFE.has(e.method) && e.url !== '/auth/logout');

describe('the route table', () => {
  test('every registered route declares its surface, the credentials it accepts and whether the cookie counts', () => {
    const all = endpoints(node.server.routes);
    assert.ok(all.length > 100, `only ${all.length} routes`);
    const undeclared = all.filter((e) => !e.policy).map((e) => `${e.method} ${e.url}`);
    assert.deepEqual(undeclared, [], 'routes without a declaration');
    for (const { method, url, policy } of all) {
      assert.ok(SURFACES.includes(policy!.surface), `${method} ${url}: ${policy!.surface}`);
      assert.ok(policy!.accepts.length > 0, `${method} ${url} accepts nothing`);
      for (const c of policy!.accepts) assert.ok(CREDENTIALS.includes(c), `${method} ${url}: ${c}`);
      // The cookie counts only where a session is a credential of the route.
      assert.equal(policy!.cookie, policy!.accepts.includes('session'), `${method} ${url}`);
    }
    // The routes the plugins register (static files, the CORS preflight) are declared too.
    const urls = new Set(all.map((e) => `${e.method} ${e.url}`));
    for (const expected of ['OPTIONS *', 'GET /assets/*', 'GET /docs/_assets/*', 'POST /auth/logout'])
      assert.ok(urls.has(expected), `${expected} is registered`);
  });

  test('a cookie-borne change from anywhere but this instance is refused with 403 forbidden, before anything runs', async () => {
    const own = new URL(node.baseUrl);
    const foreign = [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${otherPort}`,
      `http://localhost:${own.port}`,
      `https://127.0.0.1:${own.port}`,
      `${node.baseUrl}.evil.example`,
      `${node.baseUrl}/`,
      undefined,
    ];
    const changes = cookieChanges();
    assert.ok(changes.length >= 15, `${changes.length} cookie-borne changes`);
    for (const endpoint of changes)
      for (const origin of foreign) {
        const answer = await send(endpoint, { cookie: root, ...(origin === undefined ? {} : { origin }) });
        const what = `${endpoint.method} ${endpoint.url} from ${origin ?? 'no Origin'}`;
        assert.equal(answer.status, 403, `${what}: ${answer.text}`);
        assert.equal(codeOf(answer.text), 'forbidden', what);
        assert.match(answer.text, /sign-in cookie/, what);
        assert.equal(answer.headers.get('access-control-allow-origin'), null, `${what}: not readable by the page`);
      }
    // The same requests from the instance's own origin pass the guard (and meet the route's own checks).
    for (const endpoint of changes) {
      const answer = await send(endpoint, { cookie: root, origin: node.baseUrl });
      assert.doesNotMatch(answer.text, /sign-in cookie/, `${endpoint.method} ${endpoint.url}`);
      assert.ok(answer.status < 500, `${endpoint.method} ${endpoint.url}: ${answer.status} ${answer.text}`);
    }
  });

  test('sign-out from another origin, another port or without Origin keeps the session; from our pages it ends it', async () => {
    const account = async () =>
      (
        (await (await fetch(`${node.baseUrl}/api/account`, { headers: { cookie: alice } })).json()) as {
          account: { email: string } | null;
        }
      ).account;
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${otherPort}`, undefined]) {
      const out = await fetch(`${node.baseUrl}/auth/logout`, {
        method: 'POST',
        headers: { cookie: alice, 'content-type': 'text/plain', ...(origin ? { origin } : {}) },
        body: '',
      });
      assert.equal(out.status, 403, String(origin));
      assert.equal(codeOf(await out.text()), 'forbidden');
      assert.equal(out.headers.getSetCookie().length, 0, 'the cookie is not cleared');
      assert.equal((await account())?.email, 'alice@example.com', `still signed in after ${origin}`);
    }
    const signOut = await fetch(`${node.baseUrl}/auth/logout`, {
      method: 'POST',
      headers: { cookie: alice, origin: node.baseUrl },
    });
    assert.equal(signOut.status, 204);
    assert.equal(await account(), null);
    alice = await provider.sessionCookie(node.baseUrl, 'alice');
  });

  test('where the cookie does not count, it makes no one anyone: the API, v1 and the agents need a key', async () => {
    const sameSite = `http://127.0.0.1:${otherPort}`;
    // A plain form on a page of the same site can send the first two.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json'])
      for (const origin of [sameSite, undefined]) {
        const create = await fetch(`${node.baseUrl}/v2/folders`, {
          method: 'POST',
          headers: { cookie: alice, 'content-type': type, ...(origin ? { origin } : {}) },
          body: type === 'application/json' ? '{}' : '',
        });
        const text = await create.text();
        assert.equal(create.status, 400, `${type}: ${text}`);
        assert.equal(codeOf(text), 'sign_in_required', `${type} from ${origin}: the cookie alone is anonymous`);
      }
    const keyed = await fetch(`${node.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(keyed.status, 200);
    const { folderId } = (await keyed.json()) as { folderId: string };
    assert.notEqual((await node.server.services.store.getFolder(folderId))?.accountId, null, 'the key counts');

    const v1 = await fetch(`${node.baseUrl}/v1/delivery-webfolder`, {
      method: 'POST',
      headers: { cookie: alice, origin: sameSite, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 't', ske: 'c2tl', files: [{ filename: 'Zg', filesize: 1 }] }),
    });
    assert.equal(codeOf(await v1.text()), 'sign_in_required');

    const mcp = await fetch(`${node.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        cookie: alice,
        origin: sameSite,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_share_folder', arguments: { title: 'From a page' } },
      }),
    });
    const mcpText = await mcp.text();
    assert.doesNotMatch(mcpText, /folderUrl/, mcpText);
    assert.match(mcpText, /sign_in_required/, mcpText);

    const a2a = await fetch(`${node.baseUrl}/a2a`, {
      method: 'POST',
      headers: { cookie: alice, origin: sameSite, 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'm1',
            role: 'user',
            parts: [{ kind: 'text', text: 'Create a folder' }],
          },
        },
      }),
    });
    const a2aText = await a2a.text();
    assert.doesNotMatch(a2aText, /folderUrl/, a2aText);
    assert.match(a2aText, /sign_in_required/, a2aText);
  });

  test('the site create with the cookie from another port is refused; from our pages it is the person’s', async () => {
    const body = JSON.stringify({ mode: 'send', ske: 'c2tl' });
    const headers = {
      cookie: alice,
      'content-type': 'application/json',
      'x-owner-token': randomBytes(32).toString('base64url'),
    };
    for (const origin of [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${otherPort}`,
      `${node.baseUrl}.evil.example`,
    ]) {
      const refused = await fetch(`${node.baseUrl}/api/site/folders`, {
        method: 'POST',
        headers: { ...headers, origin },
        body,
      });
      assert.equal(refused.status, 403, origin);
      assert.equal(codeOf(await refused.text()), 'forbidden');
    }
    const myFolders = async () =>
      (
        (await (await fetch(`${node.baseUrl}/api/account/folders`, { headers: { cookie: alice } })).json()) as {
          folders: unknown[];
        }
      ).folders.length;
    const before = await myFolders();
    const mine = await fetch(`${node.baseUrl}/api/site/folders`, {
      method: 'POST',
      headers: { ...headers, origin: node.baseUrl },
      body,
    });
    assert.equal(mine.status, 201, await mine.clone().text());
    const { folderId } = (await mine.json()) as { folderId: string };
    assert.equal((await node.server.services.store.getFolder(folderId))?.accountId, aliceId());
    assert.equal(await myFolders(), before + 1, 'only the create from our pages is in My folders');
  });

  test('a key is read only where keys count; a wrong one is refused there with api_key_invalid', async () => {
    for (const endpoint of endpoints(node.server.routes)) {
      // A HEAD answer has no body to read the code from: its GET says the same.
      if (['OPTIONS', 'HEAD'].includes(endpoint.method) || endpoint.url === '/auth/logout') continue;
      const answer = await send(endpoint, { authorization: `Bearer ${BOGUS_KEY}` });
      const what = `${endpoint.method} ${endpoint.url}: ${answer.status} ${answer.text.slice(0, 200)}`;
      assert.ok(answer.status < 500, what);
      const code = codeOf(answer.text);
      if (endpoint.policy?.accepts.includes('api-key')) {
        assert.equal(code, 'api_key_invalid', what);
        assert.ok([400, 401].includes(answer.status), what);
      } else assert.notEqual(code, 'api_key_invalid', what);
    }
    // Keys cannot manage keys: the key is not read there, so it is no one.
    const keyOnly = await fetch(`${node.baseUrl}/api/account/keys`, {
      headers: { authorization: `Bearer ${aliceKey}` },
    });
    assert.equal(keyOnly.status, 401);
    assert.equal(codeOf(await keyOnly.text()), 'sign_in_required');
  });

  test('every admin route refuses a wrong ADMIN_TOKEN and a person who is not an admin; the right token works beside any cookie', async () => {
    const admin = endpoints(node.server.routes).filter((e) => e.policy?.accepts.includes('admin'));
    assert.ok(admin.length >= 8, `${admin.length} admin routes`);
    // A well-formed body for each change (a malformed one is a 400 for anyone, before the admin check).
    const bodies: Record<string, unknown> = {
      'POST /api/admin/folders/:folderId/take-down': { reason: 'terms' },
      'PUT /api/admin/accounts/:accountId/quota': { bytes: null },
    };
    for (const endpoint of admin) {
      const own = { origin: node.baseUrl };
      const body = bodies[`${endpoint.method} ${endpoint.url}`];
      const wrong = await send(endpoint, { ...own, authorization: `Bearer ${ADMIN_TOKEN}x` }, body);
      assert.equal(wrong.status, 401, `${endpoint.method} ${endpoint.url}`);
      if (endpoint.method !== 'HEAD') assert.equal(codeOf(wrong.text), 'forbidden');
      const person = await send(endpoint, { ...own, cookie: alice }, body);
      assert.equal(person.status, 403, `${endpoint.method} ${endpoint.url}`);
      const key = await send(endpoint, { ...own, authorization: `Bearer ${aliceKey}` }, body);
      assert.equal(key.status, 403, `${endpoint.method} ${endpoint.url} with a non-admin's key`);
      if (!SAFE.has(endpoint.method)) continue;
      const breakGlass = await send(endpoint, { ...own, cookie: alice, authorization: `Bearer ${ADMIN_TOKEN}` });
      assert.ok(![401, 403].includes(breakGlass.status), `${endpoint.method} ${endpoint.url}: ${breakGlass.text}`);
    }
  });

  test('the metrics route refuses a wrong METRICS_TOKEN, a session and an API key with 401 {error, code}', async () => {
    const metrics = endpoints(node.server.routes).filter((e) => e.policy?.accepts.includes('metrics-token'));
    assert.deepEqual(
      metrics.map((e) => `${e.method} ${e.url}`),
      ['GET /metrics', 'HEAD /metrics'],
    );
    const attempts: Record<string, string>[] = [
      { authorization: 'Bearer metrics-token-of-enough-length-0123456789x' },
      { cookie: root, origin: node.baseUrl },
      { authorization: `Bearer ${aliceKey}` },
    ];
    for (const headers of attempts) {
      const answer = await send(metrics[0]!, headers);
      assert.equal(answer.status, 401);
      assert.equal(codeOf(answer.text), 'forbidden');
    }
  });

  test('CORS never allows credentials, on any route: a foreign page cannot send the cookie with a readable request', async () => {
    for (const endpoint of endpoints(node.server.routes)) {
      if (endpoint.url === '/auth/logout') continue;
      const answer = await send(endpoint, { origin: 'http://evil.example', cookie: root });
      assert.equal(answer.headers.get('access-control-allow-credentials'), null, `${endpoint.method} ${endpoint.url}`);
      const allowed = answer.headers.get('access-control-allow-origin');
      assert.ok(allowed === null || allowed === '*', `${endpoint.method} ${endpoint.url}: ${allowed}`);
    }
    for (const path of ['/api/admin/folders', '/api/account', '/api/account/keys']) {
      const preflight = await fetch(`${node.baseUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'http://evil.example', 'access-control-request-method': 'DELETE' },
      });
      assert.equal(preflight.headers.get('access-control-allow-credentials'), null, path);
    }
  });
});

describe('an instance whose site and API have different origins', () => {
  let split: RunningServer;
  let cookie: string;
  before(async () => {
    const port = await freePort();
    // The site at WEB_URL's origin, the API at BASE_URL's: both are the instance's own.
    split = await startServer(
      {
        BASE_URL: `http://127.0.0.1:${port}`,
        WEB_URL: `http://localhost:${port}/site`,
        OIDC_ISSUER: 'http://127.0.0.1:9/unused',
        OIDC_CLIENT_ID: 'webfolder',
      },
      { port },
    );
    // The issuer is read only at the first sign-in: the session is made in the store.
    const accounts = split.server.services.store.accounts;
    const now = Date.now();
    const account = await accounts.signIn({
      newId: newId(),
      issuer: 'http://127.0.0.1:9/unused',
      subject: 'split',
      email: null,
      name: null,
      admin: false,
      now,
    });
    const session = newToken();
    await accounts.createSession({
      idHash: hashToken(session),
      accountId: account.id,
      createdAt: now,
      expiresAt: now + 3_600_000,
    });
    cookie = `wf_session=${session}`;
  });
  after(async () => split?.close());

  test('a change with the cookie passes from either own origin, exactly, and from nowhere else', async () => {
    const port = new URL(split.baseUrl).port;
    const revoke = (origin: string) =>
      fetch(`${split.baseUrl}/site/api/account/keys/AAAAAAAAAAAAAAAA`, {
        method: 'DELETE',
        headers: { cookie, origin },
      });
    for (const own of [`http://localhost:${port}`, `http://127.0.0.1:${port}`])
      assert.equal((await revoke(own)).status, 404, `${own}: past the guard, no such key`);
    for (const foreign of [
      `http://localhost:${otherPort}`,
      `http://localhost:${port}/site`,
      `http://localhost`,
      'null',
    ]) {
      const refused = await revoke(foreign);
      assert.equal(refused.status, 403, foreign);
      assert.equal(codeOf(await refused.text()), 'forbidden');
    }
  });
});
