import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import { createDirect, createEmpty } from '../support/api.js';
import { useServer } from '../support/server.js';

/**
 * One security-header policy for every response: whatever the route family, a
 * response says nosniff, no-referrer and a same-origin opener policy; HTML carries a CSP; and HSTS
 * is sent only when the request came over https (directly, or through a trusted proxy), never over
 * plain http.
 */
const server = useServer();
const proxied = useServer({ TRUST_PROXY: 'true' });

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
}

function call(base: string, path: string, method = 'GET', headers: Record<string, string> = {}, body?: string) {
  const { hostname, port } = new URL(base);
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const MCP_HEADERS = {
  ...JSON_TYPE,
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
const MCP_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

async function families(base: string): Promise<Array<[string, Answer]>> {
  const folder = await createEmpty(base);
  const direct = await createDirect(base, [10]);
  const file = direct.files[0]!;
  return [
    ['home page (HTML)', await call(base, '/', 'GET', { accept: 'text/html' })],
    ['service index (JSON)', await call(base, '/', 'GET', { accept: 'application/json' })],
    ['v2 create', await call(base, '/v2/folders', 'POST', JSON_TYPE, '{}')],
    ['v2 create refused', await call(base, '/v2/folders', 'POST', JSON_TYPE, '{"x":1}')],
    ['upload-status', await call(base, `/v2/folders/${direct.folderId}/files/${file.fileId}/upload-status`)],
    ['chunk PUT refused', await call(base, `/v2/uploads/${direct.folderId}/${file.fileId}/00001`, 'PUT', {}, 'x')],
    ['site API', await call(base, `/api/site/folders/${folder.folderId}`)],
    ['site page', await call(base, `/f/${folder.folderId}`, 'GET', { accept: 'text/html' })],
    ['docs page', await call(base, '/docs/')],
    ['OpenAPI', await call(base, '/openapi.json')],
    ['agent card', await call(base, '/.well-known/agent-card.json')],
    ['A2A', await call(base, '/a2a', 'POST', JSON_TYPE, '{}')],
    ['MCP (answered by the SDK)', await call(base, '/mcp', 'POST', MCP_HEADERS, MCP_LIST)],
    ['unknown route', await call(base, '/no/such/route')],
    ['bad percent-escape', await call(base, '/v2/folders/%ZZ')],
  ];
}

describe('security headers', () => {
  test('every route family sends nosniff, no-referrer and a same-origin opener policy; no HSTS over http', async () => {
    for (const [name, res] of await families(server.baseUrl)) {
      assert.equal(res.headers['x-content-type-options'], 'nosniff', name);
      assert.equal(res.headers['referrer-policy'], 'no-referrer', name);
      assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin', name);
      assert.equal(res.headers['strict-transport-security'], undefined, `${name}: no HSTS over plain http`);
      assert.ok(res.headers['content-security-policy'], `${name}: a Content-Security-Policy`);
    }
  });

  test('the home page keeps the site CSP; JSON answers get a CSP that allows nothing', async () => {
    const home = await call(server.baseUrl, '/', 'GET', { accept: 'text/html' });
    assert.match(String(home.headers['content-security-policy']), /frame-ancestors 'none'/);
    const json = await call(server.baseUrl, '/v2/folders', 'POST', JSON_TYPE, '{}');
    assert.match(String(json.headers['content-security-policy']), /default-src 'none'/);
  });

  test('HSTS only for requests that came over https, as a trusted proxy says', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const viaProxy = await call(proxied.baseUrl, '/openapi.json', 'GET', https);
    assert.match(String(viaProxy.headers['strict-transport-security']), /^max-age=\d+/);
    const mcp = await call(proxied.baseUrl, '/mcp', 'POST', { ...MCP_HEADERS, ...https }, MCP_LIST);
    assert.match(String(mcp.headers['strict-transport-security']), /^max-age=\d+/, 'MCP too');
    const plain = await call(proxied.baseUrl, '/openapi.json');
    assert.equal(plain.headers['strict-transport-security'], undefined, 'plain http through the proxy: none');
    const untrusted = await call(server.baseUrl, '/openapi.json', 'GET', https);
    assert.equal(untrusted.headers['strict-transport-security'], undefined, 'an untrusted X-Forwarded-Proto: none');
  });
});
