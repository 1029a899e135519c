import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { MIB } from '../../src/domain/chunk-plan.js';
import { siteApiFor, siteChunkUrl } from '../../src/transfer/urls.js';
import { chunkBody, chunkUrl, createDirect, putChunk } from '../support/api.js';
import { startServer } from '../support/server.js';

/**
 * Stored chunks are sent from the local disk through a small pool of reused buffers: each answer
 * must still carry exactly its own chunk's bytes when many are sent at once, when clients go away
 * mid-chunk (their buffers must not come back to the pool while a write may hold them), for ranges
 * and for HEAD.
 */
const SIZE = 5 * MIB * 3 + 12345; // four chunks of 5 MiB (the last short): several 1 MiB pieces each

/** GETs `url`; with `stopAfter`, reads that many bytes and then drops the connection. */
function get(url: string, headers: Record<string, string> = {}, stopAfter?: number) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      let received = 0;
      res.on('data', (d: Buffer) => {
        parts.push(d);
        received += d.length;
        if (stopAfter !== undefined && received >= stopAfter) {
          req.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', () => {});
    });
    req.on('error', (error) => (stopAfter === undefined ? reject(error) : undefined));
    req.end();
  });
}

test('chunk downloads from the local disk: concurrent, cut short, ranged and HEAD answers carry their own bytes', async () => {
  const srv = await startServer({ CHUNK_SIZE_MIB: '5' });
  try {
    const created = await createDirect(srv.baseUrl, [SIZE]);
    const file = created.files[0]!;
    const bodies = new Map<number, Buffer>();
    for (let n = 1; n <= file.chunks; n++) {
      const body = chunkBody(SIZE, file.chunkSize, n);
      bodies.set(n, body);
      assert.equal((await putChunk(chunkUrl(file.uploadUrls, n), file.uploadUrls.headers, body)).status, 200);
    }
    const url = (n: number) => siteChunkUrl(siteApiFor(created.folderUrl), created.folderId, file.fileId, n);
    const whole = async () => {
      const answers = await Promise.all(
        [1, 2, 3, 4, 4, 3, 2, 1, 1, 2, 3, 4].map(async (n) => ({ n, answer: await get(url(n)) })),
      );
      for (const { n, answer } of answers) {
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['content-length'], String(bodies.get(n)!.length));
        assert.equal(answer.headers['content-type'], 'application/octet-stream');
        assert.ok(answer.body.equals(bodies.get(n)!), `chunk ${n} came back with other bytes`);
      }
    };
    await whole();
    // Clients that leave mid-chunk, many at once, while others download whole chunks.
    await Promise.all([
      ...[1, 2, 3, 1, 2, 3].map((n) => get(url(n), {}, 1.5 * MIB)),
      whole(),
      ...[3, 2, 1].map((n) => get(url(n), {}, 100)),
    ]);
    await whole();
    const range = await get(url(2), { range: `bytes=${MIB - 7}-${3 * MIB + 5}` });
    assert.equal(range.status, 206);
    assert.ok(range.body.equals(bodies.get(2)!.subarray(MIB - 7, 3 * MIB + 6)));
    const head = await fetch(url(3), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(bodies.get(3)!.length));
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    // The server is still whole: a create answers.
    assert.equal((await createDirect(srv.baseUrl, [10])).files.length, 1);
  } finally {
    await srv.close();
  }
});
