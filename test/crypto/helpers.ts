import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  CryptoFormatError,
  deriveOwnerCredentials,
  generateSecret,
  IntegrityError,
  importSecret,
  type OwnerCredentials,
} from '../../src/crypto/index.js';

/** Random bytes of any length (getRandomValues fills at most 65536 bytes per call). */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += 65_536)
    crypto.getRandomValues(bytes.subarray(offset, offset + 65_536));
  return bytes;
}

/** Resolves only if `promise` rejects with one of the two decryption errors, never with data. */
export async function assertRefused(promise: Promise<unknown>, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(
      error instanceof IntegrityError || error instanceof CryptoFormatError,
      `unexpected error: ${String(error)}`,
    );
    if (message) assert.match(error.message, message);
    return true;
  });
}

/**
 * An owner secret whose X25519 scalar begins with a zero byte (1 in 256): WebKitGTK's WebCrypto
 * refused to import such a private key (src/crypto/sealing.ts).
 */
export async function ownerWithZeroScalar(): Promise<{ secret: string; owner: OwnerCredentials }> {
  for (;;) {
    const secret = generateSecret();
    const owner = await deriveOwnerCredentials(secret);
    if (owner.privateKey[0] === 0) return { secret, owner };
  }
}

/**
 * An independent encoder written from RFC 8188 section 2 (not from our module), which can add the
 * zero padding the RFC allows after a record's delimiter. Neither our encoder nor wormhole-crypto
 * writes padding, but both decoders must read it the same way.
 */
export async function encryptWithPadding(secretText: string, records: Array<{ data: Uint8Array; zeros: number }>) {
  const ikm = await importSecret(secretText);
  const salt = randomBytes(16);
  const hkdf = (info: string, bits: number) =>
    crypto.subtle.deriveBits(
      { name: 'HKDF', hash: 'SHA-256', salt, info: new TextEncoder().encode(info) },
      ikm.hkdfKey,
      bits,
    );
  const cek = await crypto.subtle.importKey('raw', await hkdf('Content-Encoding: aes128gcm\0', 128), 'AES-GCM', false, [
    'encrypt',
  ]);
  const nonceBase = new Uint8Array(await hkdf('Content-Encoding: nonce\0', 96));
  const parts: Uint8Array[] = [salt, Uint8Array.of(0, 1, 0, 0, 0)];
  for (const [sequence, { data, zeros }] of records.entries()) {
    const nonce = nonceBase.slice();
    nonce[11]! ^= sequence;
    const padded = new Uint8Array([...data, sequence === records.length - 1 ? 2 : 1, ...new Uint8Array(zeros)]);
    parts.push(new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, cek, padded)));
  }
  return new Uint8Array(parts.flatMap((part) => [...part]));
}

/** A chunk vector of test/vectors/rfc8188.json: a secret, a salt, and the plaintext's length (test/vectors/pattern.ts). */
export interface ChunkVector {
  secret: string;
  saltHex: string;
  plaintextLength: number;
  /** The message wormhole-crypto wrote, for the vectors small enough to store. */
  ciphertextBase64?: string;
}

/** The chunk vectors of test/vectors/rfc8188.json. */
export function chunkVectors(): ChunkVector[] {
  const file = new URL('../vectors/rfc8188.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { chunks: ChunkVector[] }).chunks;
}
