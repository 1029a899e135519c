/**
 * The Node client's RFC 8188 encryptor (src/client/node/encrypt.ts: node:crypto's synchronous
 * AES-128-GCM, each record sealed straight into the message) against the test vectors and the
 * WebCrypto encryptor (src/crypto/rfc8188.ts): under the same salt it must write the same bytes, and
 * what it writes must open with WebCrypto, with file.kiwi's wormhole-crypto and with the Node
 * decryptor.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decryptChunkInPlace } from '../../src/client/node/decrypt.js';
import { nodeEncryptChunk, sealWithSalt } from '../../src/client/node/encrypt.js';
import { secretOf } from '../../src/client/node/message-keys.js';
import { base64DecodeEither, decryptChunk, generateSecret, importSecret } from '../../src/crypto/index.js';
import { encryptMessageWithSalt } from '../../src/crypto/rfc8188.js';
import { vectorPlaintext } from '../vectors/pattern.js';
import { chunkVectors, randomBytes } from './helpers.js';
import { referenceDecrypt } from './wormhole-reference.js';

const vectors = { chunks: chunkVectors() };

test('every chunk vector is written byte for byte under its salt', async () => {
  assert.ok(vectors.chunks.length >= 7);
  for (const vector of vectors.chunks) {
    const key = await importSecret(vector.secret);
    const plaintext = vectorPlaintext(vector.plaintextLength);
    const salt = Uint8Array.from(Buffer.from(vector.saltHex, 'hex'));
    const expected =
      vector.ciphertextBase64 === undefined
        ? await encryptMessageWithSalt(key.hkdfKey, plaintext, salt)
        : base64DecodeEither(vector.ciphertextBase64);
    const written = sealWithSalt(secretOf(key), plaintext, salt);
    assert.ok(Buffer.from(expected).equals(written), `vector of ${vector.plaintextLength} bytes`);
  }
});

test('what it writes opens with WebCrypto, wormhole-crypto and the Node decryptor, at every record boundary', async () => {
  const secret = generateSecret();
  const key = await importSecret(secret);
  for (const size of [1, 65_518, 65_519, 65_520, 131_038, 131_039, 131_040, 3 * 1024 * 1024 + 3]) {
    const plaintext = randomBytes(size);
    const message = await nodeEncryptChunk(key, plaintext);
    assert.deepEqual(await decryptChunk(key, message), plaintext, `${size} bytes, WebCrypto`);
    assert.deepEqual(await referenceDecrypt(secret, message), plaintext, `${size} bytes, wormhole-crypto`);
    assert.deepEqual(new Uint8Array(decryptChunkInPlace(key, message.slice())), plaintext, `${size} bytes, Node`);
    const again = await nodeEncryptChunk(key, plaintext);
    assert.notDeepEqual(again.subarray(0, 16), message.subarray(0, 16), 'each message has its own random salt');
  }
});

test('for any plaintext and salt it writes what the WebCrypto encryptor writes', async () => {
  const key = await importSecret(generateSecret());
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 200_000 }),
      fc.uint8Array({ minLength: 16, maxLength: 16 }),
      async (size, salt) => {
        const plaintext = randomBytes(size);
        const webCrypto = await encryptMessageWithSalt(key.hkdfKey, plaintext, salt);
        assert.ok(Buffer.from(webCrypto).equals(sealWithSalt(secretOf(key), plaintext, salt)));
      },
    ),
    { numRuns: 40 },
  );
});

test('an empty plaintext and a salt of the wrong length are refused, as the WebCrypto encryptor refuses them', async () => {
  const key = await importSecret(generateSecret());
  await assert.rejects(nodeEncryptChunk(key, new Uint8Array(0)), /cannot encrypt an empty value/);
  assert.throws(() => sealWithSalt(secretOf(key), randomBytes(10), new Uint8Array(15)), /salt must be 16 bytes/);
});
