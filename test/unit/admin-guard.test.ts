import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { adminGuard, adminOf, bearerIs } from '../../src/http/callers/admin-guard.js';

/**
 * The one admin check (src/http/callers/admin-guard.ts) on a real Fastify instance: the break-glass token,
 * a signed-in admin and non-admin (the principal as src/http/callers/principal.ts sets it), and refusals.
 */
const TOKEN = 'a-break-glass-token-of-forty-chars-000000';

async function app(env: Record<string, string>, principal?: unknown) {
  const config = loadConfig({ DATA_DIR: '/tmp/unused', ...env });
  const app = Fastify();
  if (principal !== undefined)
    app.addHook('onRequest', async (request) => {
      (request as unknown as { principal: unknown }).principal = principal;
    });
  await app.register(async (admin) => {
    admin.addHook('preHandler', adminGuard(config));
    admin.get('/api/admin/probe', async (request) => adminOf(request));
    admin.post('/api/admin/probe', async (request) => adminOf(request));
  });
  return app;
}

test('ADMIN_TOKEN opens the admin routes; a wrong or missing token is 401 {error, code}', async () => {
  const a = await app({ ADMIN_TOKEN: TOKEN });
  const ok = await a.inject({ url: '/api/admin/probe', headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json(), { via: 'token' });
  for (const authorization of [
    undefined,
    `Bearer ${TOKEN}x`,
    `Bearer ${TOKEN.slice(0, -1)}`,
    `Basic ${TOKEN}`,
    TOKEN,
  ]) {
    const res = await a.inject({ url: '/api/admin/probe', headers: authorization ? { authorization } : {} });
    assert.equal(res.statusCode, 401, String(authorization));
    assert.equal(res.json().code, 'forbidden');
    assert.match(res.json().error, /ADMIN_TOKEN/);
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="admin"');
  }
});

test('without ADMIN_TOKEN no bearer opens anything', async () => {
  const a = await app({});
  const res = await a.inject({ url: '/api/admin/probe', headers: { authorization: 'Bearer ' } });
  assert.equal(res.statusCode, 401);
  assert.match(res.json().error, /has no ADMIN_TOKEN/);
});

test('a signed-in admin passes; a signed-in non-admin is 403', async () => {
  const admin = { kind: 'account', accountId: 'acc1', email: 'a@example.com', name: null, admin: true, via: 'session' };
  const ok = await (await app({}, admin)).inject({ url: '/api/admin/probe' });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json(), { via: 'account', accountId: 'acc1', email: 'a@example.com', session: true });
  const plain = { ...admin, admin: false };
  const refused = await (await app({ ADMIN_TOKEN: TOKEN }, plain)).inject({ url: '/api/admin/probe' });
  assert.equal(refused.statusCode, 403);
  assert.equal(refused.json().code, 'forbidden');
  // An anonymous caller with the token passes.
  const anonymous = await (await app({ ADMIN_TOKEN: TOKEN }, { kind: 'anonymous' })).inject({
    url: '/api/admin/probe',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(anonymous.statusCode, 200);
});

test('the break-glass token passes beside a signed-in person who is not an admin (a browser signed in as someone else)', async () => {
  const person = { kind: 'account', accountId: 'acc2', email: null, name: null, admin: false, via: 'session' };
  const a = await app({ ADMIN_TOKEN: TOKEN }, person);
  const withToken = await a.inject({
    method: 'POST',
    url: '/api/admin/probe',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(withToken.statusCode, 200);
  assert.deepEqual(withToken.json(), { via: 'token' });
  const wrong = await a.inject({
    method: 'POST',
    url: '/api/admin/probe',
    headers: { authorization: `Bearer ${TOKEN}x` },
  });
  assert.equal(wrong.statusCode, 403, 'a wrong token leaves the person as they are: not an admin');
});

test('a short ADMIN_TOKEN stops the start', () => {
  assert.throws(
    () => loadConfig({ ADMIN_TOKEN: 'too-short' }),
    (e: unknown) => e instanceof ConfigError && /ADMIN_TOKEN/.test(String(e)),
  );
});

test('bearerIs compares whole tokens only', () => {
  assert.equal(bearerIs(`Bearer ${TOKEN}`, TOKEN), true);
  assert.equal(bearerIs(`bearer ${TOKEN}`, TOKEN), true);
  assert.equal(bearerIs(`Bearer ${TOKEN} `, TOKEN), false);
  assert.equal(bearerIs(undefined, TOKEN), false);
});
