import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  base64UrlDecode,
  base64UrlEncode,
  CryptoFormatError,
  deriveOwnerCredentials,
  generateSecret,
  IntegrityError,
  openSealedSecret,
  sealSecret,
} from '../../src/crypto/index.js';
import { ownerWithZeroScalar } from './helpers.js';

const ownerSecret = generateSecret();
const owner = await deriveOwnerCredentials(ownerSecret);
const otherOwner = await deriveOwnerCredentials(generateSecret());

test('the owner secret alone restores the same credentials in another browser', async () => {
  const restored = await deriveOwnerCredentials(ownerSecret);
  assert.equal(restored.authToken, owner.authToken);
  assert.equal(restored.publicKey, owner.publicKey);
  const fileSecret = generateSecret();
  assert.equal(await openSealedSecret(restored.privateKey, await sealSecret(owner.publicKey, fileSecret)), fileSecret);
});

test('credentials are 32-byte base64url values, distinct per owner and from each other', () => {
  for (const value of [owner.authToken, owner.publicKey]) assert.equal(base64UrlDecode(value).length, 32);
  assert.notEqual(owner.authToken, owner.publicKey);
  assert.notEqual(owner.authToken, otherOwner.authToken);
  assert.notEqual(owner.publicKey, otherOwner.publicKey);
  assert.equal(owner.privateKey.length, 32);
});

test("the owner's key pair is X25519's: WebCrypto makes the same public key from the same scalar", async () => {
  // PKCS#8 of a raw X25519 private key (RFC 8410); what the owner side imported before @noble/curves.
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), owner.privateKey]);
  const key = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'X25519' }, true, ['deriveBits']);
  assert.equal((await crypto.subtle.exportKey('jwk', key)).x, owner.publicKey);
});

test('a scalar beginning with a zero byte (1 owner secret in 256) works like any other', async () => {
  // WebKitGTK's WebCrypto refused to import such a scalar; test/site/webkit.test.ts opens one there.
  const { secret, owner: zero } = await ownerWithZeroScalar();
  const fileSecret = generateSecret();
  assert.equal(await openSealedSecret(zero.privateKey, await sealSecret(zero.publicKey, fileSecret)), fileSecret);
  assert.equal((await deriveOwnerCredentials(secret)).publicKey, zero.publicKey);
});

test('a sealed secret opens for its owner only', async () => {
  const fileSecret = generateSecret();
  const sealed = await sealSecret(owner.publicKey, fileSecret);
  assert.match(sealed, /^[A-Za-z0-9_-]{102}$/);
  assert.equal(await openSealedSecret(owner.privateKey, sealed), fileSecret);
  await assert.rejects(openSealedSecret(otherOwner.privateKey, sealed), IntegrityError);
});

test('sealing the same secret twice gives unrelated values', async () => {
  const fileSecret = generateSecret();
  const [first, second] = await Promise.all([
    sealSecret(owner.publicKey, fileSecret),
    sealSecret(owner.publicKey, fileSecret),
  ]);
  assert.notEqual(first.slice(0, 43), second.slice(0, 43));
  assert.notEqual(first.slice(59), second.slice(59));
});

test('every altered byte of a sealed secret is refused', async () => {
  const bytes = base64UrlDecode(await sealSecret(owner.publicKey, generateSecret()));
  for (let position = 0; position < bytes.length; position++) {
    const altered = bytes.slice();
    altered[position]! ^= 0x80;
    await assert.rejects(
      openSealedSecret(owner.privateKey, base64UrlEncode(altered)),
      IntegrityError,
      `byte ${position}`,
    );
  }
});

test('malformed inputs are refused as format errors', async () => {
  const sealed = await sealSecret(owner.publicKey, generateSecret());
  await assert.rejects(openSealedSecret(owner.privateKey, sealed.slice(0, -2)), CryptoFormatError);
  await assert.rejects(openSealedSecret(owner.privateKey, `${sealed}AA`), CryptoFormatError);
  await assert.rejects(openSealedSecret(owner.privateKey, `${sealed.slice(0, -1)}=`), CryptoFormatError);
  const shortKey = base64UrlEncode(base64UrlDecode(owner.publicKey).subarray(0, 31));
  await assert.rejects(sealSecret(shortKey, generateSecret()), /public key is 31 bytes/);
  await assert.rejects(sealSecret(owner.publicKey, 'too-short'), /file secret/);
  await assert.rejects(deriveOwnerCredentials('AAAA'), /owner secret/);
  // An all-zero public key has small order: the shared secret would be known to everyone.
  await assert.rejects(
    sealSecret(base64UrlEncode(new Uint8Array(32)), generateSecret()),
    /not a usable X25519 public key/,
  );
});
