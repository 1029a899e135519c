/**
 * The folder secret and everything encrypted under it: file chunks, names, types and `ske`.
 * Each of them is one RFC 8188 message (see rfc8188.ts) keyed from the 16-byte secret.
 */
import { base64DecodeEither, base64Encode, base64UrlDecode, base64UrlEncode } from './base64.js';
import { CryptoFormatError, IntegrityError } from './errors.js';
import { decryptMessage, decryptRecords, encryptMessage, encryptMessageParts } from './rfc8188.js';

export const SECRET_BYTES = 16;

/** A secret imported for use. Build it with importSecret; its fields are for this module. */
export interface FolderKey {
  /** The secret's base64url text, as in the link's fragment: `ske` is this text encrypted. */
  readonly secret: string;
  /** The secret's bytes as an HKDF key: the input keying material of every message. */
  readonly hkdfKey: CryptoKey;
}

/** A fresh folder (or file) secret: 16 random bytes as base64url without padding (22 characters). */
export function generateSecret(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The bytes of a secret's text; CryptoFormatError unless it is exactly 16 bytes of base64url. */
export function decodeSecret(secret: string, what = 'secret'): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array;
  try {
    bytes = base64UrlDecode(secret);
  } catch (error) {
    throw new CryptoFormatError(`${what} is not base64url: ${(error as Error).message}`);
  }
  if (bytes.length !== SECRET_BYTES)
    throw new CryptoFormatError(`${what} is ${bytes.length} bytes, expected ${SECRET_BYTES}`);
  return bytes as Uint8Array<ArrayBuffer>;
}

export async function importSecret(secret: string): Promise<FolderKey> {
  const hkdfKey = await crypto.subtle.importKey('raw', decodeSecret(secret), 'HKDF', false, [
    'deriveBits',
    'deriveKey',
  ]);
  return { secret, hkdfKey };
}

/** One plaintext chunk (1 byte or more) as one RFC 8188 message. */
export function encryptChunk(key: FolderKey, plaintext: Uint8Array): Promise<Uint8Array> {
  return encryptMessage(key.hkdfKey, plaintext);
}

/**
 * The same RFC 8188 message as `encryptChunk`, as its pieces in order (header, then each record's
 * ciphertext): for a body built from parts (a browser's `Blob`), which then copies each piece once.
 */
export function encryptChunkParts(
  key: FolderKey,
  plaintext: Uint8Array,
): Promise<Array<Uint8Array<ArrayBuffer> | ArrayBuffer>> {
  return encryptMessageParts(key.hkdfKey, plaintext);
}

/** The plaintext of one chunk; throws IntegrityError or CryptoFormatError rather than return unauthenticated bytes. */
export function decryptChunk(key: FolderKey, message: Uint8Array): Promise<Uint8Array> {
  return decryptMessage(key.hkdfKey, message);
}

/**
 * Records `first`.. of a chunk of `total` records, from its 21-byte header and those records' bytes
 * (src/transfer/range.ts says which): a media seek decrypts only what it plays.
 */
export function decryptChunkRecords(
  key: FolderKey,
  header: Uint8Array,
  first: number,
  records: Uint8Array,
  total: number,
): Promise<Uint8Array> {
  return decryptRecords(key.hkdfKey, header, first, records, total);
}

const textEncoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A name or mimetype as base64 (standard alphabet, padded) of its UTF-8 bytes' RFC 8188 message. */
export async function encryptText(key: FolderKey, text: string): Promise<string> {
  return base64Encode(await encryptMessage(key.hkdfKey, textEncoder.encode(text)));
}

/** Reads what encryptText writes; accepts base64 or base64url, padded or not. */
export async function decryptText(key: FolderKey, value: string): Promise<string> {
  const plaintext = await decryptMessage(key.hkdfKey, base64DecodeEither(value));
  try {
    return strictUtf8.decode(plaintext);
  } catch {
    throw new CryptoFormatError('decrypted text is not valid UTF-8');
  }
}

/** The key-check value: the secret's own base64url text, encrypted under the secret. */
export function createSke(key: FolderKey): Promise<string> {
  return encryptText(key, key.secret);
}

/**
 * Whether `ske` proves that `key` is the folder's key. False for a wrong key and for an `ske` that
 * is malformed or altered (neither proves anything); only unexpected failures throw.
 */
export async function checkSke(key: FolderKey, ske: string): Promise<boolean> {
  try {
    return (await decryptText(key, ske)) === key.secret;
  } catch (error) {
    if (error instanceof IntegrityError || error instanceof CryptoFormatError) return false;
    throw error;
  }
}
