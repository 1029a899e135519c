import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIB, planChunks } from '../../src/domain/chunk-plan.js';
import { chunksAhead } from '../../src/transfer/download.js';

// How many chunks a streamed download fetches ahead (src/transfer/download.ts): three for the default
// chunk sizes, fewer as chunks grow, never none, so memory stays bounded for a 999 GiB file.
test('the download window is three chunks for default chunk sizes and shrinks for large chunks', () => {
  assert.equal(chunksAhead(5 * MIB), 3);
  assert.equal(chunksAhead(10 * MIB), 3);
  assert.equal(chunksAhead(21 * MIB), 3);
  assert.equal(chunksAhead(22 * MIB), 2);
  assert.equal(chunksAhead(33 * MIB), 1);
  const largest = planChunks(999 * 1024 * MIB, 10).chunkSize;
  assert.equal(chunksAhead(largest), 1);
  assert.ok(largest * (chunksAhead(largest) + 1) <= 256 * MIB);
});

// The page's downloads ask for fewer (web/src/workers/sw.ts, PAGE_AHEAD): the same rule under a lower cap.
test('a lower cap bounds the window, which never falls below one chunk', () => {
  assert.equal(chunksAhead(10 * MIB, 1), 1);
  assert.equal(chunksAhead(10 * MIB, 2), 2);
  assert.equal(chunksAhead(33 * MIB, 2), 1);
  assert.equal(chunksAhead(105 * MIB, 2), 1);
});
