import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CreateResponseDirect } from '../../src/contract/types.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { chunkBody, chunkUrl } from '../support/api.js';
import {
  type Client,
  curlClient,
  fetchProcessClient,
  nodeHttpClient,
  type RefusedRequest,
} from '../support/refusal-clients.js';
import { nginx, startNginx } from './nginx.js';
import { missingTools, useProxiedServer } from './proxy-suite.js';

/**
 * Early refusals behind the documented nginx block (docs/deployment.md, as test/ops/nginx.test.ts
 * runs it): nginx streams the body to the service (`proxy_request_buffering off`), the service
 * answers before reading it and lingers (src/http/answers/lingering-close.ts), and each client reads its
 * status and `{error, code}` through nginx at 1, 4, 10 and 64 MiB: fetch, node:https and curl
 * without `Expect`, each trusting the test's certificate. The documented block appends the client's
 * address to `X-Forwarded-For` and the service trusts the proxy, so each request names a client
 * address of its own there, and only the rate limits' own cases meet their limit of one.
 */
const SKIP = missingTools('nginx', nginx, 'TEST_REQUIRE_NGINX');
const fx = useProxiedServer('nginx-refusals', SKIP, (setup) => startNginx(setup), {
  RATE_LIMIT_CHUNK: '1',
  RATE_LIMIT_CREATE: '1',
});
let addresses = 0;
/** A client address of its own for one request (the proxy appends its peer's after it). */
const freshAddress = () => ({ 'x-forwarded-for': `203.0.113.${++addresses % 250}` });
const LIMITED = { 'x-forwarded-for': '198.51.100.7' };
const SIZES_MIB = [1, 4, 10, 64];

interface Refusal {
  readonly request: RefusedRequest;
  readonly status: number;
  readonly code: string;
}
const refusals = new Map<string, Refusal>();
let clients: Record<string, Client> = {};

/** The refusals, made once the proxied server runs (on the first test). */
let prepared: Promise<void> | null = null;
async function prepare(): Promise<void> {
  const caFile = join(fx.dir, 'cert.pem');
  clients = {
    fetch: fetchProcessClient(fx.dir, caFile),
    'node:https': nodeHttpClient(fx.cert),
    curl: curlClient(fx.dir, caFile),
  };
  const create = async (filesize: number) => {
    const res = await fx.call(
      'POST',
      '/v2/folders',
      { 'content-type': 'application/json', ...freshAddress() },
      JSON.stringify({ encryption: { ske: 'ske' }, files: [{ filename: 'f', filesize }] }),
    );
    assert.equal(res.status, 200, res.text);
    return (JSON.parse(res.text) as CreateResponseDirect).files[0]!;
  };
  const done = await create(1000);
  const first = chunkBody(1000, done.chunkSize, 1);
  const stored = await fx.call(
    'PUT',
    chunkUrl(done.uploadUrls, 1),
    { ...done.uploadUrls.headers, 'content-length': String(first.length), ...freshAddress() },
    first,
  );
  assert.equal(stored.status, 200, stored.text);
  const open = await create(5 * MIB);
  const url = chunkUrl(open.uploadUrls, 1);
  const json = { 'content-type': 'application/json' };
  const put = (u: string, extra: Record<string, string> = {}) => ({
    method: 'PUT',
    url: u,
    headers: { ...open.uploadUrls.headers, ...extra },
  });
  // The limited address spends its one chunk PUT and its one create first.
  await fx.call('PUT', url, { ...open.uploadUrls.headers, 'content-length': '1', ...LIMITED }, Buffer.from('x'));
  await fx.call('POST', '/v2/folders', { ...json, ...LIMITED }, '{}');
  refusals.set('a chunk of a complete file', {
    request: put(chunkUrl(done.uploadUrls, 1)),
    status: 409,
    code: 'conflict',
  });
  refusals.set('a bad signature', {
    request: put(
      url.replace(/(X-Amz-Signature=)([0-9a-f])/, (_m, k: string, c: string) => k + (c === '0' ? '1' : '0')),
    ),
    status: 403,
    code: 'forbidden',
  });
  refusals.set('a wrong length', { request: put(url), status: 400, code: 'invalid_request' });
  refusals.set('a rate-limited chunk', { request: put(url, LIMITED), status: 429, code: 'rate_limited' });
  refusals.set('a rate-limited v2 create', {
    request: { method: 'POST', url: `${fx.publicUrl}/v2/folders`, headers: { ...json, ...LIMITED } },
    status: 429,
    code: 'rate_limited',
  });
  refusals.set('an oversized v2 create', {
    request: { method: 'POST', url: `${fx.publicUrl}/v2/folders`, headers: json },
    status: 400,
    code: 'payload_too_large',
  });
  refusals.set('an oversized site API create', {
    request: { method: 'POST', url: `${fx.publicUrl}/api/site/folders`, headers: json },
    status: 413,
    code: 'payload_too_large',
  });
}

for (const name of [
  'a chunk of a complete file',
  'a bad signature',
  'a wrong length',
  'a rate-limited chunk',
  'an oversized v2 create',
  'a rate-limited v2 create',
  'an oversized site API create',
])
  test(`through nginx: ${name} reaches every client`, { skip: SKIP, timeout: 300_000 }, async () => {
    prepared ??= prepare();
    await prepared;
    const refusal = refusals.get(name)!;
    const wrong: string[] = [];
    for (const mib of SIZES_MIB) {
      const body = randomBytes(mib * MIB);
      for (const [client, send] of Object.entries(clients)) {
        const request = { ...refusal.request, headers: { ...freshAddress(), ...refusal.request.headers } };
        const told = await send(request, body);
        if (typeof told === 'string' || told.status !== refusal.status || told.body?.code !== refusal.code)
          wrong.push(`${client} ${mib} MiB: ${JSON.stringify(told)}`);
      }
    }
    assert.deepEqual(wrong, [], `every client is told ${refusal.status} ${refusal.code}`);
  });
