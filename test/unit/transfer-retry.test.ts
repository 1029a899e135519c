import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  AbortedError,
  errorCodeOf,
  exchange,
  NetworkError,
  type RetryInfo,
  readFailure,
  WebfolderError,
} from '../../src/transfer/index.js';

/**
 * The one retry policy, against a real loopback server that answers from a script: Retry-After is
 * honoured exactly (plus at most 250 ms of jitter), other failures back off with jitter, 4xx are
 * final with their `{error, code}`, and an AbortSignal cancels a wait.
 */
let answers: Array<(res: ServerResponse) => void> = [];
const seen: IncomingMessage[] = [];
const server = createServer((req, res) => {
  seen.push(req);
  const answer = answers.shift();
  if (answer) answer(res);
  else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
});
let base = '';
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('retry policy', () => {
  test('429 with Retry-After waits what the server asked, then succeeds', async () => {
    answers = [json(429, { error: 'slow down', code: 'rate_limited' }, { 'retry-after': '1' })];
    const retries: RetryInfo[] = [];
    const response = await exchange('probe', `${base}/a`, {}, { onRetry: (i) => retries.push(i) });
    assert.equal(response.status, 200);
    assert.equal(retries.length, 1);
    assert.equal(retries[0]!.status, 429);
    assert.equal(retries[0]!.reason, 'slow down');
    assert.ok(retries[0]!.delayMs >= 1000 && retries[0]!.delayMs < 1250, String(retries[0]!.delayMs));
  });

  test('5xx and network failures back off with jitter under an exponential ceiling', async () => {
    answers = [json(503, { error: 'busy' }), json(500, { error: 'oops' })];
    const retries: RetryInfo[] = [];
    await exchange('probe', `${base}/b`, {}, { retry: { baseDelayMs: 10 }, onRetry: (i) => retries.push(i) });
    assert.deepEqual(
      retries.map((r) => r.status),
      [503, 500],
    );
    assert.ok(retries[0]!.delayMs < 10 && retries[1]!.delayMs < 20);
  });

  test('a 4xx is final: one request, its message and code on the error', async () => {
    answers = [json(403, { error: 'signature does not match', code: 'forbidden' })];
    const before = seen.length;
    await assert.rejects(
      exchange('PUT chunk', `${base}/c`, { method: 'PUT', body: 'x' }),
      (e: unknown) =>
        e instanceof WebfolderError &&
        e.status === 403 &&
        e.serverCode === 'forbidden' &&
        e.serverMessage === 'signature does not match',
    );
    assert.equal(seen.length - before, 1);
  });

  test('the retries run out: the last failure is thrown', async () => {
    answers = [json(502, { error: 'a' }), json(502, { error: 'b' })];
    await assert.rejects(
      exchange('probe', `${base}/d`, {}, { retry: { retries: 1, baseDelayMs: 1 } }),
      (e: unknown) => e instanceof WebfolderError && e.status === 502 && e.serverMessage === 'b',
    );
  });

  test('an AbortSignal cancels a Retry-After wait at once', async () => {
    answers = [json(429, { error: 'wait' }, { 'retry-after': '300' })];
    const controller = new AbortController();
    const pending = exchange(
      'probe',
      `${base}/e`,
      {},
      { signal: controller.signal, onRetry: () => controller.abort() },
    );
    await assert.rejects(pending, AbortedError);
  });

  test('no server: NetworkError after the retries', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    let retries = 0;
    await assert.rejects(
      exchange(
        'probe',
        `http://127.0.0.1:${port}/`,
        {},
        { retry: { retries: 2, baseDelayMs: 1 }, onRetry: () => retries++ },
      ),
      NetworkError,
    );
    assert.equal(retries, 2);
  });
});

describe('reading a failure', () => {
  test('{error, code} JSON, S3 XML and plain text', async () => {
    assert.deepEqual(await readFailure(new Response('{"error":"gone","code":"expired"}', { status: 404 })), {
      message: 'gone',
      code: 'expired',
    });
    assert.deepEqual(await readFailure(new Response('{"error":"old server"}', { status: 404 })), {
      message: 'old server',
      code: null,
    });
    const xml = '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
    assert.deepEqual(await readFailure(new Response(xml, { status: 403 })), {
      message: 'Request has expired',
      code: 'AccessDenied',
    });
    assert.equal((await readFailure(new Response('Bad Gateway', { status: 502 }))).message, 'Bad Gateway');
    assert.equal(errorCodeOf({ error: 'x', code: 7 }), null);
    assert.equal(errorCodeOf(null), null);
  });
});
