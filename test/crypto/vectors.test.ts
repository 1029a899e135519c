/**
 * test/vectors/rfc8188.json (written by scripts/make-test-vectors.ts from wormhole-crypto) checked
 * with the Node build of the crypto module. The browser suite checks the same file in Chromium.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  base64DecodeEither,
  base64Encode,
  checkSke,
  decryptChunk,
  decryptText,
  deriveOwnerCredentials,
  importSecret,
  openSealedSecret,
} from '../../src/crypto/index.js';
import { encryptMessageWithSalt } from '../../src/crypto/rfc8188.js';
import { vectorPlaintext } from '../vectors/pattern.js';

interface Vectors {
  chunks: Array<{
    secret: string;
    saltHex: string;
    plaintextLength: number;
    ciphertextLength: number;
    ciphertextSha256Hex: string;
    ciphertextBase64?: string;
  }>;
  texts: Array<{ kind: 'ske' | 'filename' | 'mimetype'; secret: string; text: string; saltHex: string; value: string }>;
  requestMode: {
    ownerSecret: string;
    authToken: string;
    publicKey: string;
    sealed: Array<{ fileSecret: string; sealed: string }>;
  };
}
const vectors = JSON.parse(readFileSync(new URL('../vectors/rfc8188.json', import.meta.url), 'utf8')) as Vectors;
const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('the vector file covers every record boundary, ske, names and request mode', () => {
  assert.deepEqual(
    vectors.chunks.map((chunk) => chunk.plaintextLength),
    [1, 65_518, 65_519, 65_520, 131_038, 131_039, 10 * 1024 * 1024 + 3],
  );
  assert.ok(vectors.chunks.filter((chunk) => chunk.ciphertextBase64).length >= 4);
  assert.deepEqual(new Set(vectors.texts.map((text) => text.kind)), new Set(['ske', 'filename', 'mimetype']));
  assert.ok(vectors.requestMode.sealed.length >= 1);
});

for (const vector of vectors.chunks) {
  test(`chunk of ${vector.plaintextLength} bytes: same bytes as wormhole-crypto under the same salt, and decrypts`, async () => {
    const key = await importSecret(vector.secret);
    const plaintext = vectorPlaintext(vector.plaintextLength);
    const ours = await encryptMessageWithSalt(key.hkdfKey, plaintext, fromHex(vector.saltHex));
    assert.equal(ours.length, vector.ciphertextLength);
    assert.equal(sha256Hex(ours), vector.ciphertextSha256Hex);
    const stored = vector.ciphertextBase64 === undefined ? ours : base64DecodeEither(vector.ciphertextBase64);
    if (vector.ciphertextBase64 !== undefined) assert.equal(sha256Hex(stored), vector.ciphertextSha256Hex);
    assert.deepEqual(await decryptChunk(key, stored), plaintext);
  });
}

for (const vector of vectors.texts) {
  test(`${vector.kind} "${vector.text.slice(0, 24)}": same value as file.kiwi's clients write, and decrypts`, async () => {
    const key = await importSecret(vector.secret);
    const ours = await encryptMessageWithSalt(
      key.hkdfKey,
      new TextEncoder().encode(vector.text),
      fromHex(vector.saltHex),
    );
    assert.equal(base64Encode(ours), vector.value);
    assert.equal(await decryptText(key, vector.value), vector.text);
    if (vector.kind === 'ske') assert.equal(await checkSke(key, vector.value), true);
  });
}

test('request mode: the owner secret gives the recorded credentials and opens the recorded sealed secrets', async () => {
  const { ownerSecret, authToken, publicKey, sealed } = vectors.requestMode;
  const owner = await deriveOwnerCredentials(ownerSecret);
  assert.equal(owner.authToken, authToken);
  assert.equal(owner.publicKey, publicKey);
  for (const vector of sealed) assert.equal(await openSealedSecret(owner.privateKey, vector.sealed), vector.fileSecret);
});
