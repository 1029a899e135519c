import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nodeFetch } from '../../src/client/node/transport.js';
import { WebfolderError } from '../../src/transfer/errors.js';
import { homeRequest, RedirectRefusedError, responseBytes } from '../../src/transfer/outbound.js';
import { fetchChunkBytes, SiteClient } from '../../src/transfer/site-client.js';
import { leaks, type StandIns, startStandIns } from '../support/stand-in.js';

/**
 * The Node transport's chunk GETs (src/client/node/transport.ts: node:http into one buffer of the
 * announced length), under the outbound layer's rules: the same stand-ins as
 * outbound-calls.test.ts (home on 127.0.0.1, a recording other origin on 127.0.0.2).
 */
const FOLDER = 'AAAAAAAAAAAAAAAA';
const FILE = 'BBBBBBBBBBBBBBBB';
const credentials = { ownerToken: 'owner-secret', visitorToken: 'visitor-secret', uploadAuth: 'upload-secret' };
const viaNode = { retry: { retries: 0 }, fetch: nodeFetch };
const bytesAsked = { accept: 'application/octet-stream, application/json' };

let s: StandIns;
before(async () => {
  s = await startStandIns();
});
after(() => s.close());

describe('chunk GETs through the Node transport', () => {
  test('the site redirects to object storage: that GET carries no token, no ticket; the bytes arrive', async () => {
    s.behave = { kind: 'redirect-away' };
    s.elsewhereAnswer = (_req, res) => res.end('chunk bytes');
    const before = s.elsewhereSeen.length;
    const site = new SiteClient(`${s.home}/api/site`, FOLDER, credentials, viaNode);
    const bytes = await site.fetchChunk(FILE, 1, 'GET chunk 1', undefined, 'ticket-secret');
    assert.equal(Buffer.from(bytes).toString(), 'chunk bytes');
    const fetched = s.elsewhereSeen.slice(before);
    assert.equal(fetched.length, 1, 'the chunk came from the other origin');
    assert.deepEqual(leaks(fetched), []);
    assert.equal(s.homeSeen.at(-1)!.headers['x-download-ticket'], 'ticket-secret', 'the ticket went home');
  });

  test('a home GET with credentials that is redirected is not followed: the layer gets the 3xx', async () => {
    s.behave = { kind: 'redirect-away' };
    const before = s.elsewhereSeen.length;
    const response = await nodeFetch(`${s.home}/c/1`, {
      headers: { ...bytesAsked, 'x-owner-token': 'owner-secret' },
      redirect: 'manual',
    });
    assert.equal(response.status, 307);
    assert.equal(s.elsewhereSeen.length, before, 'nothing reached the other origin');
    // Through the layer: a home request that may not see redirects refuses it, naming where.
    await assert.rejects(
      homeRequest(
        'GET chunk 1',
        `${s.home}/c/1`,
        { headers: bytesAsked, credentials: { 'x-owner-token': 'owner-secret' } },
        viaNode,
      ),
      (e: unknown) => e instanceof RedirectRefusedError && e.message.includes(s.elsewhere),
    );
    assert.equal(s.elsewhereSeen.length, before, 'nothing reached the other origin');
  });

  test('a presigned GET that redirects is followed (by fetch), still with nothing of ours', async () => {
    s.behave = { kind: 'redirect-away' };
    s.elsewhereAnswer = (_req, res) => res.end('moved bytes');
    const before = s.elsewhereSeen.length;
    const response = await nodeFetch(`${s.home}/presigned`, { headers: bytesAsked });
    assert.equal(Buffer.from(await responseBytes(response)).toString(), 'moved bytes');
    assert.deepEqual(leaks(s.elsewhereSeen.slice(before)), []);
  });

  test('the body is held in one buffer of the announced length and handed on without a copy', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    s.behave = {
      kind: 'handler',
      handle: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
        for (let at = 0; at < body.length; at += 100_000) res.write(body.subarray(at, at + 100_000));
        res.end();
      },
    };
    const response = await nodeFetch(`${s.home}/c/1`, { headers: bytesAsked });
    assert.equal(response.body, null, 'no body stream: the transport holds the bytes');
    const bytes = await responseBytes(response);
    assert.equal(bytes.byteLength, body.length);
    assert.equal(bytes.buffer.byteLength, body.length, 'one buffer of exactly the announced length');
    assert.ok(Buffer.from(bytes).equals(body));
  });

  test('a body cut short is a network failure, retried; the next answer is used', async () => {
    let answers = 0;
    s.behave = {
      kind: 'handler',
      handle: (_req, res) => {
        answers++;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 1000 });
        if (answers === 1) {
          res.write(Buffer.alloc(500, 1));
          setImmediate(() => res.destroy());
        } else res.end(Buffer.alloc(1000, 2));
      },
    };
    const retried: string[] = [];
    const bytes = await fetchChunkBytes(`${s.home}/c/1`, {}, 'GET chunk 1', {
      fetch: nodeFetch,
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 },
      onRetry: (info) => retried.push(info.reason),
    });
    assert.equal(answers, 2);
    assert.equal(retried.length, 1, retried.join('; '));
    assert.ok(Buffer.from(bytes).equals(Buffer.alloc(1000, 2)));
  });

  test("an error answer keeps its body: the service's {error, code} reaches the caller", async () => {
    s.behave = {
      kind: 'handler',
      handle: (_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'chunk not found', code: 'chunk_not_found' }));
      },
    };
    await assert.rejects(
      fetchChunkBytes(`${s.home}/c/1`, {}, 'GET chunk 1', viaNode),
      (e: unknown) => e instanceof WebfolderError && e.status === 404 && e.serverCode === 'chunk_not_found',
    );
  });
});
