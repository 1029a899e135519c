import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MAX_FILE_SIZE } from '../../src/domain/limits.js';
import { useServer } from '../support/server.js';

/**
 * Property: no create body, however malformed, gets a 5xx; every answer is 200 or 400 with an
 * {error} string. Bodies are drawn both near the schema (its keys with values of any type, the
 * limits and their neighbours) and from arbitrary JSON and bytes.
 */
// The floor off: the fuzzer registers the largest files the contract allows, more than this disk holds.
const srv = useServer({
  DISK_FREE_MIN_MIB: '0',
  RATE_LIMIT_CREATE: '1000000',
  RATE_LIMIT_STATUS: '1000000',
  RATE_LIMIT_CHUNK: '1000000',
});

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(MAX_FILE_SIZE, MAX_FILE_SIZE + 1, 0, -1, 1.5, 1e308, '', 'x'.repeat(201)),
);
const fileEntry = fc.dictionary(
  fc.constantFrom('filename', 'filesize', 'mimetype', 'extra', '__proto__', 'constructor'),
  anyValue,
  { maxKeys: 4 },
);
const nearSchema = fc.record(
  {
    title: fc.oneof(fc.string({ maxLength: 210 }), fc.constant(null), anyValue),
    mode: fc.oneof(fc.constantFrom('send', 'share', 'request', 'SEND', ''), anyValue),
    encryption: fc.oneof(
      fc.record(
        { keyStrategy: fc.oneof(fc.constant('server_generated'), anyValue), ske: anyValue },
        { requiredKeys: [] },
      ),
      anyValue,
    ),
    files: fc.oneof(fc.array(fc.oneof(fileEntry, anyValue), { maxLength: 12 }), anyValue),
    unknown: anyValue,
  },
  { requiredKeys: [] },
);

async function check(body: string, contentType: string | null): Promise<void> {
  const res = await fetch(`${srv.baseUrl}/v2/folders`, {
    method: 'POST',
    body,
    headers: contentType ? { 'content-type': contentType } : {},
  });
  const text = await res.text();
  assert.ok(res.status === 200 || res.status === 400, `status ${res.status} for ${body.slice(0, 200)}: ${text}`);
  const parsed = JSON.parse(text) as { error?: unknown };
  if (res.status === 400) assert.equal(typeof parsed.error, 'string');
}

test('bodies shaped like the schema never get a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(nearSchema, (body) => check(JSON.stringify(body), 'application/json')),
    { numRuns: 400 },
  );
});

test('arbitrary JSON, strings, bytes and content types never get a 5xx', async () => {
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/vnd.x+json',
    null,
  );
  const body = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
    fc.string(),
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
  );
  await fc.assert(
    fc.asyncProperty(body, contentType, (b, ct) => check(b, ct)),
    { numRuns: 400 },
  );
});

test('arbitrary ids and queries on upload-status and chunk URLs never get a 5xx', async () => {
  const segment = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.stringMatching(/^[A-Za-z0-9_-]{16}$/),
    fc.constant('%00'),
    fc.constant('..'),
  );
  await fc.assert(
    fc.asyncProperty(segment, segment, fc.string({ maxLength: 60 }), async (a, b, q) => {
      const enc = (s: string) => encodeURIComponent(s) || 'x';
      const status = await fetch(
        `${srv.baseUrl}/v2/folders/${enc(a)}/files/${enc(b)}/upload-status?uploadAuth=${encodeURIComponent(q)}`,
      );
      assert.ok(status.status < 500, `upload-status ${status.status}`);
      await status.arrayBuffer();
      const put = await fetch(`${srv.baseUrl}/v2/uploads/${enc(a)}/${enc(b)}/${enc(q)}?${encodeURIComponent(q)}=1`, {
        method: 'PUT',
        body: 'abc',
      });
      assert.ok(put.status < 500, `chunk PUT ${put.status}`);
      await put.arrayBuffer();
    }),
    { numRuns: 300 },
  );
});
