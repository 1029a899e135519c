import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import type { UploadStatusResponse } from '../../src/contract/types.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { chunkBody, chunkUrl, createDirect, getJson, slowPut } from '../support/api.js';
import { until } from '../support/poll.js';
import { type SpawnedServer, scrapeMetrics, spawnServer, tempDir } from '../support/server.js';

/**
 * Graceful shutdown, with a real SIGTERM to the service in a child process while a chunk PUT is in
 * flight: it stops accepting connections at once, lets the upload finish within the grace period,
 * and past the grace period closes it, leaving that chunk missing (never half-stored).
 */

/** Whether a new TCP connection is still accepted (a fresh one each time, no keep-alive). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function inFlight(node: SpawnedServer): Promise<number> {
  const text = await scrapeMetrics(node.baseUrl);
  return Number(/webfolder_chunk_uploads_in_flight (\d+)/.exec(text)?.[1] ?? -1);
}

async function setup(grace: string) {
  const dataDir = await tempDir();
  const env = { DATA_DIR: dataDir, CHUNK_SIZE_MIB: '5', SHUTDOWN_GRACE_SECONDS: grace, LOG_LEVEL: 'warn' };
  const node = await spawnServer(env);
  const size = 5 * MIB - 1000;
  const created = await createDirect(node.baseUrl, [size]);
  const file = created.files[0]!;
  const body = chunkBody(size, file.chunkSize, 1);
  const put = slowPut(chunkUrl(file.uploadUrls, 1), file.uploadUrls.headers, body, 1024 * 1024);
  await until('the upload to be in flight', async () => (await inFlight(node)) === 1);
  const statusUrl = (baseUrl: string) =>
    `${baseUrl}/v2/folders/${created.folderId}/files/${file.fileId}/upload-status?uploadAuth=${created.uploadAuth}`;
  return { dataDir, env, node, put, statusUrl, created };
}

test('SIGTERM mid-upload: no new connections, the upload in flight finishes, then the process exits 0', {
  timeout: 120_000,
}, async () => {
  const { env, node, put, statusUrl } = await setup('60');
  const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
  node.child.kill('SIGTERM');
  await until('the listener to close', async () => !(await accepts(node.port)));
  assert.equal(node.child.exitCode, null, 'the process waits for the upload in flight');
  put.rest();
  assert.equal(await put.status, 200);
  assert.equal(await exited, 0);
  const again = await spawnServer(env);
  try {
    const status = await getJson<UploadStatusResponse>(statusUrl(again.baseUrl));
    assert.deepEqual(status.body, { complete: true, missing: [] });
  } finally {
    await again.stop();
  }
});

test('SIGTERM mid-upload past the grace period: the connection is closed and the chunk is missing, not half-stored', {
  timeout: 120_000,
}, async () => {
  const { dataDir, env, node, put, statusUrl, created } = await setup('1');
  const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
  node.child.kill('SIGTERM');
  // The rest of the body never comes: after the grace period the server closes the connection.
  assert.equal(await put.status, 'reset');
  assert.equal(await exited, 0);
  const fileDir = join(dataDir, 'blobs', created.folderId, created.files[0]!.fileId);
  const stored = await readdir(fileDir).catch(() => []);
  assert.deepEqual(stored, [], 'nothing under a final chunk name');
  const again = await spawnServer(env);
  try {
    const status = await getJson<UploadStatusResponse>(statusUrl(again.baseUrl));
    assert.deepEqual(status.body, { complete: false, missing: [1] });
  } finally {
    await again.stop();
  }
});

test('SIGTERM with an idle keep-alive client: answers say Connection: close, and the process exits soon after its last answer', {
  timeout: 120_000,
}, async () => {
  const { node, created, put } = await setup('60');
  // A client holding an idle keep-alive connection: the drain must not wait for it.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const idleClosed = new Promise<void>((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port: node.port, path: '/healthz', agent }, (res) => {
      res.resume();
      res.on('end', () => req.socket!.once('close', () => resolve()));
    });
    req.end();
  });
  // A second upload in flight (of the same chunk: which of the two is stored does not matter here),
  // whose answer's headers are read.
  const file = created.files[0]!;
  const body = chunkBody(5 * MIB - 1000, file.chunkSize, 1);
  let finish!: () => void;
  const answer = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = httpRequest(
      chunkUrl(file.uploadUrls, 1),
      {
        method: 'PUT',
        headers: { ...file.uploadUrls.headers, 'content-length': String(body.length) },
        agent: new Agent({ keepAlive: true }),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, 1024));
    finish = () => req.end(body.subarray(1024));
  });
  await until('both uploads to be in flight', async () => (await inFlight(node)) === 2);
  const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
  node.child.kill('SIGTERM');
  await until('the listener to close', async () => !(await accepts(node.port)));
  await idleClosed;
  finish();
  put.rest();
  const [told] = await Promise.all([answer, put.status]);
  assert.equal(told.connection, 'close', 'an answer during the drain closes its connection');
  const answeredAt = performance.now();
  assert.equal(await exited, 0);
  // Far below the 60 s grace period: the drain ended with its work.
  const afterLastAnswer = performance.now() - answeredAt;
  assert.ok(afterLastAnswer < 15_000, `exited ${Math.round(afterLastAnswer)} ms after the last answer`);
});
