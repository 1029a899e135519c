import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkUrlError } from '../../src/blobs/blob-store.js';
import { ChunkUrlSigner } from '../../src/blobs/local/url-signer.js';
import { hashToken, isId, newFolderSecret, newId, newToken, tokenMatches } from '../../src/domain/ids.js';
import { emptyFolderDeadline, fileExpiresAt, folderDeleteAfter, isDue } from '../../src/domain/lifecycle.js';
import { HOUR_MS } from '../../src/domain/limits.js';
import { may } from '../../src/domain/modes.js';
import { defaultTitle } from '../../src/domain/titles.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

test('lifecycle: an empty folder is due exactly 24 h after creation', () => {
  const deleteAfter = folderDeleteAfter({ createdAt: T0 }, []);
  assert.equal(deleteAfter, emptyFolderDeadline(T0));
  assert.equal(isDue(deleteAfter, T0 + 24 * HOUR_MS - 1), false);
  assert.equal(isDue(deleteAfter, T0 + 24 * HOUR_MS), true);
});

test('lifecycle: files expire freeDownloadHours after completion, or after registration if never completed', () => {
  assert.equal(fileExpiresAt(T0, null, 72), T0 + 72 * HOUR_MS);
  assert.equal(fileExpiresAt(T0, T0 + 5 * HOUR_MS, 72), T0 + 77 * HOUR_MS);
  const folder = { createdAt: T0 };
  const files = [{ expiresAt: T0 + 10 * HOUR_MS }, { expiresAt: T0 + 90 * HOUR_MS }];
  assert.equal(folderDeleteAfter(folder, files), T0 + 90 * HOUR_MS, 'a folder lives as long as its last file');
  assert.equal(
    isDue(folderDeleteAfter(folder, files), T0 + 30 * HOUR_MS),
    false,
    'a folder with files outlives the 24 h rule',
  );
});

test('modes: who may do what', () => {
  const table: Array<[Parameters<typeof may>[0], Parameters<typeof may>[1], Parameters<typeof may>[2], boolean]> = [
    ['send', 'owner', 'upload', true],
    ['send', 'visitor', 'upload', false],
    ['send', 'visitor', 'download', true],
    ['send', 'visitor', 'list', true],
    ['share', 'visitor', 'upload', true],
    ['share', 'visitor', 'download', true],
    ['request', 'visitor', 'upload', true],
    ['request', 'visitor', 'list', false],
    ['request', 'visitor', 'download', false],
    ['request', 'owner', 'download', true],
  ];
  for (const [mode, role, action, allowed] of table)
    assert.equal(may(mode, role, action, true), allowed, `${mode} ${role} ${action}`);
  for (const mode of ['send', 'share', 'request'] as const)
    assert.equal(may(mode, 'visitor', 'upload', false), true, 'the first upload is always allowed: it claims');
});

test('ids, secrets and tokens', () => {
  const id = newId();
  assert.ok(isId(id));
  assert.equal(isId('too-short'), false);
  assert.equal(isId('a/bcdefghijklmno'), false);
  assert.equal(Buffer.from(newFolderSecret(), 'base64url').length, 16);
  const token = newToken();
  assert.ok(tokenMatches(token, hashToken(token)));
  assert.equal(tokenMatches(`${token}x`, hashToken(token)), false);
  assert.equal(tokenMatches(token, null), false);
  assert.match(defaultTitle(T0), /^Folder 2026-11-21 12:00 UTC$/);
});

test('ids and tokens never begin with "-", so a CLI never reads one as an option', () => {
  // One in 64 would without the redraw: 2,000 draws of each miss that with odds of about 1e-27.
  for (let i = 0; i < 2000; i++) {
    const id = newId();
    assert.ok(isId(id) && !id.startsWith('-'), id);
    const token = newToken();
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.ok(!token.startsWith('-'), token);
  }
});

test('chunk URL signatures are bound to folder, file, chunk, length and expiry', async () => {
  const signer = new ChunkUrlSigner('s'.repeat(40), 'http://h/v2/uploads');
  const ref = { folderId: 'AAAAAAAAAAAAAAAA', fileId: 'BBBBBBBBBBBBBBBB' };
  const urls = await signer.presign({ ...ref, chunks: 2, chunkLength: (n) => 100 * n, expiresAt: T0 + 60_000 }, T0);
  const query = (n: number) => ({
    ...Object.fromEntries(new URLSearchParams(urls.tail)),
    'X-Amz-Signature': urls.signatures[n - 1],
  });
  signer.verify(ref, 1, 100, query(1), T0 + 59_000);
  const refused: Array<() => void> = [
    () => signer.verify(ref, 2, 100, query(1), T0),
    () => signer.verify(ref, 1, 101, query(1), T0),
    () => signer.verify({ ...ref, fileId: 'CCCCCCCCCCCCCCCC' }, 1, 100, query(1), T0),
    () => signer.verify({ ...ref, folderId: 'CCCCCCCCCCCCCCCC' }, 1, 100, query(1), T0),
    () => signer.verify(ref, 1, 100, query(1), T0 + 61_000),
    () => new ChunkUrlSigner('t'.repeat(40), 'http://h/v2/uploads').verify(ref, 1, 100, query(1), T0),
  ];
  for (const attempt of refused) assert.throws(attempt, ChunkUrlError);
  assert.throws(() => signer.verify(ref, 1, 100, query(1), T0 + 61_000), /expired/);
});
