import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encryptChunk, generateSecret, IntegrityError, importSecret } from '../../src/crypto/index.js';
import { MAX_CHUNKS_PER_FILE, MIB, planChunks } from '../../src/domain/chunk-plan.js';
import { MAX_CHUNKS_PER_REQUEST, MAX_SITE_FILES_PER_REQUEST } from '../../src/domain/limits.js';
import {
  allChunks,
  chunkOffset,
  chunkUrl,
  encryptedChunkLength,
  encryptedLength,
  filePlan,
  plaintextChunkLength,
  registrationBatches,
  siteApiFor,
  siteChunkUrl,
  storedBytes,
} from '../../src/transfer/index.js';

/** The transfer core's pure rules: lengths (from the domain, read once) and the URL rules. */
describe('lengths', () => {
  test('the RFC 8188 length is what encryption really writes, at every record boundary', async () => {
    const key = await importSecret(generateSecret());
    for (const p of [1, 2, 65_518, 65_519, 65_520, 2 * 65_519, 2 * 65_519 + 1, 1_000_003]) {
      const message = await encryptChunk(key, new Uint8Array(p));
      assert.equal(message.byteLength, encryptedLength(p), `p = ${p}`);
      assert.equal(encryptedLength(p), 21 + p + 17 * Math.ceil(p / 65_519));
    }
  });

  test('plaintext length of chunk n: full chunks, then the rest', () => {
    const plan = filePlan(11 * MIB + 17, 5 * MIB, 3);
    assert.deepEqual(
      allChunks(plan).map((n) => plaintextChunkLength(plan, n)),
      [5 * MIB, 5 * MIB, MIB + 17],
    );
    assert.equal(chunkOffset(plan, 3), 10 * MIB);
    assert.equal(encryptedChunkLength(plan, 3), encryptedLength(MIB + 17));
    assert.throws(() => plaintextChunkLength(plan, 4), RangeError);
  });

  test('resume arithmetic: stored bytes are all but the missing chunks (duplicates and strays ignored)', () => {
    const plan = filePlan(11 * MIB + 17, 5 * MIB, 3);
    assert.equal(storedBytes(plan, []), plan.filesize);
    assert.equal(storedBytes(plan, [3]), 10 * MIB);
    assert.equal(storedBytes(plan, [1, 1, 3, 9]), 5 * MIB);
    assert.equal(storedBytes(plan, [1, 2, 3]), 0);
  });

  test('a plan whose numbers cannot describe the file is refused as an integrity failure', () => {
    assert.throws(
      () => filePlan(10, 5, 3, 'a.bin'),
      (e: unknown) => e instanceof IntegrityError && /a\.bin/.test(String(e)),
    );
    assert.throws(() => filePlan(0, 5, 0), IntegrityError);
    const planned = planChunks(999 * 1024 * MIB, 10);
    assert.deepEqual(filePlan(planned.filesize, planned.chunkSize, planned.chunks), planned);
  });
});

describe('URL rules', () => {
  test('the file.kiwi chunk URL rule', () => {
    const urls = {
      head: 'https://b.s3.example/',
      path: 'f/x',
      tail: 'X-Amz-Algorithm=A&X-Amz-Date=D',
      signatures: ['s1', 's2'],
      headers: {},
    };
    assert.equal(chunkUrl(urls, 2), 'https://b.s3.example/f/x/00002?X-Amz-Algorithm=A&X-Amz-Date=D&X-Amz-Signature=s2');
    assert.throws(() => chunkUrl(urls, 3), RangeError);
  });

  test('the site chunk URL and the site API of a link', () => {
    assert.equal(siteApiFor('https://h.example/share/f/AbC#k'), 'https://h.example/share/api/site');
    assert.equal(siteApiFor('https://h.example/f/AbC#k', 'https://w.example/'), 'https://w.example/api/site');
    assert.equal(
      siteChunkUrl('https://h.example/api/site/', 'AbC', 'F1', 7),
      'https://h.example/api/site/folders/AbC/files/F1/chunks/00007',
    );
  });
});

describe('registration batches', () => {
  const chunksOf = (sizes: readonly number[], chunkSizeMiB: number) =>
    sizes.reduce((sum, size) => sum + planChunks(size, chunkSizeMiB).chunks, 0);

  test('at most 100 files per batch, in order', () => {
    const sizes = Array.from({ length: 250 }, (_, i) => i + 1);
    const batches = registrationBatches(sizes, (s) => s, 5 * MIB);
    assert.deepEqual(
      batches.map((b) => b.length),
      [MAX_SITE_FILES_PER_REQUEST, MAX_SITE_FILES_PER_REQUEST, 50],
    );
    assert.deepEqual(batches.flat(), sizes);
  });

  test('no batch needs more chunk URLs than the server signs per request (413 past it), by its own plan', () => {
    // Eleven files of 10,000 chunks each at 8 MiB: 110,000 URLs in one request would be refused.
    const big = MAX_CHUNKS_PER_FILE * 8 * MIB;
    const sizes = [...Array.from({ length: 11 }, () => big), 1, 2];
    const batches = registrationBatches(sizes, (s) => s, 8 * MIB);
    assert.deepEqual(
      batches.map((b) => b.length),
      [10, 3],
    );
    for (const b of batches) assert.ok(chunksOf(b, 8) <= MAX_CHUNKS_PER_REQUEST);
    assert.deepEqual(batches.flat(), sizes);
    // Counted at the folder's chunk size, not the smallest: at 8 MiB these 120 files fit in two batches
    // by count (750 chunks each); at 5 MiB each needs 1,200, so the chunk cap splits them sooner.
    const mid = 6000 * MIB;
    const many = Array.from({ length: 120 }, () => mid);
    assert.deepEqual(
      registrationBatches(many, (s) => s, 8 * MIB).map((b) => b.length),
      [100, 20],
    );
    const small = registrationBatches(many, (s) => s, 5 * MIB);
    assert.deepEqual(
      small.map((b) => b.length),
      [83, 37],
    );
    for (const b of small) assert.ok(chunksOf(b, 5) <= MAX_CHUNKS_PER_REQUEST);
  });

  test('no files, no batches', () => {
    assert.deepEqual(
      registrationBatches([], (s: number) => s, 5 * MIB),
      [],
    );
  });
});
