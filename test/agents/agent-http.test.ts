import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { createEmpty } from '../support/api.js';
import { useServer } from '../support/server.js';

/**
 * What the two agent surfaces share at the HTTP level: one Host/Origin policy, a
 * `Connection: close` that closes, and JSON bodies read by the same strict rules as the REST API,
 * duplicate keys refused.
 */
const server = useServer();

const A2A_SEND = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: {
    message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'Create a folder' }] },
  },
});
const MCP_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'create_share_folder', arguments: { title: 'From a page' } },
});
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const surfaces = [
  ['A2A', '/a2a', A2A_SEND, {}],
  ['MCP', '/mcp', MCP_CALL, MCP_HEADERS],
] as const;

describe('one Host and Origin policy for MCP and A2A', () => {
  test('a foreign Origin is refused with 403 forbidden and creates nothing, on both surfaces', async () => {
    for (const [name, path, body, headers] of surfaces) {
      const res = await post(path, body, { ...headers, origin: 'http://evil.example' });
      assert.equal(res.status, 403, `${name}: ${res.text}`);
      assert.equal((JSON.parse(res.text) as { error: { data: { code: string } } }).error.data.code, 'forbidden');
      assert.doesNotMatch(res.text, /folderUrl/, `${name}: no folder was created`);
      assert.notEqual(
        res.headers['access-control-allow-origin'],
        '*',
        `${name}: the refusal is not readable by the page`,
      );
    }
  });

  test('a foreign Host (DNS rebinding) is refused on both surfaces', async () => {
    for (const [name, path, body, headers] of surfaces) {
      const res = await post(path, body, { ...headers, host: 'evil.example' });
      assert.equal(res.status, 403, `${name}: ${res.text}`);
    }
  });

  test('no Origin (a program) and the service’s own origin are accepted on both surfaces', async () => {
    for (const [name, path, body, headers] of surfaces) {
      for (const origin of [undefined, server.baseUrl]) {
        const res = await post(path, body, { ...headers, ...(origin ? { origin } : {}) });
        assert.equal(res.status, 200, `${name} with Origin ${origin}: ${res.text}`);
        assert.match(res.text, /folderUrl/, name);
      }
    }
  });
});

describe('Connection: close', () => {
  /** Sends one request with Connection: close and resolves once the server has closed the socket. */
  function closedAfter(path: string, body: string, headers: Record<string, string>): Promise<string> {
    const { hostname, port } = new URL(server.baseUrl);
    const lines = Object.entries({
      host: `${hostname}:${port}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
      ...headers,
    })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    return new Promise((resolve, reject) => {
      let text = '';
      const socket = connect(Number(port), hostname, () =>
        socket.write(`POST ${path} HTTP/1.1\r\n${lines}\r\n${body}`),
      );
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      // Far below the 72 s keep-alive timeout the socket lingered for: a socket still open then was not closed.
      socket.setTimeout(20_000, () => {
        socket.destroy();
        reject(new Error(`the server kept the socket open after answering: ${text.slice(0, 200)}`));
      });
    });
  }

  test('MCP closes the connection once it has answered, like every other route', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const text = await closedAfter('/mcp', list, MCP_HEADERS);
    assert.match(text, /^HTTP\/1\.1 200/);
    assert.match(text, /create_share_folder/);
    assert.match(text, /\r\nconnection: close\r\n/i, 'and says so');
  });
});

describe('duplicate JSON keys are refused on every surface', () => {
  test('REST, site, A2A and MCP answer invalid_json and change nothing', async () => {
    const folder = await createEmpty(server.baseUrl);
    const rest = await post('/v2/folders', '{"title":"a","mode":"send","title":"b"}');
    assert.equal(rest.status, 400, rest.text);
    assert.deepEqual(JSON.parse(rest.text), {
      error: 'body is not valid JSON: the key "title" appears twice',
      code: 'invalid_json',
    });
    const nested = await post(
      '/v2/folders',
      '{"encryption":{"ske":"a","ske":"b"},"files":[{"filename":"x","filesize":1}]}',
    );
    assert.equal((JSON.parse(nested.text) as { code: string }).code, 'invalid_json', nested.text);
    const escaped = await post('/v2/folders', '{"title":"a","\\u0074itle":"b"}');
    assert.equal(
      (JSON.parse(escaped.text) as { code: string }).code,
      'invalid_json',
      'an escaped spelling is the same key',
    );
    const same = await post('/v2/folders', '{"files":[],"encryption":{},"title":"t","x":[{"a":1},{"a":2}]}');
    assert.equal((JSON.parse(same.text) as { code: string }).code, 'invalid_request', 'one key in two objects is fine');
    const site = await post(`/api/site/folders/${folder.folderId}/files`, '{"files":[],"files":[]}');
    assert.equal(site.status, 400, site.text);
    assert.equal((JSON.parse(site.text) as { code: string }).code, 'invalid_json');
    const a2a = await post('/a2a', A2A_SEND.replace('"id":1', '"id":1,"id":2'));
    assert.equal(a2a.status, 400, a2a.text);
    assert.equal((JSON.parse(a2a.text) as { error: { code: number } }).error.code, -32700);
    const mcp = await post('/mcp', MCP_CALL.replace('"id":1', '"id":1,"id":2'), MCP_HEADERS);
    assert.equal(mcp.status, 400, mcp.text);
    assert.equal((JSON.parse(mcp.text) as { error: { code: number } }).error.code, -32700);
  });
});
