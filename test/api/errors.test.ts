import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { ERROR_CODES } from '../../src/contract/errors.js';
import { errorResponseSchema } from '../../src/contract/schemas.js';
import { chunkUrl, createDirect } from '../support/api.js';
import { useServer } from '../support/server.js';

/**
 * Every refusal on the wire is `{error, code}` with a code of the catalogue (src/contract/errors.ts),
 * including what Fastify and Node answer before a route runs, and no error body repeats the query
 * string, which can hold a signature or a token.
 */
const server = useServer({ MAX_JSON_BODY_BYTES: '2048' });

const SECRET = 'S3cretSignatureValue';
const isErrorResponse = new Ajv({ strict: false }).compile(errorResponseSchema);

interface Raw {
  readonly status: number;
  readonly type: string;
  readonly text: string;
}

/** A request with the path sent exactly as given (fetch would normalise it). */
function raw(path: string, method = 'GET', headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Bytes on a socket: for request lines Node's own client refuses to send. */
function rawSocket(bytes: Buffer): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}

function assertError(res: Raw, status: number, code: keyof typeof ERROR_CODES, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.text}`);
  assert.match(res.type, /^application\/json/, what);
  const body = JSON.parse(res.text) as unknown;
  assert.ok(isErrorResponse(body), `${what}: ${res.text} is an ErrorResponse`);
  assert.equal((body as { code: string }).code, code, what);
  assert.ok(!res.text.includes(SECRET), `${what}: the body does not echo the query string`);
}

describe('the error catalogue', () => {
  test('each code has a 4xx or 5xx status and a description', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      assert.match(code, /^[a-z]+(?:_[a-z]+)*$/);
      assert.ok(entry.status >= 400 && entry.status < 600, code);
      assert.ok(entry.description.length > 10, code);
    }
  });
});

describe('REST refusals carry a code', () => {
  test('the v2 create: field rules, bad JSON, wrong media type and oversized bodies', async () => {
    const post = (body: string, type = 'application/json') =>
      raw('/v2/folders', 'POST', { 'content-type': type }, body);
    assertError(await post('{"title":5}'), 400, 'invalid_request', 'a wrong type');
    assertError(await post('{"title":'), 400, 'invalid_json', 'truncated JSON');
    // The contract lists only 400 for create: a wrong media type or a large body is 400 with its own code.
    assertError(await post('title=x', 'text/plain'), 400, 'unsupported_media_type', 'text/plain');
    assertError(await post(JSON.stringify({ title: 'x'.repeat(4000) })), 400, 'payload_too_large', 'a large body');
  });

  test('the OpenAPI description of ErrorResponse.code says what create answers for those codes', async () => {
    // The description once said `unsupported_media_type` (415) only, while create answers 400 with it.
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      components: { schemas: { ErrorResponse: { properties: { code: { description: string } } } } };
    };
    const description = doc.components.schemas.ErrorResponse.properties.code.description;
    assert.match(description, /create and upload-status\) answer only 400, 404, 429, 500/);
    assert.match(description, /`unsupported_media_type`[^.]*is a 400/);
  });

  test('upload-status, chunk PUTs, the site endpoints and unknown routes', async () => {
    const created = await createDirect(server.baseUrl, [100]);
    const file = created.files[0]!;
    const status = `/v2/folders/${created.folderId}/files/${file.fileId}/upload-status`;
    assertError(await raw(`${status}?uploadAuth=${SECRET}`), 404, 'not_found', 'a wrong uploadAuth');
    assertError(await raw(`${status}?uploadAuth=a&uploadAuth=b`), 400, 'invalid_request', 'a repeated uploadAuth');
    const signed = new URL(chunkUrl(file.uploadUrls, 1));
    const chunk = `${signed.pathname}${signed.search.replace(/X-Amz-Signature=[^&]*/, `X-Amz-Signature=${SECRET}`)}`;
    assertError(
      await raw(chunk, 'PUT', { 'content-length': '1', ...file.uploadUrls.headers }, 'x'),
      403,
      'forbidden',
      'a forged signature',
    );
    assertError(await raw(`/api/site/folders/AAAAAAAAAAAAAAAA?t=${SECRET}`), 404, 'not_found', 'an unknown folder');
    assertError(await raw(`/no/such/route?sig=${SECRET}`), 404, 'not_found', 'an unknown route');
  });
});

describe('errors answered before any route runs', () => {
  test('a bad percent-escape in the path is a 400 {error, code} that does not echo the URL', async () => {
    const res = await raw(`/v2/folders/%ZZ/files/x/upload-status?uploadAuth=${SECRET}`);
    assertError(res, 400, 'invalid_request', 'path with %ZZ');
    const chunk = await raw(`/v2/uploads/%ZZ/a/00001?X-Amz-Signature=${SECRET}`, 'PUT', { 'content-length': '0' });
    assertError(chunk, 400, 'invalid_request', 'chunk path with %ZZ');
  });

  test('a path segment over 100 characters is a 414 {error, code} that does not echo the URL; 400 on a v2 operation', async () => {
    const res = await raw(`/v2/folders/${'a'.repeat(150)}/files/x/upload-status?uploadAuth=${SECRET}`);
    assertError(res, 400, 'uri_too_long', 'a 150-character id on upload-status (the contract lists no 414)');
    const site = await raw(`/api/site/folders/${'a'.repeat(150)}?ticket=${SECRET}`);
    assertError(site, 414, 'uri_too_long', 'a 150-character id elsewhere');
  });

  test('a non-ASCII request line is a 400 {error, code} from the client-error handler', async () => {
    const head = `GET /v2/folders/\u00e9t\u00e9?X-Amz-Signature=${SECRET} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const text = await rawSocket(Buffer.from(head, 'utf8'));
    const [statusLine, ...rest] = text.split('\r\n');
    assert.match(statusLine ?? '', /^HTTP\/1\.1 400 /, text);
    assert.match(text, /content-type: application\/json/i);
    const body = rest.slice(rest.indexOf('') + 1).join('\r\n');
    assertError({ status: 400, type: 'application/json', text: body }, 400, 'invalid_request', 'non-ASCII path');
  });
});

describe('the agent surfaces carry the same codes', () => {
  test('A2A: a wrong media type, an oversized body and bad JSON', async () => {
    const post = (body: string, type = 'application/json') => raw('/a2a', 'POST', { 'content-type': type }, body);
    const cases = [
      [await post('x', 'text/plain'), 415, -32005, 'unsupported_media_type'],
      [await post(JSON.stringify({ pad: 'x'.repeat(4000) })), 413, -32600, 'payload_too_large'],
      [await post('{"jsonrpc":'), 400, -32700, 'invalid_json'],
    ] as const;
    for (const [res, status, rpc, code] of cases) {
      assert.equal(res.status, status, res.text);
      const body = JSON.parse(res.text) as { error: { code: number; data: { code: string } } };
      assert.equal(body.error.code, rpc, res.text);
      assert.equal(body.error.data.code, code, res.text);
    }
  });

  test('MCP: a refused Origin carries the code forbidden', async () => {
    const res = await raw(
      '/mcp',
      'POST',
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://evil.example',
      },
      '{}',
    );
    assert.equal(res.status, 403);
    assert.equal((JSON.parse(res.text) as { error: { data: { code: string } } }).error.data.code, 'forbidden');
  });
});
