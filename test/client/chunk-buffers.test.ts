import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { giveBackChunkBuffer, takeChunkBuffer, whileDownloading } from '../../src/client/node/chunk-buffers.js';
import { download, upload } from '../../src/client/node/index.js';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * The Node download reuses its chunk buffers (src/client/node/chunk-buffers.ts): the transport
 * reads a chunk into one, the file writer gives it back once the chunk's plaintext is written.
 * A buffer reused too early would put one chunk's bytes into another's place: the downloads here
 * run several chunks in flight, one after the other, and every byte is compared.
 */
const MIB = 1024 * 1024;
const CHUNK = 5 * MIB;

describe('chunk buffers', () => {
  test('a buffer given back is handed out again for the same length, and only for it', () =>
    whileDownloading(async () => {
      const length = 3 * MIB + 7;
      const first = takeChunkBuffer(length);
      assert.equal(first.length, length);
      giveBackChunkBuffer(first.subarray(5, 100)); // a view of it gives back the whole buffer
      assert.notEqual(takeChunkBuffer(length + 1).buffer, first.buffer, 'another length gets a fresh one');
      assert.equal(takeChunkBuffer(length).buffer, first.buffer, 'the same length gets it back');
      assert.notEqual(takeChunkBuffer(length).buffer, first.buffer, 'handed out once, not twice');
    }));

  test('a buffer it did not hand out is never taken (a slice of the shared small-buffer pool)', () =>
    whileDownloading(async () => {
      const small = Buffer.allocUnsafe(100); // a view of Node's shared 8 KiB pool
      const foreign = Buffer.allocUnsafeSlow(2 * MIB);
      giveBackChunkBuffer(small);
      giveBackChunkBuffer(foreign);
      assert.notEqual(takeChunkBuffer(small.buffer.byteLength).buffer, small.buffer);
      assert.notEqual(takeChunkBuffer(2 * MIB).buffer, foreign.buffer);
    }));

  test('at most two wait to be reused: the memory held stays bounded', () =>
    whileDownloading(async () => {
      const length = MIB + 3;
      const taken = [takeChunkBuffer(length), takeChunkBuffer(length), takeChunkBuffer(length)];
      for (const b of taken) giveBackChunkBuffer(b);
      giveBackChunkBuffer(taken[0]!); // twice: kept once
      const again = new Set([takeChunkBuffer(length).buffer, takeChunkBuffer(length).buffer]);
      const third = takeChunkBuffer(length).buffer;
      assert.equal(again.size, 2);
      assert.ok(!again.has(third), 'a third is a fresh buffer');
      assert.ok(!taken.some((b) => b.buffer === third), 'the third given back was not kept');
    }));

  test('once no download runs, nothing is kept: a program that downloaded once holds no spare memory', async () => {
    const length = 2 * MIB + 5;
    const given = await whileDownloading(async () => {
      const inner = await whileDownloading(async () => {
        const b = takeChunkBuffer(length);
        giveBackChunkBuffer(b);
        return b;
      });
      assert.equal(takeChunkBuffer(length).buffer, inner.buffer, 'kept while another download still runs');
      giveBackChunkBuffer(inner);
      return inner;
    });
    assert.notEqual(takeChunkBuffer(length).buffer, given.buffer, 'let go when the last one ended');
    giveBackChunkBuffer(given); // with no download running: not kept either
    assert.notEqual(takeChunkBuffer(length).buffer, given.buffer);
  });
});

describe('downloads with reused buffers', () => {
  let server: RunningServer;
  let dir: string;
  before(async () => {
    server = await startServer({ CHUNK_SIZE_MIB: '5' });
    dir = await tempDir('webfolder-chunk-buffers-');
  });
  after(() => server.close());

  test('two downloads of 6 chunks each, 4 in flight, one after the other: every byte where it belongs', async () => {
    const original = randomBytes(5 * CHUNK + 4321);
    const path = join(dir, 'six chunks.bin');
    await writeFile(path, original);
    const { link } = await upload([path], { server: server.baseUrl });
    // This test holds the spares open as a program running one download after another would, to see them.
    await whileDownloading(async () => {
      for (const round of [1, 2]) {
        const into = join(dir, `round-${round}`);
        await mkdir(into);
        const result = await download(link, into, { concurrency: 4 });
        assert.equal(result.files.length, 1);
        assert.ok(original.equals(await readFile(result.files[0]!.path)), `round ${round}: the file is the original`);
      }
      // The buffers did go round: a full chunk's buffer waits to be reused, holding a chunk's plaintext.
      const spare = takeChunkBuffer(encryptedLength(CHUNK));
      const starts = Array.from({ length: 5 }, (_, i) => original.subarray(i * CHUNK, i * CHUNK + 64));
      assert.ok(
        starts.some((s) => s.equals(spare.subarray(0, 64))),
        'a buffer given back by the download is handed out again',
      );
    });
  });
});
