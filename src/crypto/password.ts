/**
 * An optional folder password on top of the link (docs/encryption.md, section 9): the folder is
 * encrypted under an *effective* secret derived from both the link's secret and the password, so the
 * link alone opens nothing and the server, which holds neither, cannot test a guess.
 *
 *   stretched = scrypt(NFC(password) as UTF-8, salt, N, r, p, dkLen 32)
 *   effective = HKDF-SHA256(ikm = link secret bytes, salt = stretched, info = PASSWORD_INFO, 16 bytes)
 *
 * The effective secret is written like a link secret (base64url, 22 characters) and used exactly as
 * one: `ske`, names, types, chunks and the note are all encrypted under it. scrypt is memory-hard
 * (128 MiB at the default N = 2^17, r = 8), so each guess by someone holding the link costs that much
 * memory and about a second of CPU. `@noble/hashes` (audited, no dependencies) runs the same code in
 * the page, its service worker and Node, and its async scrypt yields to the event loop while it works.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { PasswordParams } from '../domain/password-params.js';
import { base64UrlDecode, base64UrlEncode } from './base64.js';
import { CryptoFormatError } from './errors.js';
import { decodeSecret, SECRET_BYTES } from './folder.js';

export type { PasswordParams };

/** The parameters every client of ours creates with: 128 MiB of memory per guess. */
export const PASSWORD_KDF = { kdf: 'scrypt', N: 131_072, r: 8, p: 1 } as const;
/** HKDF `info` of the effective secret; a new derivation would get a new version here. */
export const PASSWORD_INFO = 'webfolder password v1';
export const PASSWORD_SALT_BYTES = 16;
const STRETCHED_BYTES = 32;

/** Fresh parameters for a new folder: the default cost and a random salt. */
export function newPasswordParams(): PasswordParams {
  return { ...PASSWORD_KDF, salt: base64UrlEncode(crypto.getRandomValues(new Uint8Array(PASSWORD_SALT_BYTES))) };
}

/**
 * Checks parameters read from a server (the bounds the server's schema enforces too): a client must
 * not run scrypt with whatever a tampered answer asks for. Throws CryptoFormatError naming the field.
 */
export function checkPasswordParams(value: unknown): PasswordParams {
  const fail = (what: string): never => {
    throw new CryptoFormatError(`password parameters: ${what}`);
  };
  if (!value || typeof value !== 'object' || Array.isArray(value)) return fail('not an object');
  const v = value as Record<string, unknown>;
  const extra = Object.keys(v).filter((k) => !['kdf', 'N', 'r', 'p', 'salt'].includes(k));
  if (extra.length > 0) fail(`unknown field ${extra[0]}`);
  if (v.kdf !== 'scrypt') fail('kdf must be "scrypt"');
  const N = v.N;
  if (typeof N !== 'number' || !Number.isInteger(N) || N < 2 ** 14 || N > 2 ** 20 || (N & (N - 1)) !== 0)
    fail('N must be a power of two from 2^14 to 2^20');
  const inRange = (x: unknown, lo: number, hi: number) =>
    typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi;
  if (!inRange(v.r, 1, 16)) fail('r must be a whole number from 1 to 16');
  if (!inRange(v.p, 1, 4)) fail('p must be a whole number from 1 to 4');
  if (typeof v.salt !== 'string') fail('salt is missing');
  let salt: Uint8Array;
  try {
    salt = base64UrlDecode(v.salt as string);
  } catch {
    return fail('salt is not base64url');
  }
  if (salt.length !== PASSWORD_SALT_BYTES) fail(`salt must be ${PASSWORD_SALT_BYTES} bytes`);
  return { kdf: 'scrypt', N: N as number, r: v.r as number, p: v.p as number, salt: v.salt as string };
}

const encoder = new TextEncoder();

/**
 * The effective folder secret for `linkSecret` (the link's fragment) and `password`. The password is
 * normalised to NFC first, so the same word typed on systems that compose accents differently opens
 * the same folder. About a second of work at the default cost.
 */
export async function passwordSecret(
  linkSecret: string,
  password: string,
  params: PasswordParams,
  options: { readonly onProgress?: (fraction: number) => void } = {},
): Promise<string> {
  const checked = checkPasswordParams(params);
  if (password.length === 0) throw new CryptoFormatError('the password is empty');
  const ikm = decodeSecret(linkSecret, 'link secret');
  const { N, r, p } = checked;
  const stretched = await scryptAsync(encoder.encode(password.normalize('NFC')), base64UrlDecode(checked.salt), {
    N,
    r,
    p,
    dkLen: STRETCHED_BYTES,
    // noble refuses more than 1 GiB unless told: allow exactly what the checked parameters need.
    maxmem: 128 * r * (N + p + 2),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return base64UrlEncode(hkdf(sha256, ikm, stretched, encoder.encode(PASSWORD_INFO), SECRET_BYTES));
}
