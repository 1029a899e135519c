import { createCipheriv, randomBytes } from 'node:crypto';
import type { FolderKey } from '../../crypto/index.js';
import {
  DELIMITER_FINAL_RECORD,
  DELIMITER_MORE_RECORDS,
  RFC8188_TAG_LENGTH,
  SALT_LENGTH,
  sealHeader,
} from '../../crypto/rfc8188.js';
import {
  encryptedLength,
  RFC8188_HEADER_LENGTH as HEADER_LENGTH,
  RFC8188_PLAINTEXT_PER_RECORD as PLAINTEXT_PER_RECORD,
  RFC8188_RECORD_SIZE as RECORD_SIZE,
} from '../../domain/chunk-plan.js';
import { messageKeys, secretOf } from './message-keys.js';

/**
 * The Node client's RFC 8188 encryptor: the message `encryptChunk` (src/crypto/rfc8188.ts,
 * WebCrypto) writes, byte for byte under the same salt, on node:crypto's synchronous AES-128-GCM.
 *
 * Why: in Node, WebCrypto runs every 64 KiB record as a job on the thread pool with its own
 * promise and copies of its input and output, which cost the library's upload more CPU than the
 * cipher (the decryptor, decrypt.ts, was moved to node:crypto for the same reason; the figures are
 * in docs/benchmarks.md). Here the records are sealed one after the other on the calling thread,
 * each straight into its place in the one message buffer. The page keeps WebCrypto (no node:crypto
 * there); test/crypto/node-encrypt.test.ts checks this against the same vectors and the WebCrypto
 * decryptor.
 */

const MORE = Uint8Array.of(DELIMITER_MORE_RECORDS);
const FINAL = Uint8Array.of(DELIMITER_FINAL_RECORD);

/**
 * Seals `plaintext` (at least 1 byte) as one message under `salt`, with the folder secret's bytes
 * (`ikm`). The salt must be fresh random bytes for every message; only test vectors pass a fixed one.
 */
export function sealWithSalt(ikm: Uint8Array, plaintext: Uint8Array, salt: Uint8Array): Buffer {
  const header = sealHeader(plaintext.length, salt);
  const records = Math.ceil(plaintext.length / PLAINTEXT_PER_RECORD);
  const message = Buffer.allocUnsafeSlow(encryptedLength(plaintext.length));
  message.set(header, 0);
  const { contentKey, nonce } = messageKeys(ikm, salt, records);
  for (let i = 0; i < records; i++) {
    const plainStart = i * PLAINTEXT_PER_RECORD;
    const plainEnd = Math.min(plainStart + PLAINTEXT_PER_RECORD, plaintext.length);
    const cipher = createCipheriv('aes-128-gcm', contentKey, nonce(i), {
      authTagLength: RFC8188_TAG_LENGTH,
    });
    let at = HEADER_LENGTH + i * RECORD_SIZE;
    at += cipher.update(plaintext.subarray(plainStart, plainEnd)).copy(message, at);
    at += cipher.update(i === records - 1 ? FINAL : MORE).copy(message, at);
    cipher.final();
    cipher.getAuthTag().copy(message, at);
  }
  return message;
}

/** `sealWithSalt` under a fresh random salt, behind encryptChunk's interface, for the engine's `encrypt`. */
export function nodeEncryptChunk(key: FolderKey, plaintext: Uint8Array): Promise<Uint8Array> {
  try {
    return Promise.resolve(sealWithSalt(secretOf(key), plaintext, randomBytes(SALT_LENGTH)));
  } catch (error) {
    return Promise.reject(error);
  }
}
