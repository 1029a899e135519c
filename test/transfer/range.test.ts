import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { upload } from '../../src/client/node/index.js';
import {
  contentRange,
  type DownloadFile,
  downloadStream,
  type Fetch,
  filePlan,
  listFolder,
  parseRange,
  rangeChunks,
} from '../../src/transfer/index.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * Byte ranges to chunks (src/transfer/range.ts), the arithmetic behind seeking in a streamed
 * video, and `downloadStream(file, {range})` against a real server: exactly the touched chunks are
 * fetched and exactly the asked bytes come back.
 */
const MIB = 1024 * 1024;

describe('parseRange', () => {
  test('reads the three forms of one bytes range', () => {
    assert.deepEqual(parseRange('bytes=0-', 100), { start: 0, end: 99 });
    assert.deepEqual(parseRange('bytes=10-19', 100), { start: 10, end: 19 });
    assert.deepEqual(parseRange('bytes=90-500', 100), { start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-10', 100), { start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-500', 100), { start: 0, end: 99 });
    assert.deepEqual(parseRange(' Bytes = 5 - 6 ', 100), { start: 5, end: 6 });
  });
  test('no header, several ranges, other units or a reversed range: the whole file', () => {
    assert.equal(parseRange(null, 100), null);
    assert.equal(parseRange('', 100), null);
    assert.equal(parseRange('bytes=0-1,5-6', 100), null);
    assert.equal(parseRange('items=0-1', 100), null);
    assert.equal(parseRange('bytes=-', 100), null);
    assert.equal(parseRange('bytes=20-10', 100), null);
  });
  test('a range past the end is unsatisfiable', () => {
    assert.equal(parseRange('bytes=100-', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=1000-2000', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=99999999999999999999-', 100), 'unsatisfiable');
  });
});

describe('rangeChunks', () => {
  const plan = filePlan(25, 10, 3);
  test('maps a range to the chunks it touches and the part of each', () => {
    assert.deepEqual(rangeChunks(plan, { start: 0, end: 24 }), [
      { n: 1, from: 0, to: 10 },
      { n: 2, from: 0, to: 10 },
      { n: 3, from: 0, to: 5 },
    ]);
    assert.deepEqual(rangeChunks(plan, { start: 12, end: 12 }), [{ n: 2, from: 2, to: 3 }]);
    assert.deepEqual(rangeChunks(plan, { start: 9, end: 10 }), [
      { n: 1, from: 9, to: 10 },
      { n: 2, from: 0, to: 1 },
    ]);
    assert.deepEqual(rangeChunks(plan, { start: 20, end: 24 }), [{ n: 3, from: 0, to: 5 }]);
    assert.equal(contentRange({ start: 9, end: 10 }, 25), 'bytes 9-10/25');
  });
  test('the slices cover exactly the range, for every range of a small file', () => {
    for (let start = 0; start < 25; start++)
      for (let end = start; end < 25; end++) {
        const slices = rangeChunks(plan, { start, end });
        assert.equal(
          slices.reduce((sum, s) => sum + s.to - s.from, 0),
          end - start + 1,
        );
        assert.equal((slices[0]!.n - 1) * 10 + slices[0]!.from, start);
      }
  });
  test('a range outside the file is refused', () => {
    assert.throws(() => rangeChunks(plan, { start: 0, end: 25 }), RangeError);
    assert.throws(() => rangeChunks(plan, { start: 5, end: 4 }), RangeError);
  });
});

describe('downloadStream with a range', () => {
  let server: RunningServer;
  let dir: string;
  before(async () => {
    server = await startServer({ CHUNK_SIZE_MIB: '5' });
    dir = await tempDir('webfolder-range-');
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('fetches only the chunks the range touches and hands on exactly its bytes', async () => {
    const content = randomBytes(4 * 5 * MIB + 777);
    const path = join(dir, 'video.bin');
    await writeFile(path, content);
    const result = await upload([path], { server: server.baseUrl });
    const listing = await listFolder(result.link);
    const f = listing.files[0]!;
    const file: DownloadFile = {
      name: f.name,
      size: f.size,
      chunkSize: f.chunkSize,
      chunks: f.chunks,
      key: listing.key,
      siteApi: listing.siteApi,
      folderId: listing.folderId,
      fileId: f.fileId,
      credentials: {},
    };
    for (const [start, end, chunks] of [
      [5 * MIB - 3, 5 * MIB + 3, [1, 2]],
      [3 * 5 * MIB + 10, content.length - 1, [4, 5]],
      [content.length - 1, content.length - 1, [5]],
      [7, 7, [1]],
    ] as const) {
      const fetched: number[] = [];
      const counting: Fetch = (url, init) => {
        const m = /\/chunks\/(\d{5})$/.exec(url);
        if (m) fetched.push(Number(m[1]));
        return fetch(url, init);
      };
      const got = Buffer.from(
        await new Response(downloadStream(file, { fetch: counting, range: { start, end } })).arrayBuffer(),
      );
      assert.ok(got.equals(content.subarray(start, end + 1)), `bytes ${start}-${end}`);
      assert.deepEqual(
        fetched.sort((a, b) => a - b),
        chunks,
      );
    }
  });
});
