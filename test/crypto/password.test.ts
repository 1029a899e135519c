import assert from 'node:assert/strict';
import { hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import { test } from 'node:test';
import {
  base64UrlDecode,
  CryptoFormatError,
  checkPasswordParams,
  checkSke,
  createSke,
  generateSecret,
  importSecret,
  newPasswordParams,
  PASSWORD_KDF,
  type PasswordParams,
  passwordSecret,
} from '../../src/crypto/index.js';

/**
 * The password derivation (src/crypto/password.ts, which runs @noble/hashes) checked against
 * Node's own OpenSSL scrypt and HKDF: the vectors below were computed with node:crypto, and random
 * inputs are compared with it live, so the two implementations agree on every step (NFC, UTF-8,
 * scrypt parameters, HKDF salt and info, output length and encoding).
 */
function reference(secret: string, password: string, params: PasswordParams): string {
  const stretched = scryptSync(
    Buffer.from(password.normalize('NFC'), 'utf8'),
    Buffer.from(params.salt, 'base64url'),
    32,
    { N: params.N, r: params.r, p: params.p, maxmem: 1024 * 1024 * 1024 },
  );
  const okm = hkdfSync('sha256', Buffer.from(secret, 'base64url'), stretched, 'webfolder password v1', 16);
  return Buffer.from(okm).toString('base64url');
}

const params = (salt: string, N: number, r = 8, p = 1): PasswordParams => ({ kdf: 'scrypt', N, r, p, salt });

test('fixed vectors (computed with node:crypto scrypt + hkdf)', async () => {
  assert.equal(
    await passwordSecret(
      'AAAAAAAAAAAAAAAAAAAAAA',
      'correct horse battery staple',
      params('AQEBAQEBAQEBAQEBAQEBAQ', 2 ** 14),
    ),
    'UWks3nnaz-qZFM4fRoTX5A',
  );
  // The default cost of every folder our clients create (N = 2^17, r = 8, p = 1).
  assert.equal(
    await passwordSecret('AAECAwQFBgcICQoLDA0ODw', 'Müller', params('8ODQwLCgkIBwYFBAMCAQAA', 2 ** 17)),
    'Cs-nlUO4fQ8I_yT-8hk82g',
  );
});

test('random inputs agree with node:crypto (several r and p)', async () => {
  const passwords = ['a', 'pässwörd', '東京 🔑', ' spaces matter ', 'x'.repeat(300)];
  for (const [i, password] of passwords.entries()) {
    const secret = generateSecret();
    const p = params(randomBytes(16).toString('base64url'), 2 ** 14, 1 + (i % 3), 1 + (i % 2));
    assert.equal(await passwordSecret(secret, password, p), reference(secret, password, p), password);
  }
});

test('the effective secret is a folder secret: 16 bytes, a different key from the link alone', async () => {
  const link = generateSecret();
  const p = { ...newPasswordParams(), N: 2 ** 14 };
  const effective = await passwordSecret(link, 'hunter2 but longer', p);
  assert.match(effective, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(base64UrlDecode(effective).length, 16);
  const ske = await createSke(await importSecret(effective));
  assert.equal(await checkSke(await importSecret(effective), ske), true);
  assert.equal(await checkSke(await importSecret(link), ske), false, 'the link secret alone does not open it');
  const wrong = await passwordSecret(link, 'hunter3 but longer', p);
  assert.equal(await checkSke(await importSecret(wrong), ske), false, 'a wrong password does not open it');
  const otherSalt = await passwordSecret(link, 'hunter2 but longer', { ...p, salt: newPasswordParams().salt });
  assert.notEqual(otherSalt, effective, 'the salt is part of the derivation');
});

test('the password is normalised to NFC: composed and decomposed accents open the same folder', async () => {
  const link = generateSecret();
  const p = params(newPasswordParams().salt, 2 ** 14);
  const composed = 'M\u00fcller';
  const decomposed = 'Mu\u0308ller';
  assert.notEqual(composed, decomposed);
  assert.equal(await passwordSecret(link, composed, p), await passwordSecret(link, decomposed, p));
});

test('new parameters: the default cost and a fresh 16-byte salt', () => {
  const a = newPasswordParams();
  const b = newPasswordParams();
  assert.deepEqual({ kdf: a.kdf, N: a.N, r: a.r, p: a.p }, { ...PASSWORD_KDF });
  assert.deepEqual({ ...PASSWORD_KDF }, { kdf: 'scrypt', N: 131072, r: 8, p: 1 });
  assert.equal(base64UrlDecode(a.salt).length, 16);
  assert.notEqual(a.salt, b.salt);
  assert.deepEqual(checkPasswordParams(a), a);
});

test('parameters out of bounds, malformed, or an empty password are refused before any work', async () => {
  const ok = newPasswordParams();
  const bad: [unknown, RegExp][] = [
    [null, /not an object/],
    [[], /not an object/],
    [{ ...ok, kdf: 'argon2id' }, /kdf/],
    [{ ...ok, N: 2 ** 13 }, /N must be/],
    [{ ...ok, N: 2 ** 21 }, /N must be/],
    [{ ...ok, N: 3 * 2 ** 15 }, /N must be/],
    [{ ...ok, N: '131072' }, /N must be/],
    [{ ...ok, r: 0 }, /r must be/],
    [{ ...ok, r: 17 }, /r must be/],
    [{ ...ok, p: 5 }, /p must be/],
    [{ ...ok, p: 1.5 }, /p must be/],
    [{ ...ok, salt: 'AAAA' }, /salt must be 16 bytes/],
    [{ ...ok, salt: 'not base64!' }, /salt is not base64url/],
    [{ kdf: 'scrypt', N: 2 ** 14, r: 8, p: 1 }, /salt is missing/],
    [{ ...ok, extra: 1 }, /unknown field extra/],
  ];
  for (const [value, message] of bad) {
    assert.throws(
      () => checkPasswordParams(value),
      (e: unknown) => e instanceof CryptoFormatError && message.test((e as Error).message),
      JSON.stringify(value),
    );
    await assert.rejects(passwordSecret(generateSecret(), 'pw', value as PasswordParams), CryptoFormatError);
  }
  await assert.rejects(passwordSecret(generateSecret(), '', ok), /password is empty/);
  await assert.rejects(passwordSecret('short', 'pw', ok), /link secret/);
});
