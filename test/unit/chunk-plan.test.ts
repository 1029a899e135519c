import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  encryptedChunkLength,
  encryptedLength,
  MIB,
  missingChunks,
  plaintextChunkLength,
  planChunks,
} from '../../src/domain/chunk-plan.js';
import { MAX_FILE_SIZE } from '../../src/domain/limits.js';

test('default plan uses 10 MiB chunks and a short last chunk', () => {
  const plan = planChunks(25 * MIB + 3, 10);
  assert.deepEqual(plan, { filesize: 25 * MIB + 3, chunkSize: 10 * MIB, chunks: 3 });
  assert.equal(plaintextChunkLength(plan, 1), 10 * MIB);
  assert.equal(plaintextChunkLength(plan, 3), 5 * MIB + 3);
  assert.throws(() => plaintextChunkLength(plan, 4), RangeError);
  assert.throws(() => plaintextChunkLength(plan, 0), RangeError);
});

test('chunk size grows by whole MiB only as far as needed to stay within 10000 chunks', () => {
  assert.equal(planChunks(10_000 * 10 * MIB, 10).chunkSize, 10 * MIB);
  assert.equal(planChunks(10_000 * 10 * MIB + 1, 10).chunkSize, 11 * MIB);
  const largest = planChunks(MAX_FILE_SIZE, 10);
  assert.equal(largest.chunkSize % MIB, 0);
  assert.ok(largest.chunks <= 10_000);
  assert.ok(Math.ceil(MAX_FILE_SIZE / (largest.chunkSize - MIB)) > 10_000, 'one MiB less would exceed 10000 chunks');
  assert.throws(() => planChunks(100, 4), RangeError, 'never below 5 MiB');
});

test('RFC 8188 lengths: 21 + p + 17 * ceil(p / 65519)', () => {
  assert.equal(encryptedLength(1), 21 + 1 + 17);
  assert.equal(encryptedLength(65519), 21 + 65519 + 17);
  assert.equal(encryptedLength(65520), 21 + 65520 + 34);
  assert.equal(encryptedLength(10 * MIB), 21 + 10 * MIB + 17 * Math.ceil((10 * MIB) / 65519));
  const plan = planChunks(11 * MIB, 10);
  assert.equal(encryptedChunkLength(plan, 2), encryptedLength(MIB));
});

test('missing chunks are listed ascending', () => {
  assert.deepEqual(missingChunks(5, [4, 1, 2]), [3, 5]);
  assert.deepEqual(missingChunks(3, [1, 2, 3]), []);
});
