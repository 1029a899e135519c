import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkUrlError } from '../../src/blobs/blob-store.js';
import { ChunkUrlSigner, SIGNING_ALGORITHM } from '../../src/blobs/local/url-signer.js';

/**
 * The local backend's chunk URL signatures: one key per file, one AES call for all its chunks, so
 * signing a large folder's URLs stays cheap. The vectors were computed outside Node, with the
 * openssl command line:
 *   key = openssl dgst -sha256 -hmac "$SECRET" over ["wf2",keyId,folder,file,date,expires]
 *   sig = openssl enc -aes-256-ecb -K key -nopad over block(n,len,0) || block(n,len,1)
 * where block is 16 bytes: n (u32 BE), len (u64 BE), half (u32 BE).
 */
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const SECRET = 's'.repeat(40);
const ref = { folderId: 'AAAAAAAAAAAAAAAA', fileId: 'BBBBBBBBBBBBBBBB' };
const lengths = [100, 200, 2 ** 32 + 5];

test('chunk signatures match the vectors computed with openssl', async () => {
  const signer = new ChunkUrlSigner(SECRET, 'http://h/v2/uploads');
  const urls = await signer.presign(
    { ...ref, chunks: 3, chunkLength: (n) => lengths[n - 1]!, expiresAt: T0 + 60_000 },
    T0,
  );
  assert.equal(signer.keyId, '3923fb8348df');
  assert.equal(
    urls.tail,
    `X-Amz-Algorithm=${SIGNING_ALGORITHM}&X-Amz-Credential=3923fb8348df%2F20261121%2Fwebfolder&X-Amz-Date=20261121T120000Z&X-Amz-Expires=60`,
  );
  assert.deepEqual(urls.signatures, [
    'a086c99b329ee0385cc526f80aebad5f6f35a8b48d0fcca07658dbf01501fa9f',
    '4161c5be30fd842a43252cf8598cca82cefc3dc5fbf21c504fca72bfaac54cbe',
    '693150ca611286b6addc1df4501fa1d135e8979b2c4a5dfa7d909895f956e7b7',
  ]);
});

test('include signs only the chunks named; the others are empty and signing them is free', async () => {
  const signer = new ChunkUrlSigner(SECRET, 'http://h/v2/uploads');
  const urls = await signer.presign(
    { ...ref, chunks: 3, chunkLength: (n) => lengths[n - 1]!, expiresAt: T0 + 60_000, include: (n) => n === 2 },
    T0,
  );
  assert.deepEqual(urls.signatures, ['', '4161c5be30fd842a43252cf8598cca82cefc3dc5fbf21c504fca72bfaac54cbe', '']);
});

test('every signature of a 100,000-chunk file verifies for its own chunk only', async () => {
  const signer = new ChunkUrlSigner(SECRET, 'http://h/v2/uploads');
  const chunks = 100_000;
  const length = (n: number) => (n === chunks ? 77 : 10_485_781);
  const urls = await signer.presign({ ...ref, chunks, chunkLength: length, expiresAt: T0 + 60_000 }, T0);
  const base = Object.fromEntries(new URLSearchParams(urls.tail));
  assert.equal(new Set(urls.signatures).size, chunks, 'no two chunks share a signature');
  for (const n of [1, 2, 4242, chunks - 1, chunks]) {
    const query = { ...base, 'X-Amz-Signature': urls.signatures[n - 1] };
    signer.verify(ref, n, length(n), query, T0);
    assert.throws(() => signer.verify(ref, n === 1 ? 2 : n - 1, length(n), query, T0), ChunkUrlError);
    assert.throws(() => signer.verify(ref, n, length(n) + 1, query, T0), ChunkUrlError);
  }
});

test('a forged validity, date or key id does not verify; an expired URL says so', async () => {
  const signer = new ChunkUrlSigner(SECRET, 'http://h/v2/uploads');
  const urls = await signer.presign({ ...ref, chunks: 1, chunkLength: () => 100, expiresAt: T0 + 60_000 }, T0);
  const query = { ...Object.fromEntries(new URLSearchParams(urls.tail)), 'X-Amz-Signature': urls.signatures[0] };
  assert.throws(() => signer.verify(ref, 1, 100, { ...query, 'X-Amz-Expires': '6000' }, T0 + 61_000), /does not match/);
  assert.throws(() => signer.verify(ref, 1, 100, { ...query, 'X-Amz-Date': '20261121T120100Z' }, T0), /does not match/);
  assert.throws(() => signer.verify(ref, 1, 100, { ...query, 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' }, T0), /Algorithm/);
  assert.throws(() => signer.verify(ref, 1, 100, query, T0 + 61_000), /expired/);
});
