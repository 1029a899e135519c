import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  decryptChunk,
  decryptChunkRecords,
  encryptChunk,
  encryptChunkParts,
  generateSecret,
  IntegrityError,
  importSecret,
} from '../../src/crypto/index.js';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { assertRefused, encryptWithPadding, randomBytes } from './helpers.js';
import { referenceDecrypt, referenceEncrypt } from './wormhole-reference.js';

const secret = generateSecret();
const key = await importSecret(secret);
const BOUNDARY_SIZES = [1, 65_518, 65_519, 65_520, 131_038, 131_039, 10 * 1024 * 1024 + 3];

for (const size of BOUNDARY_SIZES) {
  test(`${size} bytes: our chunk has the planned length and wormhole-crypto decrypts it`, async () => {
    const plaintext = randomBytes(size);
    const message = await encryptChunk(key, plaintext);
    assert.equal(message.length, encryptedLength(size));
    assert.deepEqual(await referenceDecrypt(secret, message), plaintext);
  });

  test(`${size} bytes: the chunk as parts is the same message, and the plaintext is left as it was`, async () => {
    const plaintext = randomBytes(size);
    const before = plaintext.slice();
    const parts = await encryptChunkParts(key, plaintext);
    assert.deepEqual(plaintext, before);
    assert.equal(parts.length, 1 + Math.ceil(size / 65_519));
    assert.equal(parts[0]!.byteLength, 21);
    const message = Buffer.concat(parts.map((p) => new Uint8Array(p)));
    assert.equal(message.length, encryptedLength(size));
    assert.deepEqual(new Uint8Array(await referenceDecrypt(secret, message)), before);
    assert.deepEqual(new Uint8Array(await decryptChunk(key, message)), before);
  });

  test(`${size} bytes: we decrypt wormhole-crypto's chunk`, async () => {
    const plaintext = randomBytes(size);
    assert.deepEqual(await decryptChunk(key, await referenceEncrypt(secret, plaintext)), plaintext);
  });
}

test('empty plaintext is refused, and so is the bare header wormhole-crypto writes for it', async () => {
  await assert.rejects(encryptChunk(key, new Uint8Array(0)), RangeError);
  const bareHeader = await referenceEncrypt(secret, new Uint8Array(0));
  assert.equal(bareHeader.length, 21);
  await assertRefused(decryptChunk(key, bareHeader), /missing final record/);
});

test('each chunk gets a fresh salt', async () => {
  const plaintext = randomBytes(100);
  const [first, second] = await Promise.all([encryptChunk(key, plaintext), encryptChunk(key, plaintext)]);
  assert.notDeepEqual(first.subarray(0, 16), second.subarray(0, 16));
});

/** 3 records: 65519 + 65519 + 2 plaintext bytes. */
const threeRecordPlaintext = randomBytes(131_040);
const threeRecords = await encryptChunk(key, threeRecordPlaintext);

test('a flipped byte anywhere is refused, never returned as data', async () => {
  const small = await encryptChunk(key, randomBytes(70_000));
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: small.length - 1 }), fc.integer({ min: 1, max: 255 }), async (position, mask) => {
      const altered = small.slice();
      altered[position]! ^= mask;
      await assertRefused(decryptChunk(key, altered));
    }),
    { numRuns: 150 },
  );
});

test('a flipped byte is reported by what it broke', async () => {
  const cases: Array<[number, RegExp]> = [
    [0, /bad tag: record 1 of 3/], // the salt: every record key changes; the first record is reported
    [17, /wrong record size/],
    [20, /bad header: key id length/],
    [21 + 65_536 + 100, /bad tag: record 2 of 3/],
    [threeRecords.length - 1, /bad tag: record 3 of 3/],
  ];
  for (const [position, reason] of cases) {
    const altered = threeRecords.slice();
    altered[position]! ^= 0x40;
    await assertRefused(decryptChunk(key, altered), reason);
  }
});

test('truncation is refused at every kind of cut', async () => {
  const cuts: Array<[number, RegExp]> = [
    [0, /truncated/],
    [20, /truncated/],
    [21, /missing final record/],
    [21 + 65_536, /missing final record/],
    [21 + 2 * 65_536, /missing final record/],
    [21 + 65_536 + 10, /truncated or trailing data/],
    [threeRecords.length - 1, /bad tag: record 3 of 3/],
  ];
  for (const [length, reason] of cuts) await assertRefused(decryptChunk(key, threeRecords.subarray(0, length)), reason);
});

test('appended bytes are refused', async () => {
  const appendedToShortRecord = new Uint8Array([...threeRecords, 0]);
  await assertRefused(decryptChunk(key, appendedToShortRecord), /bad tag: record 3 of 3/);
  // A chunk of exactly one full record followed by a further "record".
  const fullRecord = await encryptChunk(key, randomBytes(65_519));
  const extended = new Uint8Array([...fullRecord, ...randomBytes(100)]);
  await assertRefused(decryptChunk(key, extended), /trailing data: record 1 of 2 is marked final/);
  const fewBytesMore = new Uint8Array([...fullRecord, 1, 2, 3]);
  await assertRefused(decryptChunk(key, fewBytesMore), /truncated or trailing data/);
});

test('records swapped within a chunk, or chunks spliced together, are refused', async () => {
  const swapped = threeRecords.slice();
  swapped.set(threeRecords.subarray(21, 21 + 65_536), 21 + 65_536);
  swapped.set(threeRecords.subarray(21 + 65_536, 21 + 2 * 65_536), 21);
  await assertRefused(decryptChunk(key, swapped), /bad tag: record 1 of 3/);
  const other = await encryptChunk(key, threeRecordPlaintext);
  const spliced = threeRecords.slice();
  spliced.set(other.subarray(21 + 65_536), 21 + 65_536);
  await assertRefused(decryptChunk(key, spliced), /bad tag: record 2 of 3/);
});

test('a wrong key is refused', async () => {
  const wrongKey = await importSecret(generateSecret());
  await assertRefused(decryptChunk(wrongKey, threeRecords), /bad tag: record 1 of 3/);
});

test('RFC 8188 padding after the delimiter is read like wormhole-crypto reads it', async () => {
  const first = randomBytes(65_000);
  const second = randomBytes(65_519);
  const last = randomBytes(300);
  const message = await encryptWithPadding(secret, [
    { data: first, zeros: 519 },
    { data: second, zeros: 0 },
    { data: last, zeros: 40 },
  ]);
  const expected = new Uint8Array([...first, ...second, ...last]);
  assert.deepEqual(await referenceDecrypt(secret, message), expected);
  assert.deepEqual(await decryptChunk(key, message), expected);
});

test('the independent RFC 8188 encoder and ours produce interchangeable messages', async () => {
  const data = randomBytes(1000);
  const message = await encryptWithPadding(secret, [{ data, zeros: 0 }]);
  assert.deepEqual(await decryptChunk(key, message), data);
  await assert.rejects(decryptChunk(await importSecret(generateSecret()), message), IntegrityError);
});

test('in a 10 MiB chunk the error names the record at fault, whichever record finished first', async () => {
  const message = await encryptChunk(key, randomBytes(10 * 1024 * 1024));
  const records = Math.ceil((message.length - 21) / 65_536);
  const altered = message.slice();
  altered[21 + 100 * 65_536 + 7]! ^= 1;
  await assertRefused(decryptChunk(key, altered), new RegExp(`bad tag: record 101 of ${records}\\b`));
  await assertRefused(
    decryptChunk(await importSecret(generateSecret()), message),
    new RegExp(`bad tag: record 1 of ${records}\\b`),
  );
  const cutAtBoundary = message.subarray(0, 21 + 150 * 65_536);
  await assertRefused(decryptChunk(key, cutAtBoundary), /missing final record: record 150 of 150/);
});

test('a tampered record in the middle of a 20 MiB chunk is refused, in every batch of records', async () => {
  // Records are decrypted in batches of 128: the altered record sits in the second batch, the
  // chunk's other records (before and after it) are intact.
  const plaintext = randomBytes(20 * 1024 * 1024);
  const message = await encryptChunk(key, plaintext);
  const records = Math.ceil((message.length - 21) / 65_536);
  assert.deepEqual(await decryptChunk(key, message), plaintext);
  for (const record of [127, 128, 200, records - 2]) {
    const altered = message.slice();
    altered[21 + record * 65_536 + 40_000]! ^= 0x10;
    await assertRefused(decryptChunk(key, altered), new RegExp(`bad tag: record ${record + 1} of ${records}\\b`));
  }
  // The same through the partial reader a player uses: records 150..249 with record 200 altered.
  const header = message.subarray(0, 21);
  const span = message.slice(21 + 150 * 65_536, 21 + 250 * 65_536);
  assert.deepEqual(
    await decryptChunkRecords(key, header, 150, span, records),
    plaintext.subarray(150 * 65_519, 250 * 65_519),
  );
  span[50 * 65_536 + 3]! ^= 1;
  await assertRefused(
    decryptChunkRecords(key, header, 150, span, records),
    new RegExp(`bad tag: record 201 of ${records}\\b`),
  );
});
