import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  base64DecodeEither,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  CryptoFormatError,
} from '../../src/crypto/index.js';

test("encoders agree with Node's own base64 and base64url for any bytes", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      assert.equal(base64Encode(bytes), Buffer.from(bytes).toString('base64'));
      assert.equal(base64UrlEncode(bytes), Buffer.from(bytes).toString('base64url'));
    }),
  );
});

test('decoders return the encoded bytes, from either alphabet, padded or not', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      assert.deepEqual(base64UrlDecode(base64UrlEncode(bytes)), bytes);
      assert.deepEqual(base64DecodeEither(base64UrlEncode(bytes)), bytes);
      assert.deepEqual(base64DecodeEither(base64Encode(bytes)), bytes);
      assert.deepEqual(base64DecodeEither(base64Encode(bytes).replace(/=+$/, '')), bytes);
    }),
  );
});

test('decoders refuse text that no encoder writes', () => {
  const refusedByBoth = {
    'invalid character': 'ab$d',
    whitespace: 'ab d',
    'impossible length': 'abcde',
    'leftover bits set': 'AB',
  };
  for (const [why, text] of Object.entries(refusedByBoth)) {
    assert.throws(() => base64DecodeEither(text), CryptoFormatError, why);
    assert.throws(() => base64UrlDecode(text), CryptoFormatError, why);
  }
  assert.throws(() => base64DecodeEither('a+b_'), /mixes/);
  assert.throws(() => base64DecodeEither('ab=c'), CryptoFormatError);
  assert.throws(() => base64DecodeEither('abc=='), CryptoFormatError);
  for (const standardOnly of ['ab+/', 'AA==']) assert.throws(() => base64UrlDecode(standardOnly), /not base64url/);
});
