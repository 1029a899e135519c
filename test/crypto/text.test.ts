import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  base64Encode,
  base64UrlDecode,
  CryptoFormatError,
  checkSke,
  createSke,
  decryptText,
  encryptChunk,
  encryptText,
  generateSecret,
  importSecret,
  SECRET_BYTES,
} from '../../src/crypto/index.js';
import { assertRefused } from './helpers.js';
import { referenceDecrypt, referenceEncryptText } from './wormhole-reference.js';

const secret = generateSecret();
const key = await importSecret(secret);
const otherKey = await importSecret(generateSecret());
const NAMES = ['a', 'report.pdf', 'Überweisung – 東京 📄.txt', 'x'.repeat(1000)];

test('generated secrets are 16 random bytes as 22 base64url characters', () => {
  const secrets = new Set(Array.from({ length: 50 }, generateSecret));
  assert.equal(secrets.size, 50);
  for (const value of secrets) {
    assert.match(value, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(base64UrlDecode(value).length, SECRET_BYTES);
  }
});

test('importSecret refuses anything but 16 bytes of base64url', async () => {
  const valid = generateSecret();
  const invalid = [
    valid.slice(1),
    `${valid}A`,
    `${valid}==`,
    `${valid.slice(0, 21)}+`,
    '',
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  ];
  for (const value of invalid) await assert.rejects(importSecret(value), CryptoFormatError, value);
});

test('ske checks the key: true for the folder key, false for any other', async () => {
  const ske = await createSke(key);
  assert.equal(await checkSke(key, ske), true);
  assert.equal(await checkSke(otherKey, ske), false);
  assert.equal(await checkSke(key, await createSke(otherKey)), false);
});

test("ske as file.kiwi's SDK writes it (wormhole-crypto, btoa) checks out, and ours decrypts there", async () => {
  assert.equal(await checkSke(key, await referenceEncryptText(secret, secret)), true);
  const ours = await createSke(key);
  const plaintext = await referenceDecrypt(
    secret,
    Uint8Array.from(atob(ours), (c) => c.charCodeAt(0)),
  );
  assert.equal(new TextDecoder().decode(plaintext), secret);
});

test('an altered, truncated or malformed ske is false, never an error', async () => {
  const ske = await createSke(key);
  const flipped = `${ske.slice(0, 30)}${ske[30] === 'A' ? 'B' : 'A'}${ske.slice(31)}`;
  // An ske encrypting some other text under the right key proves nothing either.
  const otherText = await encryptText(key, `${secret}x`);
  for (const value of [flipped, ske.slice(0, 40), ske.slice(0, -4), '', 'not base64!', otherText]) {
    assert.equal(await checkSke(key, value), false, value);
  }
});

test('names and types written by wormhole-crypto decrypt, ours decrypt there', async () => {
  for (const name of NAMES) {
    assert.equal(await decryptText(key, await referenceEncryptText(secret, name)), name);
    const ours = await encryptText(key, name);
    assert.match(ours, /^[A-Za-z0-9+/]*={0,2}$/);
    assert.equal(ours.length % 4, 0);
    const plaintext = await referenceDecrypt(
      secret,
      Uint8Array.from(atob(ours), (c) => c.charCodeAt(0)),
    );
    assert.equal(new TextDecoder().decode(plaintext), name);
  }
});

test('encrypted names are read in base64url form too', async () => {
  const value = await encryptText(key, 'report.pdf');
  const urlForm = value.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  assert.equal(await decryptText(key, urlForm), 'report.pdf');
});

test('altered names, a wrong key, empty and non-UTF-8 text are refused', async () => {
  const value = await encryptText(key, 'report.pdf');
  const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  for (let position = 0; position < bytes.length; position++) {
    const altered = bytes.slice();
    altered[position]! ^= 1;
    await assertRefused(decryptText(key, base64Encode(altered)));
  }
  await assertRefused(decryptText(otherKey, value), /bad tag/);
  await assertRefused(decryptText(key, '%%%'), /invalid character/);
  await assert.rejects(encryptText(key, ''), RangeError);
  const notUtf8 = base64Encode(await encryptChunk(key, Uint8Array.of(0xff, 0xfe)));
  await assertRefused(decryptText(key, notUtf8), /not valid UTF-8/);
});
