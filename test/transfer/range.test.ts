import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { upload } from '../../src/client/node/index.js';
import { decryptChunkRecords, encryptChunk, generateSecret, importSecret } from '../../src/crypto/index.js';
import {
  contentRange,
  type DownloadFile,
  downloadStream,
  type Fetch,
  filePlan,
  listFolder,
  mediaStream,
  parseRange,
  rangeChunks,
  rangePieces,
  recordSpan,
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

describe('recordSpan: the RFC 8188 records of a part of a chunk', () => {
  const PER_RECORD = 65_519;
  test('names the records, their encrypted bytes and what to keep', () => {
    // A chunk of 3 full records and 10 bytes: 4 records, the last 10 + 17 bytes.
    const length = 3 * PER_RECORD + 10;
    assert.deepEqual(recordSpan(length, 0, 1), {
      first: 0,
      count: 1,
      total: 4,
      start: 21,
      end: 21 + 65_536 - 1,
      skip: 0,
      take: 1,
      plaintext: PER_RECORD,
    });
    assert.deepEqual(recordSpan(length, PER_RECORD + 5, 2 * PER_RECORD + 1), {
      first: 1,
      count: 2,
      total: 4,
      start: 21 + 65_536,
      end: 21 + 3 * 65_536 - 1,
      skip: 5,
      take: PER_RECORD - 4,
      plaintext: 2 * PER_RECORD,
    });
    assert.deepEqual(recordSpan(length, length - 1, length), {
      first: 3,
      count: 1,
      total: 4,
      start: 21 + 3 * 65_536,
      end: 21 + 3 * 65_536 + 27 - 1,
      skip: 9,
      take: 1,
      plaintext: 10,
    });
    assert.throws(() => recordSpan(length, 0, length + 1), RangeError);
    assert.throws(() => recordSpan(length, 5, 5), RangeError);
  });
  test('decrypts to exactly the asked bytes with the crypto encoder, for ranges across records', async () => {
    const key = await importSecret(generateSecret());
    for (const length of [1, 100, PER_RECORD, PER_RECORD + 1, 5 * PER_RECORD - 7]) {
      const plain = randomBytes(length);
      const chunk = await encryptChunk(key, plain);
      const cuts = [0, 1, PER_RECORD - 1, PER_RECORD, PER_RECORD + 1, 2 * PER_RECORD + 3, length - 1, length].filter(
        (c) => c <= length,
      );
      for (const from of cuts)
        for (const to of cuts) {
          if (to <= from) continue;
          const span = recordSpan(length, from, to);
          assert.equal(span.end + 1 <= chunk.length, true);
          const records = chunk.subarray(span.start, span.end + 1);
          const got = await decryptChunkRecords(key, chunk.subarray(0, 21), span.first, records, span.total);
          assert.equal(got.length, span.plaintext);
          assert.ok(
            Buffer.from(got.subarray(span.skip, span.skip + span.take)).equals(plain.subarray(from, to)),
            `${length}: ${from}-${to}`,
          );
        }
    }
  });
  test('an altered record, a wrong key or a record cut short fails; the final marker is checked', async () => {
    const key = await importSecret(generateSecret());
    const plain = randomBytes(3 * PER_RECORD);
    const chunk = await encryptChunk(key, plain);
    const header = chunk.subarray(0, 21);
    const span = recordSpan(plain.length, PER_RECORD, 2 * PER_RECORD);
    const records = chunk.slice(span.start, span.end + 1);
    records[100]! ^= 1;
    await assert.rejects(decryptChunkRecords(key, header, span.first, records, span.total), /record 2 of 3 failed/);
    const other = await importSecret(generateSecret());
    const good = chunk.subarray(span.start, span.end + 1);
    await assert.rejects(decryptChunkRecords(other, header, span.first, good, span.total), /failed authentication/);
    await assert.rejects(decryptChunkRecords(key, header, span.first, good.subarray(0, 1000), span.total), /truncated/);
    // Record 2 of 3 presented as the last of 2: its delimiter says more records follow.
    await assert.rejects(decryptChunkRecords(key, header, 1, good, 2), /missing final record/);
  });
  test('rangePieces cuts a range at record boundaries, at most N records a piece', () => {
    const plan = filePlan(2 * 10 * PER_RECORD + 5, 10 * PER_RECORD, 3);
    const pieces = rangePieces(plan, { start: 3 * PER_RECORD + 7, end: plan.filesize - 1 }, 4);
    assert.deepEqual(
      pieces.map((p) => [p.n, p.from, p.to, p.records.first, p.records.count]),
      [
        [1, 3 * PER_RECORD + 7, 4 * PER_RECORD, 3, 1],
        [1, 4 * PER_RECORD, 8 * PER_RECORD, 4, 4],
        [1, 8 * PER_RECORD, 10 * PER_RECORD, 8, 2],
        [2, 0, 4 * PER_RECORD, 0, 4],
        [2, 4 * PER_RECORD, 8 * PER_RECORD, 4, 4],
        [2, 8 * PER_RECORD, 10 * PER_RECORD, 8, 2],
        [3, 0, 5, 0, 1],
      ],
    );
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

  /** A file of `size` random bytes uploaded with the client library, as downloadStream takes it. */
  async function uploaded(size: number): Promise<{ content: Buffer; file: DownloadFile }> {
    const content = randomBytes(size);
    const path = join(dir, `file-${size}.bin`);
    await writeFile(path, content);
    const listing = await listFolder((await upload([path], { server: server.baseUrl })).link);
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
    return { content, file };
  }

  test('fetches only the chunks the range touches and hands on exactly its bytes', async () => {
    const { content, file } = await uploaded(4 * 5 * MIB + 777);
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

  test('mediaStream fetches only the records a range needs (206 from the chunk GET) and hands on its bytes', async () => {
    const { content, file } = await uploaded(2 * 5 * MIB + 999);
    for (const [start, end] of [
      [5 * MIB + 3 * 65_519 + 11, 5 * MIB + 3 * 65_519 + 20],
      [5 * MIB - 100, 5 * MIB + 100],
      [content.length - 10, content.length - 1],
      [0, content.length - 1],
    ] as const) {
      let bytes = 0;
      const statuses: number[] = [];
      const counting: Fetch = async (url, init) => {
        const response = await fetch(url, init);
        if (/\/chunks\/\d{5}$/.test(url)) {
          statuses.push(response.status);
          bytes += Number(response.headers.get('content-length'));
        }
        return response;
      };
      const got = Buffer.from(await new Response(mediaStream(file, { start, end }, { fetch: counting })).arrayBuffer());
      assert.ok(got.equals(content.subarray(start, end + 1)), `bytes ${start}-${end}`);
      assert.ok(statuses.length > 0 && statuses.every((s) => s === 206), `statuses ${statuses}`);
      // Whole records plus headers, never whole chunks for a short range.
      if (end - start < 1000) assert.ok(bytes <= 2 * (65_536 + 21), `fetched ${bytes} bytes for ${end - start + 1}`);
    }
  });
});
