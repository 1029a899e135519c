import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOUR_MS } from '../../src/domain/limits.js';
import {
  deleteAfterForChosenExpiry,
  downloadsLeft,
  effectiveFileExpiry,
  effectiveLimit,
  expiryInHours,
  expiryRefusal,
  folderExpiresAt,
  latestExpiry,
  mayDownload,
} from '../../src/domain/owner-settings.js';

/** The owner's settings, with explicit times: src/domain/owner-settings.ts. */
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

test('a chosen expiry must be in the future and at most MAX_EXPIRES_HOURS from now', () => {
  assert.equal(expiryRefusal(T0 + 1, T0, 720), null);
  assert.equal(expiryRefusal(T0 + 720 * HOUR_MS, T0, 720), null, 'exactly the maximum');
  assert.match(expiryRefusal(T0 + 720 * HOUR_MS + 1, T0, 720)!, /at most 720 hours/);
  assert.match(expiryRefusal(T0, T0, 720)!, /future/, 'now is not the future');
  assert.match(expiryRefusal(T0 - HOUR_MS, T0, 720)!, /future/);
  assert.match(expiryRefusal(1.5, T0, 720)!, /epoch milliseconds/);
  assert.equal(latestExpiry(T0, 24), T0 + 24 * HOUR_MS);
  assert.equal(expiryInHours(T0, 7 * 24), T0 + 168 * HOUR_MS);
});

test("a chosen expiry is every file's; without one each file keeps its own", () => {
  assert.equal(effectiveFileExpiry(T0 + 5 * HOUR_MS, T0 + 72 * HOUR_MS), T0 + 5 * HOUR_MS);
  assert.equal(effectiveFileExpiry(null, T0 + 72 * HOUR_MS), T0 + 72 * HOUR_MS);
});

test('deleteAfter under a chosen expiry: the choice with files; an empty folder keeps its 24 h deadline unless earlier', () => {
  assert.equal(deleteAfterForChosenExpiry({ createdAt: T0, fileCount: 2 }, T0 + 500 * HOUR_MS), T0 + 500 * HOUR_MS);
  assert.equal(deleteAfterForChosenExpiry({ createdAt: T0, fileCount: 2 }, T0 + HOUR_MS), T0 + HOUR_MS);
  assert.equal(deleteAfterForChosenExpiry({ createdAt: T0, fileCount: 0 }, T0 + 500 * HOUR_MS), T0 + 24 * HOUR_MS);
  assert.equal(deleteAfterForChosenExpiry({ createdAt: T0, fileCount: 0 }, T0 + 3 * HOUR_MS), T0 + 3 * HOUR_MS);
});

test("the folder's expiry shown: the choice, else the latest file's, else none", () => {
  assert.equal(folderExpiresAt({ expiresAt: T0 + 9, deleteAfter: T0 + 5 }, true), T0 + 9);
  assert.equal(folderExpiresAt({ expiresAt: T0 + 9, deleteAfter: T0 + 5 }, false), T0 + 9);
  assert.equal(folderExpiresAt({ expiresAt: null, deleteAfter: T0 + 5 }, true), T0 + 5);
  assert.equal(folderExpiresAt({ expiresAt: null, deleteAfter: T0 + 5 }, false), null);
});

test("the download limit: the file's own, else the folder's; counted up to it", () => {
  assert.equal(effectiveLimit(2, 10), 2);
  assert.equal(effectiveLimit(null, 10), 10);
  assert.equal(effectiveLimit(null, null), null);
  assert.equal(mayDownload(0, 1), true);
  assert.equal(mayDownload(1, 1), false);
  assert.equal(mayDownload(1_000_000, null), true);
  assert.equal(downloadsLeft(1, 3), 2);
  assert.equal(downloadsLeft(5, 3), 0, 'a lowered limit leaves none, never a negative number');
  assert.equal(downloadsLeft(5, null), null);
});
