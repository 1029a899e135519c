import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { loggerOptions } from '../../src/http/logging.js';
import { buildServer, type Webfolder } from '../../src/server.js';
import { chunkBody, chunkUrl, createDirect, postJson, putChunk } from '../support/api.js';
import { until } from '../support/poll.js';
import { freePort, tempDir } from '../support/server.js';

/**
 * Logs tell faults from clients: every client-caused event (an upload or a download the client
 * abandons, a connection the peer resets, refusals by design: validation, an oversized body, a rate
 * limit, a quota, an unknown route, a draining node) is logged below error level, as one line
 * without a stack. The test fails on any error-level line while they happen.
 */
interface Line {
  level: number;
  msg: string;
  err?: { stack?: string };
}
const lines: Line[] = [];
let server: Webfolder;
let baseUrl = '';

before(async () => {
  const port = await freePort();
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: await tempDir(),
    CHUNK_SIZE_MIB: '5',
    RATE_LIMIT_CREATE: '8',
    QUOTA_FOLDER_MIB: '20',
    LOG_LEVEL: 'debug',
  });
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
  server = await buildServer(config, { logger: { ...(loggerOptions('debug') as object), stream } });
  await server.app.listen({ port, host: '127.0.0.1' });
  baseUrl = config.baseUrl;
});
after(() => server?.close());

/** A PUT that sends half its body, then abandons it (destroy: the client's side closes). */
function abandonedPut(url: string, headers: Record<string, string>, body: Buffer, reset: boolean): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'PUT',
      headers: { ...headers, 'content-length': String(body.length) },
      agent: false,
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, body.length >> 1), () => {
      if (reset) req.socket?.resetAndDestroy();
      else req.destroy();
    });
  });
}

test('client-caused events are not error lines', { timeout: 120_000 }, async () => {
  const size = 5 * MIB;
  const created = await createDirect(baseUrl, [size, size]);
  const [stored, open] = created.files;
  const inFlight = async () =>
    Number(/webfolder_chunk_uploads_in_flight (\d+)/.exec(await server.metrics.text())?.[1] ?? 0);
  // Uploads the client abandons: closed, and reset by the peer, mid-body.
  for (const reset of [false, true]) {
    await abandonedPut(
      chunkUrl(open!.uploadUrls, 1),
      open!.uploadUrls.headers,
      chunkBody(size, open!.chunkSize, 1),
      reset,
    );
    await until('the abandoned upload to be over', async () => (await inFlight()) === 0);
  }
  // A download the client abandons after its first bytes.
  const body = chunkBody(size, stored!.chunkSize, 1);
  assert.equal((await putChunk(chunkUrl(stored!.uploadUrls, 1), stored!.uploadUrls.headers, body)).status, 200);
  await new Promise<void>((resolve) => {
    const req = httpRequest(
      `${baseUrl}/api/site/folders/${created.folderId}/files/${stored!.fileId}/chunks/00001`,
      (res) => {
        res.once('data', () => {
          res.destroy();
          resolve();
        });
      },
    );
    req.on('error', () => resolve());
    req.end();
  });
  // Refusals by design.
  assert.equal((await postJson(`${baseUrl}/v2/folders`, '{"title":')).status, 400);
  assert.equal((await postJson(`${baseUrl}/v2/folders`, { mode: 'nope' })).status, 400);
  assert.equal((await postJson(`${baseUrl}/v2/folders`, { title: 'x'.repeat(200_000) })).status, 400);
  assert.equal(
    (
      await postJson(`${baseUrl}/v2/folders`, {
        encryption: { ske: 's' },
        files: [{ filename: 'f', filesize: 30 * MIB }],
      })
    ).status,
    400,
  );
  assert.equal((await fetch(`${baseUrl}/v2/nothing-here`)).status, 404);
  let limited = 0;
  for (let i = 0; i < 10 && limited === 0; i++)
    if ((await postJson(`${baseUrl}/v2/folders`, {})).status === 429) limited++;
  assert.equal(limited, 1, 'the rate limit was reached');
  // A request head the peer resets half-way.
  await new Promise<void>((resolve) => {
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1', () =>
      socket.write('PUT /v2/uploads/a/b/00001 HTTP/1.1\r\nHost: x\r\n', () => {
        socket.resetAndDestroy();
        resolve();
      }),
    );
  });
  // A request that reaches a draining node (its head begun before the drain, finished after).
  const target = new URL(chunkUrl(open!.uploadUrls, 1));
  const socket = await new Promise<ReturnType<typeof connect>>((resolve) => {
    const s = connect(Number(target.port), target.hostname, () =>
      s.write(`PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n`, () => resolve(s)),
    );
  });
  await until(
    'the connection to be accepted',
    async () => (await new Promise<number>((r) => server.app.server.getConnections((_e, n) => r(n)))) >= 1,
  );
  await new Promise((resolve) => setImmediate(resolve));
  const closing = server.close();
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', () => resolve(text));
    socket.end('Content-Length: 10\r\n\r\n0123456789');
  });
  await closing;
  assert.match(answer, /^HTTP\/1\.1 503 /);

  const errors = lines.filter((l) => l.level >= 50);
  assert.deepEqual(errors, [], 'no error line from a client-caused event');
  const withStack = lines.filter((l) => l.err?.stack);
  assert.deepEqual(withStack, [], 'no stack for a client-caused event');
  // The events were logged, each as one line.
  for (const msg of ['request refused', 'connection closed before the answer'])
    assert.ok(
      lines.some((l) => l.msg === msg),
      `a "${msg}" line`,
    );
});
