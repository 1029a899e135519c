import assert from 'node:assert/strict';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { InsufficientStorageError } from '../../src/blobs/blob-store.js';
import { DiskSpace } from '../../src/blobs/local/disk-space.js';

/**
 * The reservations of registered files on a real disk (the temporary directory's), with the clock
 * in the test's hands: a folder's reservations last while its chunks keep arriving and lapse once
 * none arrived for the idle time; one folder and one client hold at most their share.
 */
const free = async () => {
  const s = await statfs(tmpdir());
  return s.bavail * s.bsize;
};
const FAR = Number.MAX_SAFE_INTEGER;
const refused = (pattern: RegExp) => (error: unknown) =>
  error instanceof InsufficientStorageError && pattern.test(error.message);

test('a folder whose chunks keep arriving keeps its reservation; one that stalls loses it', async () => {
  let now = 1_000_000;
  const space = new DiskSpace(tmpdir(), 1, () => now, { idleMs: 1000, share: 1 });
  const big = Math.floor((await free()) * 0.6);
  await space.reserveFiles([{ file: 'f1/a', bytes: big, until: FAR }], { folder: 'f1', client: 'x' });
  const other = () => space.reserveFiles([{ file: 'f2/b', bytes: big, until: FAR }], { folder: 'f2', client: 'y' });
  await assert.rejects(other(), refused(/out of storage/));
  // A chunk of the folder arrives within the idle time, twice: the reservation holds past it.
  for (let i = 0; i < 2; i++) {
    now += 600;
    assert.ok(space.takeFromFile('f1/a', 10) === 10);
    space.returnToFile('f1/a', 10);
  }
  now += 600;
  await assert.rejects(other(), refused(/out of storage/));
  // Nothing more arrives: after the idle time the space is free for others.
  now += 1000;
  await other();
  // The stalled file's chunks now count in full: nothing of it is prepaid any more.
  assert.equal(space.takeFromFile('f1/a', 10), 0);
});

test('one folder, and one client, may reserve at most their share of the space above the floor', async () => {
  const space = new DiskSpace(tmpdir(), 1, () => 0, { idleMs: 1000, share: 0.5 });
  const third = Math.floor((await free()) * 0.3);
  const reserve = (file: string, folder: string, client: string | null) =>
    space.reserveFiles([{ file: `${folder}/${file}`, bytes: third, until: FAR }], { folder, client });
  await reserve('a', 'f1', 'x');
  await assert.rejects(reserve('b', 'f2', 'x'), refused(/one client may reserve/));
  await reserve('b', 'f2', 'y');
  await assert.rejects(reserve('c', 'f1', 'z'), refused(/one folder may reserve/));
  // Without a known client address only the folder's share applies.
  await reserve('d', 'f3', null);
  // A refused registration holds nothing: the client that was refused is still under its share.
  space.releaseFiles(['f1/a']);
  await reserve('e', 'f4', 'x');
});
