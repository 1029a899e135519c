import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { open, statfs } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CreateResponseDirect, UploadUrls } from '../../src/contract/types.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { WebfolderError } from '../../src/transfer/errors.js';
import { putChunk as sdkPutChunk } from '../../src/transfer/v2.js';
import { chunkBody, chunkUrl, createDirect, postJson } from '../support/api.js';
import { until } from '../support/poll.js';
import {
  type Client,
  curlClient,
  fetchClient,
  nodeHttpClient,
  type Outcome,
  type RefusedRequest,
  writeThenReadClient,
} from '../support/refusal-clients.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { serverOnTmpfs } from '../support/tmpfs.js';

/**
 * Every refusal a route makes before reading a request's body reaches the client (the lingering
 * close, src/http/answers/lingering-close.ts), tested as that layer over the routes that refuse early: the
 * chunk route (a complete file's 409, a bad signature's 403, a wrong length's 400, a rate limit's
 * 429, a full disk's 507 mid-body, a draining server's 503) and the JSON routes (an oversized body
 * on the v2 create and the site API, a rate limit; a body of these sizes is oversized whatever it
 * holds, so malformed JSON is refused as oversized too), at 1, 4, 10 and 64 MiB, from fetch, node:http, curl
 * without `Expect`, the project's own SDK-style chunk PUT (src/transfer/v2.ts), and a client that
 * writes its whole request before it reads (the one a reset hurts most: for bodies up to the
 * largest the server accepts).
 */
const SIZES_MIB = [1, 4, 10, 64];
const CHUNK_MIB = 10;
const LIMITED = '198.51.100.9';
const bodies = new Map(SIZES_MIB.map((mib) => [mib, randomBytes(mib * MIB)]));

/**
 * The SDK's chunk PUT of chunk 1: the presigned URL's headers plus Content-Length, through fetch, no
 * retries (and the request's client address, for the rate limits).
 */
function sdkClient(urls: UploadUrls): Client {
  return async (request, body) => {
    try {
      await sdkPutChunk({ ...urls, headers: { ...urls.headers, ...request.headers } }, 1, body, 'chunk', {
        retry: { retries: 0 },
      });
      return { status: 200, body: null };
    } catch (error) {
      if (error instanceof WebfolderError) return { status: error.status, body: { code: error.serverCode ?? '' } };
      return `lost: ${String((error as Error).cause ?? error)}`;
    }
  };
}

interface Refusal {
  readonly name: string;
  readonly request: RefusedRequest;
  readonly status: number;
  readonly code: string;
  /** The SDK's own chunk PUT (chunk route only). */
  readonly sdk?: Client;
}

let addresses = 0;
/** A client address of its own, so that only the rate limit's own case meets the rate limit. */
const freshAddress = () => ({ 'x-forwarded-for': `203.0.113.${++addresses % 250}, 10.0.${addresses >> 8}.1` });

/** Sends each body size through each client and collects what was not answered as expected. */
async function reachEveryClient(refusal: Refusal, clients: Record<string, Client>, largestBody: number) {
  const wrong: string[] = [];
  for (const [mib, body] of bodies)
    for (const [name, client] of Object.entries({ ...clients, ...(refusal.sdk ? { sdk: refusal.sdk } : {}) })) {
      // A client that reads only after writing gets its answer for every body the server would take.
      if (client === writeThenReadClient && body.length > largestBody) continue;
      const request = { ...refusal.request, headers: { ...freshAddress(), ...refusal.request.headers } };
      const told: Outcome = await client(request, body);
      const ok = typeof told !== 'string' && told.status === refusal.status && told.body?.code === refusal.code;
      if (!ok) wrong.push(`${name} ${mib} MiB: ${JSON.stringify(told)}`);
    }
  assert.deepEqual(wrong, [], `${refusal.name}: every client is told ${refusal.status} ${refusal.code}`);
}

describe('early refusals reach every client, on the local backend', () => {
  let srv: RunningServer;
  let create: (filesize: number) => Promise<CreateResponseDirect['files'][number]>;
  let clients: Record<string, Client>;
  const refusals: Refusal[] = [];
  before(async () => {
    srv = await startServer({
      CHUNK_SIZE_MIB: String(CHUNK_MIB),
      TRUST_PROXY: 'true',
      RATE_LIMIT_CHUNK: '1',
      RATE_LIMIT_CREATE: '1',
    });
    const dir = await tempDir();
    clients = {
      fetch: fetchClient,
      'node:http': nodeHttpClient(),
      curl: curlClient(dir),
      writeThenRead: writeThenReadClient,
    };
    create = async (filesize: number) => {
      const res = await postJson<CreateResponseDirect>(
        `${srv.baseUrl}/v2/folders`,
        { encryption: { ske: 'ske' }, files: [{ filename: 'f', filesize }] },
        freshAddress(),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.files[0]!;
    };
    const done = await create(1000);
    const first = chunkBody(1000, done.chunkSize, 1);
    const stored = await fetch(chunkUrl(done.uploadUrls, 1), {
      method: 'PUT',
      headers: { ...done.uploadUrls.headers, ...freshAddress() },
      body: first as unknown as BodyInit,
    });
    assert.equal(stored.status, 200);
    const open = await create(CHUNK_MIB * MIB);
    const url = chunkUrl(open.uploadUrls, 1);
    const badSignature = url.replace(
      /(X-Amz-Signature=)([0-9a-f])/,
      (_m, k: string, c: string) => k + (c === '0' ? '1' : '0'),
    );
    const chunk = (u: string, extra: Record<string, string> = {}) => ({
      method: 'PUT',
      url: u,
      headers: { ...open.uploadUrls.headers, ...extra },
    });
    // The limited address spends its one chunk PUT and its one create first.
    const limited = { 'x-forwarded-for': LIMITED };
    await fetch(url, { method: 'PUT', headers: { ...open.uploadUrls.headers, ...limited }, body: 'x' });
    await postJson(`${srv.baseUrl}/v2/folders`, {}, limited);
    const json = { 'content-type': 'application/json' };
    refusals.push(
      {
        name: 'a chunk of a complete file',
        request: { ...chunk(chunkUrl(done.uploadUrls, 1)) },
        status: 409,
        code: 'conflict',
        sdk: sdkClient(done.uploadUrls),
      },
      {
        name: 'a bad signature',
        request: chunk(badSignature),
        status: 403,
        code: 'forbidden',
      },
      {
        name: 'a wrong length',
        request: chunk(url),
        status: 400,
        code: 'invalid_request',
        sdk: sdkClient(open.uploadUrls),
      },
      {
        name: 'a rate-limited chunk',
        request: chunk(url, limited),
        status: 429,
        code: 'rate_limited',
        sdk: sdkClient(open.uploadUrls),
      },
      {
        name: 'an oversized v2 create',
        request: { method: 'POST', url: `${srv.baseUrl}/v2/folders`, headers: json },
        status: 400,
        code: 'payload_too_large',
      },
      {
        name: 'a rate-limited v2 create',
        request: { method: 'POST', url: `${srv.baseUrl}/v2/folders`, headers: { ...json, ...limited } },
        status: 429,
        code: 'rate_limited',
      },
      {
        name: 'an oversized site API create',
        request: { method: 'POST', url: `${srv.baseUrl}/api/site/folders`, headers: json },
        status: 413,
        code: 'payload_too_large',
      },
    );
  });
  after(() => srv?.close());

  for (const name of [
    'a chunk of a complete file',
    'a bad signature',
    'a wrong length',
    'a rate-limited chunk',
    'an oversized v2 create',
    'a rate-limited v2 create',
    'an oversized site API create',
  ])
    test(name, { timeout: 300_000 }, async () => {
      const refusal = refusals.find((r) => r.name === name)!;
      await reachEveryClient(refusal, clients, CHUNK_MIB * MIB + MIB);
    });
});

describe('a draining server', () => {
  test("a draining server's refusal, to a request whose head arrives after the drain began", {
    timeout: 300_000,
  }, async () => {
    const srv = await startServer({ CHUNK_SIZE_MIB: String(CHUNK_MIB) });
    const created = await createDirect(srv.baseUrl, [CHUNK_MIB * MIB]);
    const target = new URL(chunkUrl(created.files[0]!.uploadUrls, 1));
    // Open connections whose request line is sent (a request begun) before the drain starts.
    const sockets = await Promise.all(
      SIZES_MIB.map(
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(Number(target.port), target.hostname, () =>
              socket.write(`PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n`, () =>
                resolve(socket),
              ),
            );
          }),
      ),
    );
    // The server runs in this process: once it has accepted the connections, one more turn of the
    // event loop has it read what was written (each request begun: no connection is idle).
    const app = srv.server.app.server;
    const accepted = () => new Promise<number>((resolve) => app.getConnections((_e, n) => resolve(n)));
    await until('the connections to be accepted', async () => (await accepted()) >= sockets.length);
    await new Promise((resolve) => setImmediate(resolve));
    const closing = srv.close();
    const answers = await Promise.all(
      SIZES_MIB.map(
        (mib, i) =>
          new Promise<string>((resolve) => {
            const socket = sockets[i]!;
            const body = bodies.get(mib)!;
            let text = '';
            socket.on('data', (d: Buffer) => (text += d.toString()));
            socket.on('error', (error) => resolve(text || `lost: ${(error as NodeJS.ErrnoException).code}`));
            socket.on('end', () => resolve(text));
            socket.write(`Content-Length: ${body.length}\r\n\r\n`);
            socket.write(body, () => {});
          }),
      ),
    );
    await closing;
    for (const [i, text] of answers.entries()) {
      assert.match(text, /^HTTP\/1\.1 503 /, `${SIZES_MIB[i]} MiB: ${text.slice(0, 200)}`);
      assert.match(text, /\r\nconnection: close\r\n/i);
      assert.match(text, /"code":"unavailable"/);
    }
  });
});

describe('a full disk refuses a chunk mid-body, and the client is told', () => {
  const fx = serverOnTmpfs(64, { DISK_FREE_MIN_MIB: '0' });
  test('every client reads the 507 (insufficient_storage)', { timeout: 300_000 }, async (t) => {
    if (!fx.mount) return void t.skip(fx.skip);
    const created = await createDirect(fx.server.baseUrl, [5 * MIB - 100]);
    const file = created.files[0]!;
    // Everything left on the disk taken by another program: the write fails with ENOSPC.
    const filler = await open(join(fx.mount, 'filler'), 'w');
    const space = await statfs(fx.mount);
    await filler.write(Buffer.alloc(Number(space.bavail * space.bsize))).catch(() => {});
    await filler.close();
    const dir = await tempDir();
    const request = { method: 'PUT', url: chunkUrl(file.uploadUrls, 1), headers: file.uploadUrls.headers };
    const body = chunkBody(5 * MIB - 100, file.chunkSize, 1);
    const wrong: string[] = [];
    for (const [name, client] of Object.entries({
      fetch: fetchClient,
      'node:http': nodeHttpClient(),
      curl: curlClient(dir),
      writeThenRead: writeThenReadClient,
      sdk: sdkClient(file.uploadUrls),
    })) {
      const told = await client(request, body);
      if (typeof told === 'string' || told.status !== 507 || told.body?.code !== 'insufficient_storage')
        wrong.push(`${name}: ${JSON.stringify(told)}`);
    }
    assert.deepEqual(wrong, []);
  });
});
