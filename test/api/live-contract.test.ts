import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { CreateResponseDirect } from '../../src/contract/types.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { COMMON_HEADERS } from '../../src/http/answers/security-headers.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * The live answers of the two v2 operations against the served /openapi.json: the suite's kind of
 * traffic (creates of both flows, malformed and oversized bodies, wrong types and extra fields, a
 * missing ske, upload-status with and without its token, malformed ids, an over-long path segment,
 * oversized headers, a rate limit) is replayed, and every answer is checked by a validator built
 * on the served document's own schemas (Ajv 2020, as OpenAPI 3.1 schemas are JSON Schema 2020-12):
 * its status must be declared for the operation, its body must validate against the declared
 * schema (no undeclared field: the schemas allow none), each declared required header must be there,
 * and no header may be sent that is neither declared nor the transport's or the security policy's.
 */
interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, Declared> }>>;
  components: { schemas: Record<string, unknown> };
}
interface Declared {
  headers?: Record<string, { required?: boolean; schema: object }>;
  content?: Record<string, { schema: object }>;
}
interface Answer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

/** Headers every answer may carry whatever the operation: HTTP's own, CORS, the security policy. */
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'vary',
  'access-control-allow-origin',
  ...Object.keys(COMMON_HEADERS),
]);

let srv: RunningServer;
let doc: OpenApi;
const answers: Answer[] = [];

before(async () => {
  srv = await startServer({ RATE_LIMIT_CREATE: '40', CHUNK_SIZE_MIB: '5' });
  doc = (await (await fetch(`${srv.baseUrl}/openapi.json`)).json()) as OpenApi;
});
after(() => srv?.close());

async function call(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${srv.baseUrl}${path}`, { method, ...init });
  const headers = Object.fromEntries(res.headers.entries());
  const answer = { method, path, status: res.status, headers, text: await res.text() };
  answers.push(answer);
  return answer;
}
const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call('POST', '/v2/folders', { body: typeof body === 'string' ? body : JSON.stringify(body), headers });

/** A request written on a socket of its own (what fetch cannot send), its answer parsed. */
function raw(method: string, path: string, head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(srv.baseUrl).port), '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [statusLine = '', ...lines] = text.split('\r\n\r\n')[0]!.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const answer = {
        method,
        path,
        status: Number(statusLine.split(' ')[1]),
        headers,
        text: text.slice(text.indexOf('\r\n\r\n') + 4),
      };
      answers.push(answer);
      resolve(answer);
    });
    socket.end(head);
  });
}

/** What is wrong with one answer against the document, or nothing. */
function check(ajv: InstanceType<typeof Ajv2020>, answer: Answer): string[] {
  const where = `${answer.method} ${answer.path.slice(0, 80)} -> ${answer.status}`;
  const entry = Object.entries(doc.paths).find(([template]) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(answer.path.split('?')[0]!),
  );
  const operation = entry?.[1][answer.method.toLowerCase()];
  if (!operation) return [`${where}: no such operation in the document`];
  const declared = operation.responses[String(answer.status)];
  if (!declared) return [`${where}: status not declared`];
  const wrong: string[] = [];
  const schema = declared.content?.['application/json']?.schema;
  if (schema) {
    const validate = ajv.compile({
      ...JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/')),
      $defs: JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/')),
    });
    if (!validate(JSON.parse(answer.text))) wrong.push(`${where}: body ${ajv.errorsText(validate.errors)}`);
  }
  const headerNames = Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase());
  for (const [name, header] of Object.entries(declared.headers ?? {}))
    if (header.required && answer.headers[name.toLowerCase()] === undefined) wrong.push(`${where}: no ${name}`);
  for (const name of Object.keys(answer.headers))
    if (!TRANSPORT.has(name) && !headerNames.includes(name)) wrong.push(`${where}: undeclared header ${name}`);
  return wrong;
}

test("the v2 operations' live answers are exactly what the served OpenAPI document declares", {
  timeout: 120_000,
}, async () => {
  // Creates: both flows, and what the suite refuses.
  await call('POST', '/v2/folders');
  await post({});
  await post({ title: 'Holiday photos', mode: 'share' });
  await post({ encryption: { keyStrategy: 'server_generated' } });
  const direct = await post({ encryption: { ske: 'ske' }, files: [{ filename: 'f', filesize: 12 * MIB }] });
  await post('{"title":');
  await post('{"title":"a","title":"b"}');
  await post({ mode: 'nope' });
  await post({ title: 7 });
  await post({ extra: true });
  await post({ files: [{ filename: 'f', filesize: 1 }] });
  await post({ encryption: {}, files: [{ filename: 'f', filesize: 1 }] });
  await post({ encryption: { ske: 's' }, files: [{ filename: 'f', filesize: 0 }] });
  await post({ encryption: { ske: 's' }, files: Array.from({ length: 11 }, () => ({ filename: 'f', filesize: 1 })) });
  await post({ title: 'x'.repeat(100_000) });
  await post('title=x', { 'content-type': 'application/x-www-form-urlencoded' });
  await post({ title: 'a\u0000b' });
  // Upload status: with and without its token, wrong ids, an over-long segment.
  const created = JSON.parse(direct.text) as CreateResponseDirect;
  const status = (folderId: string, fileId: string, query = '') =>
    call('GET', `/v2/folders/${folderId}/files/${fileId}/upload-status${query}`);
  const file = created.files[0]!.fileId;
  await status(created.folderId, file, `?uploadAuth=${created.uploadAuth}`);
  await status(created.folderId, file);
  await status(created.folderId, file, '?uploadAuth=wrong');
  await status('nope!', file);
  await status('AAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBB');
  const longSegment = await status('a'.repeat(150), file);
  assert.equal(longSegment.status, 400, 'an over-long path segment is a 400 on a v2 operation');
  assert.match(longSegment.text, /"code":"uri_too_long"/);
  // Oversized headers, in one packet with its request line.
  const big = await raw(
    'POST',
    '/v2/folders',
    `POST /v2/folders HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 0\r\n\r\n`,
  );
  assert.equal(big.status, 400, 'oversized headers are a 400 on a v2 operation');
  assert.match(big.text, /"code":"headers_too_large"/);
  // The rate limit.
  let limited: Answer | null = null;
  for (let i = 0; i < 60 && !limited; i++) {
    const answer = await post({});
    if (answer.status === 429) limited = answer;
  }
  assert.ok(limited, 'the rate limit was reached');

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as (a: typeof ajv) => void)(ajv);
  const wrong = answers.flatMap((answer) => check(ajv, answer));
  assert.deepEqual(wrong, []);
  // Each declared status of both operations was seen at least once, but 500 (a fault of ours).
  const seen = new Set(answers.map((a) => `${a.path.includes('upload-status') ? 'status' : 'create'} ${a.status}`));
  for (const expected of ['create 200', 'create 400', 'create 429', 'status 200', 'status 400', 'status 404'])
    assert.ok(seen.has(expected), `a ${expected} was replayed`);
});
