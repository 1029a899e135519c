/**
 * The Node client's RFC 8188 decryptor (src/client/node/decrypt.ts: node:crypto's synchronous
 * AES-128-GCM, plaintext written in place over the message) against the same test vectors and the
 * same damaged messages as the WebCrypto one (vectors.test.ts, chunk.test.ts): it must read every
 * vector and refuse every truncated or tampered message with the same error, never returning data.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decryptChunkInPlace, nodeDecryptChunk } from '../../src/client/node/decrypt.js';
import {
  base64DecodeEither,
  decryptChunk,
  encryptChunk,
  generateSecret,
  importSecret,
} from '../../src/crypto/index.js';
import { encryptMessageWithSalt } from '../../src/crypto/rfc8188.js';
import { vectorPlaintext } from '../vectors/pattern.js';
import { assertRefused, chunkVectors, encryptWithPadding, randomBytes } from './helpers.js';
import { referenceEncrypt } from './wormhole-reference.js';

const vectors = { chunks: chunkVectors() };

/** Decrypts a copy (the decryptor consumes its input) and refuses like decryptChunk. */
const refused = (key: Parameters<typeof nodeDecryptChunk>[0], message: Uint8Array, reason?: RegExp) =>
  assertRefused(nodeDecryptChunk(key, message.slice()), reason);

test('every chunk vector decrypts to its plaintext, in place', async () => {
  assert.ok(vectors.chunks.length >= 7);
  for (const vector of vectors.chunks) {
    const key = await importSecret(vector.secret);
    const plaintext = vectorPlaintext(vector.plaintextLength);
    const message =
      vector.ciphertextBase64 === undefined
        ? await encryptMessageWithSalt(key.hkdfKey, plaintext, Uint8Array.from(Buffer.from(vector.saltHex, 'hex')))
        : base64DecodeEither(vector.ciphertextBase64);
    const opened = decryptChunkInPlace(key, message);
    assert.equal(opened.buffer, message.buffer, 'the plaintext is a view of the message, no copy');
    assert.deepEqual(new Uint8Array(opened), plaintext, `vector of ${vector.plaintextLength} bytes`);
  }
});

test("wormhole-crypto's chunks and ours decrypt to the same bytes as with WebCrypto", async () => {
  const secret = generateSecret();
  const key = await importSecret(secret);
  for (const size of [1, 65_518, 65_519, 65_520, 131_038, 131_039, 3 * 1024 * 1024 + 3]) {
    const plaintext = randomBytes(size);
    for (const message of [await referenceEncrypt(secret, plaintext), await encryptChunk(key, plaintext)]) {
      assert.deepEqual(await decryptChunk(key, message), plaintext);
      assert.deepEqual(new Uint8Array(await nodeDecryptChunk(key, message.slice())), plaintext, `${size} bytes`);
    }
  }
});

const key = await importSecret(generateSecret());
/** 3 records: 65519 + 65519 + 2 plaintext bytes. */
const threeRecordPlaintext = randomBytes(131_040);
const threeRecords = await encryptChunk(key, threeRecordPlaintext);

test('a truncated message is refused at every kind of cut, as decryptChunk refuses it', async () => {
  const cuts: Array<[number, RegExp]> = [
    [0, /truncated/],
    [20, /truncated/],
    [21, /missing final record/],
    [21 + 65_536, /missing final record/],
    [21 + 2 * 65_536, /missing final record/],
    [21 + 65_536 + 10, /truncated or trailing data/],
    [threeRecords.length - 1, /bad tag: record 3 of 3/],
  ];
  for (const [length, reason] of cuts) {
    await refused(key, threeRecords.subarray(0, length), reason);
    await assertRefused(decryptChunk(key, threeRecords.subarray(0, length)), reason);
  }
});

test('a tampered message is refused, naming what broke; appended, swapped and spliced records too', async () => {
  const flips: Array<[number, RegExp]> = [
    [0, /bad tag: record 1 of 3/],
    [17, /wrong record size/],
    [20, /bad header: key id length/],
    [21 + 65_536 + 100, /bad tag: record 2 of 3/],
    [threeRecords.length - 1, /bad tag: record 3 of 3/],
  ];
  for (const [position, reason] of flips) {
    const altered = threeRecords.slice();
    altered[position]! ^= 0x40;
    await refused(key, altered, reason);
  }
  await refused(key, new Uint8Array([...threeRecords, 0]), /bad tag: record 3 of 3/);
  const fullRecord = await encryptChunk(key, randomBytes(65_519));
  await refused(
    key,
    new Uint8Array([...fullRecord, ...randomBytes(100)]),
    /trailing data: record 1 of 2 is marked final/,
  );
  const swapped = threeRecords.slice();
  swapped.set(threeRecords.subarray(21, 21 + 65_536), 21 + 65_536);
  swapped.set(threeRecords.subarray(21 + 65_536, 21 + 2 * 65_536), 21);
  await refused(key, swapped, /bad tag: record 1 of 3/);
  const spliced = threeRecords.slice();
  spliced.set((await encryptChunk(key, threeRecordPlaintext)).subarray(21 + 65_536), 21 + 65_536);
  await refused(key, spliced, /bad tag: record 2 of 3/);
  await refused(await importSecret(generateSecret()), threeRecords, /bad tag: record 1 of 3/);
  // The intact message still opens (the cases above worked on copies).
  assert.deepEqual(new Uint8Array(decryptChunkInPlace(key, threeRecords.slice())), threeRecordPlaintext);
});

test('a flipped byte anywhere is refused, never returned as data', async () => {
  const small = await encryptChunk(key, randomBytes(70_000));
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: small.length - 1 }), fc.integer({ min: 1, max: 255 }), async (position, mask) => {
      const altered = small.slice();
      altered[position]! ^= mask;
      await refused(key, altered);
    }),
    { numRuns: 150 },
  );
});

test('in a 10 MiB chunk the record at fault is named', async () => {
  const message = await encryptChunk(key, randomBytes(10 * 1024 * 1024));
  const records = Math.ceil((message.length - 21) / 65_536);
  const altered = message.slice();
  altered[21 + 100 * 65_536 + 7]! ^= 1;
  await refused(key, altered, new RegExp(`bad tag: record 101 of ${records}\\b`));
  await refused(key, message.subarray(0, 21 + 150 * 65_536), /missing final record: record 150 of 150/);
});

test('RFC 8188 padding after the delimiter is read as decryptChunk reads it', async () => {
  const secret = generateSecret();
  const padKey = await importSecret(secret);
  const first = randomBytes(65_000);
  const second = randomBytes(65_519);
  const last = randomBytes(300);
  const message = await encryptWithPadding(secret, [
    { data: first, zeros: 519 },
    { data: second, zeros: 0 },
    { data: last, zeros: 40 },
  ]);
  const expected = new Uint8Array([...first, ...second, ...last]);
  assert.deepEqual(await decryptChunk(padKey, message), expected);
  assert.deepEqual(new Uint8Array(decryptChunkInPlace(padKey, message.slice())), expected);
});
