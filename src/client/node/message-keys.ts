import { hkdfSync } from 'node:crypto';
import { decodeSecret } from '../../crypto/folder.js';
import type { FolderKey } from '../../crypto/index.js';
import { CONTENT_KEY_INFO, NONCE_INFO, recordNonces } from '../../crypto/rfc8188.js';

/**
 * The keys of one RFC 8188 message for node:crypto, derived as src/crypto/rfc8188.ts derives them
 * for WebCrypto (HKDF-SHA256 of the folder secret under the message's salt): shared by the Node
 * client's encryptor (encrypt.ts) and decryptor (decrypt.ts).
 */

/** The secret's bytes, decoded once per imported key. */
const secrets = new WeakMap<FolderKey, Buffer>();

export function secretOf(key: FolderKey): Buffer {
  let bytes = secrets.get(key);
  if (!bytes) {
    bytes = Buffer.from(decodeSecret(key.secret));
    secrets.set(key, bytes);
  }
  return bytes;
}

export interface NodeMessageKeys {
  /** The AES-128-GCM key. */
  readonly contentKey: Buffer;
  /** Record i's nonce (12 bytes). */
  nonce(i: number): Uint8Array;
}

/** The content key and the nonces of a message of `records` records under `salt`. */
export function messageKeys(ikm: Uint8Array, salt: Uint8Array, records: number): NodeMessageKeys {
  const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, CONTENT_KEY_INFO, 16));
  const nonces = recordNonces(new Uint8Array(hkdfSync('sha256', ikm, salt, NONCE_INFO, 12)), 0, records);
  return { contentKey, nonce: (i) => nonces.subarray(i * 12, i * 12 + 12) };
}
