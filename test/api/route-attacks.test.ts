import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { newApiKey, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';

/**
 * The route declarations and their one guard (src/http/callers/route-policy.ts, src/http/callers/route-guard.ts),
 * attacked from outside as a foreign page, a sibling site or a crafted client would, against a real
 * server with sign-in through a real OpenID provider. test/api/route-policy.test.ts proves each
 * declaration with the plain foreign origins; this file tries the tricks around them: odd and doubled
 * `Origin` headers, Fetch Metadata without `Origin`, other methods and method overrides, path
 * spellings that might reach a route without its declaration, the plugins' own routes, doubled and
 * misnamed cookies, a cookie beside a key or the admin token, and planted sign-in state aiming the
 * post-sign-in redirect elsewhere. Each attack asserts the refusal and that nothing changed.
 */
const ADMIN_TOKEN = 'a-break-glass-token-of-enough-length-0123456789';

let provider: OidcFixture;
let node: RunningServer;
let own: string;
let otherPort: number;
let alice: string;
let aliceSession: string;
let bob: string;
let aliceKey: string;

/** A request over a raw socket: the path, method and header list exactly as given (doubled headers too). */
function raw(
  method: string,
  path: string,
  headers: readonly [string, string][],
  body = '',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { hostname, port } = new URL(own);
  return new Promise((resolve, reject) => {
    // An array of headers is sent as given: Node adds no Host to it.
    const flat = [
      ...(headers.some(([name]) => name === 'host') ? [] : ['host', `${hostname}:${port}`]),
      ...headers.flat(),
    ];
    if (body) flat.push('content-length', String(Buffer.byteLength(body)));
    const req = httpRequest({ host: hostname, port, method, path, headers: flat }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = (value: unknown) => JSON.stringify(value);

/** The names of alice's live API keys, as her own page sees them. */
async function aliceKeys(): Promise<string[]> {
  const answer = await fetch(`${own}/api/account/keys`, { headers: { cookie: alice } });
  assert.equal(answer.status, 200);
  return ((await answer.json()) as { keys: { name: string }[] }).keys.map((k) => k.name).sort();
}

/** How many folders alice's My folders lists. */
async function aliceFolders(): Promise<number> {
  const answer = await fetch(`${own}/api/account/folders`, { headers: { cookie: alice } });
  assert.equal(answer.status, 200);
  return ((await answer.json()) as { folders: unknown[] }).folders.length;
}

/** Who the cookie or key in `headers` is on the account route: an e-mail address, or null. */
async function whoIs(headers: Record<string, string>): Promise<string | null> {
  const answer = await fetch(`${own}/api/account`, { headers });
  assert.equal(answer.status, 200);
  return ((await answer.json()) as { account: { email: string } | null }).account?.email ?? null;
}

function codeOf(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** A site folder made by alice from her own page: the admin attacks need one to act on. */
async function aliceFolder(): Promise<string> {
  const made = await fetch(`${own}/api/site/folders`, {
    method: 'POST',
    headers: {
      cookie: alice,
      origin: own,
      'content-type': 'application/json',
      'x-owner-token': randomBytes(32).toString('base64url'),
    },
    body: json({ mode: 'send', ske: 'c2tl' }),
  });
  assert.equal(made.status, 201, await made.clone().text());
  return ((await made.json()) as { folderId: string }).folderId;
}

before(async () => {
  const port = await freePort();
  otherPort = await freePort();
  provider = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
  node = await startServer(
    {
      ...provider.serverEnv(),
      ADMIN_TOKEN,
      CREATE_POLICY: 'signed-in',
      RATE_LIMIT_SITE: '100000',
      RATE_LIMIT_CREATE: '100000',
      RATE_LIMIT_AGENTS: '100000',
    },
    { port },
  );
  own = node.baseUrl;
  alice = await provider.sessionCookie(own, 'alice');
  aliceSession = alice.slice('wf_session='.length);
  bob = await provider.sessionCookie(own, 'bob');
  aliceKey = (await newApiKey(own, alice, 'cli')).apiKey;
});
after(async () => {
  await node?.close();
  await provider?.stop();
});

describe('Origin tricks on a cookie-borne change', () => {
  const makeKey = (headers: [string, string][]) =>
    raw(
      'POST',
      '/api/account/keys',
      [['cookie', alice], ['content-type', 'application/json'], ...headers],
      json({ name: 'planted' }),
    );

  test('origins that only look like ours are refused, and no key is made', async () => {
    const port = new URL(own).port;
    const lookalikes = [
      own.toUpperCase(),
      `HTTP://127.0.0.1:${port}`,
      `http://127.0.0.1.:${port}`,
      `http://127.0.0.1:0${port}`,
      `${own}/`,
      `${own}/api/account`,
      `${own}.`,
      `${own}@evil.example`,
      `http://evil.example/${own}`,
      `http://evil.example?${own}`,
      `http://127.1:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      `ws://127.0.0.1:${port}`,
      `http://127.0.0.1:${otherPort}`,
      'null',
      '',
    ];
    for (const origin of lookalikes) {
      const answer = await makeKey([['origin', origin]]);
      assert.equal(answer.status, 403, `${origin}: ${answer.text}`);
      assert.equal(codeOf(answer.text), 'forbidden', origin);
    }
    assert.deepEqual(await aliceKeys(), ['cli']);
  });

  test('a doubled Origin (ours and a foreign one, either order) is refused', async () => {
    for (const pair of [
      [own, 'http://evil.example'],
      ['http://evil.example', own],
      [own, own],
      ['null', own],
    ]) {
      const answer = await makeKey(pair.map((o) => ['origin', o] as [string, string]));
      assert.equal(answer.status, 403, `${pair.join(' + ')}: ${answer.text}`);
    }
    assert.deepEqual(await aliceKeys(), ['cli']);
  });

  test('without Origin, no Fetch Metadata or Referer stands in for it', async () => {
    const stand_ins: [string, string][][] = [
      [['sec-fetch-site', 'same-origin']],
      [['sec-fetch-site', 'none']],
      [['sec-fetch-site', 'cross-site']],
      [['referer', `${own}/`]],
      [
        ['sec-fetch-site', 'same-origin'],
        ['sec-fetch-mode', 'cors'],
        ['referer', `${own}/`],
        ['x-requested-with', 'XMLHttpRequest'],
      ],
      [['host', 'evil.example']],
      [['x-forwarded-host', 'evil.example']],
    ];
    for (const headers of stand_ins) {
      const answer = await makeKey(headers);
      assert.equal(answer.status, 403, `${JSON.stringify(headers)}: ${answer.text}`);
    }
    assert.deepEqual(await aliceKeys(), ['cli']);
  });

  test('a form-encoded or text body from a foreign page changes nothing either', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await raw(
        'POST',
        '/api/account/keys',
        [
          ['cookie', alice],
          ['origin', `http://127.0.0.1:${otherPort}`],
          ['content-type', type],
        ],
        '{"name":"planted"}',
      );
      assert.equal(answer.status, 403, type);
    }
    assert.deepEqual(await aliceKeys(), ['cli']);
  });
});

describe('other methods, overrides and path spellings', () => {
  test('a method override header does not turn a request into another method', async () => {
    const [key] = (
      (await (await fetch(`${own}/api/account/keys`, { headers: { cookie: alice } })).json()) as {
        keys: { id: string }[];
      }
    ).keys;
    for (const header of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      const get = await raw('GET', `/api/account/keys/${key!.id}`, [
        ['cookie', alice],
        ['origin', 'http://evil.example'],
        [header, 'DELETE'],
      ]);
      assert.ok(get.status === 404 || get.status === 405, `${header}: ${get.status}`);
      const post = await raw(
        'POST',
        '/api/account/keys',
        [
          ['cookie', alice],
          ['origin', 'http://evil.example'],
          ['content-type', 'application/json'],
          [header, 'GET'],
        ],
        json({ name: 'planted' }),
      );
      assert.equal(post.status, 403, header);
    }
    assert.deepEqual(await aliceKeys(), ['cli']);
  });

  test('other methods on the cookie routes find no route and change nothing', async () => {
    for (const method of ['PATCH', 'PUT', 'PROPFIND', 'MKCOL', 'COPY', 'SEARCH', 'TRACE', 'HEAD', 'OPTIONS']) {
      for (const path of ['/api/account/keys', '/auth/logout']) {
        const answer = await raw(
          method,
          path,
          [
            ['cookie', alice],
            ['origin', 'http://evil.example'],
            ['content-type', 'application/json'],
          ],
          ['HEAD', 'OPTIONS', 'TRACE'].includes(method) ? '' : json({ name: 'planted' }),
        );
        assert.ok(answer.status < 500, `${method} ${path}: ${answer.status}`);
        assert.notEqual(answer.headers['access-control-allow-credentials'], 'true', `${method} ${path}`);
        assert.equal(answer.headers['set-cookie'], undefined, `${method} ${path} touches no cookie`);
      }
    }
    assert.deepEqual(await aliceKeys(), ['cli']);
    assert.equal(await whoIs({ cookie: alice }), 'alice@example.com', 'still signed in');
  });

  test('sign-out by GET, a link or an image, keeps the session', async () => {
    for (const headers of [{}, { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' }] as Record<
      string,
      string
    >[]) {
      const answer = await fetch(`${own}/auth/logout`, { headers: { cookie: alice, ...headers }, redirect: 'manual' });
      assert.ok(answer.status === 404 || answer.status === 405, String(answer.status));
      assert.deepEqual(answer.headers.getSetCookie(), []);
    }
    assert.equal(await whoIs({ cookie: alice }), 'alice@example.com');
  });

  test('path spellings reach no route without its declaration, and none makes a key from a foreign page', async () => {
    const spellings = [
      '//api/account/keys',
      '/api//account/keys',
      '/api/account/keys/',
      '/api/account/keys//',
      '/api/account/keys?x=1',
      '/api/account/keys;x=1',
      '/api/account/keys%2F',
      '/api%2Faccount%2Fkeys',
      '/api/account/%6Beys',
      '/API/account/keys',
      '/api/Account/keys',
      '/api/account/./keys',
      '/api/account/x/../keys',
      '/api/account/keys%00',
      '/api/account/keys%20',
      '/api/account/keys#x',
      'http://evil.example/api/account/keys',
      `${own}/api/account/keys`,
      '/./api/account/keys',
      '/%2e/api/account/keys',
    ];
    for (const path of spellings) {
      const answer = await raw(
        'POST',
        path,
        [
          ['cookie', alice],
          ['origin', 'http://evil.example'],
          ['content-type', 'application/json'],
        ],
        json({ name: 'planted' }),
      );
      assert.ok(answer.status >= 400 && answer.status < 500, `${path}: ${answer.status} ${answer.text}`);
    }
    assert.deepEqual(await aliceKeys(), ['cli']);
  });
});

describe('the plugins’ own routes and the 404 handler', () => {
  test('no cookie or key counts on the static files, the preflight or an unknown path: nothing there names the person', async () => {
    const paths = [
      '/',
      '/assets/none.js',
      '/docs/',
      '/docs/_assets/none.css',
      '/no/such/page',
      '/api/none',
      '/v2/none',
    ];
    for (const path of paths)
      for (const method of ['GET', 'POST', 'OPTIONS']) {
        const answer = await raw(method, path, [
          ['cookie', alice],
          ['authorization', `Bearer wfk_${'A'.repeat(43)}`],
          ['origin', 'http://evil.example'],
          ['access-control-request-method', 'POST'],
        ]);
        const what = `${method} ${path}: ${answer.status}`;
        assert.ok(answer.status < 500, what);
        // An unknown key is refused only where keys count: it is not even read here.
        assert.notEqual(codeOf(answer.text), 'api_key_invalid', what);
        assert.doesNotMatch(answer.text, /alice@example\.com/, what);
        assert.notEqual(answer.headers['access-control-allow-credentials'], 'true', what);
      }
  });

  test('a preflight for a cookie route never invites credentials, whatever it asks for', async () => {
    for (const path of ['/api/account/keys', '/api/site/folders', '/auth/logout', '/api/admin/folders', '/mcp']) {
      const answer = await raw('OPTIONS', path, [
        ['cookie', alice],
        ['origin', 'http://evil.example'],
        ['access-control-request-method', 'DELETE'],
        ['access-control-request-headers', 'content-type, cookie, authorization, x-owner-token'],
      ]);
      assert.ok(answer.status < 400, `${path}: ${answer.status}`);
      assert.equal(answer.headers['access-control-allow-credentials'], undefined, path);
      const allowed = answer.headers['access-control-allow-origin'];
      assert.ok(allowed === undefined || allowed === '*', `${path}: ${allowed}`);
    }
  });
});

describe('cookies, keys and tokens together', () => {
  test('a doubled or misnamed session cookie is no one, and a foreign page cannot use the second copy', async () => {
    const jars = [
      `wf_session=; ${alice}`,
      `wf_session=nonsense; ${alice}`,
      `WF_SESSION=${aliceSession}`,
      `wf%5Fsession=${aliceSession}`,
      `wf_session="${aliceSession}x"`,
    ];
    for (const cookie of jars) {
      assert.equal(await whoIs({ cookie }), null, cookie);
      const answer = await raw(
        'POST',
        '/api/account/keys',
        [
          ['cookie', cookie],
          ['origin', 'http://evil.example'],
          ['content-type', 'application/json'],
        ],
        json({ name: 'planted' }),
      );
      assert.ok([401, 403].includes(answer.status), `${cookie}: ${answer.status}`);
    }
    // Two Cookie headers: the session in the second is still a cookie-borne change.
    const split = await raw(
      'POST',
      '/api/account/keys',
      [
        ['cookie', 'theme=dark'],
        ['cookie', alice],
        ['origin', 'http://evil.example'],
        ['content-type', 'application/json'],
      ],
      json({ name: 'planted' }),
    );
    assert.ok([401, 403].includes(split.status), `split Cookie headers: ${split.status}`);
    assert.deepEqual(await aliceKeys(), ['cli']);
  });

  test('the session id is no bearer token, and a key is no session cookie', async () => {
    assert.equal(await whoIs({ authorization: `Bearer ${aliceSession}` }), null);
    assert.equal(await whoIs({ cookie: `wf_session=${aliceKey}` }), null);
    const made = await fetch(`${own}/v2/folders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceSession}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(made.status, 400, 'within the contract’s statuses');
    assert.equal(codeOf(await made.text()), 'sign_in_required', 'no one may create under CREATE_POLICY=signed-in');
  });

  test('a key is read whatever the case of its scheme: an unknown one is refused, not taken for no one', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      assert.equal(await whoIs({ authorization: `${scheme} ${aliceKey}` }), 'alice@example.com', scheme);
      const made = await fetch(`${own}/v2/folders`, {
        method: 'POST',
        headers: { authorization: `${scheme} wfk_${'A'.repeat(43)}`, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(codeOf(await made.text()), 'api_key_invalid', scheme);
    }
  });

  test('a key beside the cookie does not carry a foreign page’s change through the guard', async () => {
    const before = await aliceFolders();
    const answer = await fetch(`${own}/api/site/folders`, {
      method: 'POST',
      headers: {
        cookie: alice,
        authorization: `Bearer ${aliceKey}`,
        origin: 'http://evil.example',
        'content-type': 'application/json',
        'x-owner-token': randomBytes(32).toString('base64url'),
      },
      body: json({ mode: 'send', ske: 'c2tl' }),
    });
    assert.equal(answer.status, 403, await answer.clone().text());
    assert.equal(codeOf(await answer.text()), 'forbidden');
    assert.equal(await aliceFolders(), before);
  });

  test('the agents never take the cookie, from a foreign page or our own', async () => {
    const before = await aliceFolders();
    for (const origin of ['http://evil.example', `http://127.0.0.1:${otherPort}`, own]) {
      const mcp = await fetch(`${own}/mcp`, {
        method: 'POST',
        headers: {
          cookie: alice,
          origin,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: json({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_share_folder', arguments: {} },
        }),
      });
      assert.ok(mcp.status < 500, `${origin}: ${mcp.status}`);
      assert.doesNotMatch(await mcp.text(), /folderId|ownerToken/, `MCP from ${origin} made nothing`);
      const a2a = await fetch(`${own}/a2a`, {
        method: 'POST',
        headers: { cookie: alice, origin, 'content-type': 'application/json' },
        body: json({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              role: 'user',
              messageId: 'm1',
              parts: [{ kind: 'data', data: { skill: 'create_share_folder' } }],
            },
          },
        }),
      });
      assert.ok(a2a.status < 500, `${origin}: ${a2a.status}`);
      assert.doesNotMatch(await a2a.text(), /ownerToken/, `A2A from ${origin} made nothing`);
    }
    assert.equal(await aliceFolders(), before);
  });

  test('the admin token works beside another person’s cookie from our page; from a foreign page it does not', async () => {
    const folderId = await aliceFolder();
    const takeDown = (origin: string) =>
      fetch(`${own}/api/admin/folders/${folderId}/take-down`, {
        method: 'POST',
        headers: { cookie: bob, authorization: `Bearer ${ADMIN_TOKEN}`, origin, 'content-type': 'application/json' },
        body: json({ reason: 'terms' }),
      });
    const foreign = await takeDown('http://evil.example');
    assert.equal(foreign.status, 403);
    assert.equal(codeOf(await foreign.text()), 'forbidden');
    const stillUp = await fetch(`${own}/api/admin/folders/${folderId}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(stillUp.status, 200);
    assert.doesNotMatch(await stillUp.text(), /"takenDown(At)?":\s*("|true)/, 'not taken down');
    // Bob is no admin, and his cookie alone is refused; the token beside it is the break-glass.
    const bobAlone = await fetch(`${own}/api/admin/folders/${folderId}/take-down`, {
      method: 'POST',
      headers: { cookie: bob, origin: own, 'content-type': 'application/json' },
      body: json({ reason: 'terms' }),
    });
    assert.equal(bobAlone.status, 403);
    const breakGlass = await takeDown(own);
    assert.equal(breakGlass.status, 200, await breakGlass.clone().text());
  });
});

describe('the redirect after sign-in', () => {
  const plant = (returnTo: unknown) => (value: string) => {
    const pending = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
    return Buffer.from(JSON.stringify({ ...pending, returnTo })).toString('base64url');
  };

  test('a planted return path never leads off the site, and an odd one never breaks the sign-in', async () => {
    const away = [
      '//evil.example/',
      '///evil.example/',
      '/\\evil.example',
      '\\\\evil.example',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
      '/\tevil.example',
      '/\t/evil.example',
      '/\r\nLocation: http://evil.example/',
      '/\nevil',
      '/ /evil.example',
      '/\u2215evil.example',
      '/\uff0fevil.example',
      '/\u2044evil.example',
      '/\u3002evil.example',
      'https://evil.example/',
      'http:evil.example',
      'javascript:alert(1)',
      '/.//evil.example',
      '/..//evil.example',
      '@evil.example',
      '',
      '/'.repeat(400),
    ];
    for (const returnTo of away) {
      const login = await provider.loginOverHttp(own, 'alice', '/me', { plantPending: plant(returnTo) });
      const what = JSON.stringify(returnTo);
      assert.equal(login.status, 303, `${what}: ${login.status} ${login.body.slice(0, 200)}`);
      const target = new URL(login.location!);
      assert.equal(target.origin, own, `${what} went to ${login.location}`);
      assert.ok(login.cookies.get('wf_session'), `${what}: signed in`);
    }
  });

  test('a pending sign-in that is not ours is expired, never a 500 and never a session', async () => {
    const broken = [
      () => 'not base64 at all!',
      () => Buffer.from('not json').toString('base64url'),
      () => Buffer.from('null').toString('base64url'),
      () => Buffer.from('[]').toString('base64url'),
      plant(42),
      plant(null),
      plant(['/a', '//evil.example']),
      (value: string) => value + 'A'.repeat(3000),
    ];
    for (const rewrite of broken) {
      const login = await provider.loginOverHttp(own, 'alice', '/me', { plantPending: rewrite });
      assert.equal(login.status, 303, `${login.status} ${login.body.slice(0, 200)}`);
      assert.equal(new URL(login.location!).origin, own);
      assert.ok(!login.cookies.get('wf_session'), 'no session from a pending sign-in that is not ours');
    }
  });

  test('the return query at /auth/login never leads off the site either', async () => {
    for (const query of [
      'return=a&return=b',
      'return=%2F%2Fevil.example',
      'return=%0d%0aSet-Cookie:x=1',
      'return[]=x',
    ]) {
      const answer = await fetch(`${own}/auth/login?${query}`, { redirect: 'manual' });
      assert.ok(answer.status < 500, `${query}: ${answer.status}`);
      const location = answer.headers.get('location');
      if (location) assert.ok([own, new URL(provider.issuer).origin].includes(new URL(location, own).origin), query);
      assert.equal(answer.headers.getSetCookie().filter((l) => l.startsWith('x=')).length, 0, query);
    }
  });
});

describe('the site under a path', () => {
  let pathProvider: OidcFixture;
  let pathNode: RunningServer;
  let base: string;
  let site: string;
  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    site = `${base}/wf`;
    pathProvider = await startOidcProvider({ redirectUris: [`${site}/auth/callback`] });
    pathNode = await startServer({ ...pathProvider.serverEnv(), BASE_URL: base, WEB_URL: site }, { port });
  });
  after(async () => {
    await pathNode?.close();
    await pathProvider?.stop();
  });

  test('the origin is the host’s, not the path’s: a change passes from it only, and the routes exist once', async () => {
    const session = (await pathProvider.loginOverHttp(site, 'alice')).cookies.get('wf_session');
    const cookie = `wf_session=${session}`;
    const makeKey = (path: string, origin?: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...(origin === undefined ? {} : { origin }) },
        body: json({ name: 'k' }),
      });
    for (const origin of [
      site,
      `${site}/`,
      'http://evil.example',
      'null',
      `http://127.0.0.1:${otherPort}`,
      undefined,
    ]) {
      const answer = await makeKey('/wf/api/account/keys', origin);
      assert.equal(answer.status, 403, String(origin));
    }
    for (const path of ['/api/account/keys', '/wf/wf/api/account/keys', '/WF/api/account/keys'])
      assert.equal((await makeKey(path, base)).status, 404, path);
    const listed = await fetch(`${site}/api/account/keys`, { headers: { cookie } });
    assert.deepEqual(((await listed.json()) as { keys: unknown[] }).keys, []);
    assert.equal((await makeKey('/wf/api/account/keys', base)).status, 201);
  });

  test('a planted return path stays under the site’s path: no dot segments climb out of it', async () => {
    const plant = (returnTo: string) => (value: string) => {
      const pending = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
      return Buffer.from(JSON.stringify({ ...pending, returnTo })).toString('base64url');
    };
    for (const returnTo of [
      '/../evil',
      '/..',
      '/./../evil',
      '/%2e%2e/evil',
      '/.%2E/evil',
      '/%2E./evil',
      '/a/../../evil',
      '/..?x',
      '/..#x',
    ]) {
      const login = await pathProvider.loginOverHttp(site, 'alice', '/me', { plantPending: plant(returnTo) });
      assert.equal(login.status, 303, returnTo);
      const target = new URL(login.location!);
      assert.equal(target.origin, base, returnTo);
      assert.ok(target.pathname === '/wf' || target.pathname.startsWith('/wf/'), `${returnTo} led to ${target.href}`);
    }
    // The same through a plain sign-in link's return query; a dotted name that is no segment is kept.
    for (const [returnTo, expected] of [
      ['/../evil', '/wf/'],
      ['/%2E%2e/evil', '/wf/'],
      ['/me/..', '/wf/'],
      ['/...', '/wf/...'],
      ['/a..b/.c', '/wf/a..b/.c'],
    ]) {
      const login = await pathProvider.loginOverHttp(site, 'alice', returnTo);
      assert.equal(login.location, `${base}${expected}`, returnTo);
    }
  });
});
