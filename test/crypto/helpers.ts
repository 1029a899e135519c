import assert from 'node:assert/strict';
import {
  CryptoFormatError,
  deriveOwnerCredentials,
  generateSecret,
  IntegrityError,
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
