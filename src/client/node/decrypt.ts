import { createDecipheriv } from 'node:crypto';
import { type FolderKey, IntegrityError } from '../../crypto/index.js';
import { messageRecords, RFC8188_TAG_LENGTH, recordDataLength, SALT_LENGTH } from '../../crypto/rfc8188.js';
import { RFC8188_HEADER_LENGTH as HEADER_LENGTH, RFC8188_RECORD_SIZE as RECORD_SIZE } from '../../domain/chunk-plan.js';
import { messageKeys, secretOf } from './message-keys.js';

/**
 * The Node client's RFC 8188 decryptor: what `decryptChunk` (src/crypto/rfc8188.ts, WebCrypto)
 * does, with the same interface and the same checks (header, record count, tag, delimiter rules,
 * taken from that module), on node:crypto's synchronous AES-128-GCM instead.
 *
 * Why: in Node, WebCrypto runs every 64 KiB record as a job on the thread pool with its own promise,
 * copies of its input and output, and garbage for each; a CPU profile of the library's download put
 * more time there and in the collector than in the cipher (docs/benchmarks.md). Here the
 * records of a chunk are opened one after the other on the calling thread, and the plaintext is
 * written IN PLACE over the message: record j's data goes to offset <= j x 65519, which is before
 * record j's own bytes (21 + j x 65536), so nothing is overwritten before it was read. The message
 * is therefore consumed (the `decrypt` option of downloadStream allows it), and the result is a view
 * of its buffer. On any failure the buffer holds garbage and an error is thrown: nothing is returned.
 *
 * The page keeps WebCrypto (no node:crypto there); test/crypto/node-decrypt.test.ts checks this
 * against the same test vectors and the same tampering cases.
 */

/** Decrypts one chunk's message in place; its plaintext is a view of `message`'s buffer. */
export function decryptChunkInPlace(key: FolderKey, message: Uint8Array): Uint8Array {
  const records = messageRecords(message);
  const salt = message.subarray(0, SALT_LENGTH);
  const { contentKey, nonce } = messageKeys(secretOf(key), salt, records);
  let written = 0;
  for (let i = 0; i < records; i++) {
    const at = HEADER_LENGTH + i * RECORD_SIZE;
    const end = Math.min(at + RECORD_SIZE, message.length);
    const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce(i), {
      authTagLength: RFC8188_TAG_LENGTH,
    });
    decipher.setAuthTag(message.subarray(end - RFC8188_TAG_LENGTH, end));
    const padded = decipher.update(message.subarray(at, end - RFC8188_TAG_LENGTH));
    try {
      decipher.final();
    } catch {
      throw new IntegrityError(
        `bad tag: record ${i + 1} of ${records} failed authentication (wrong key, or the bytes were altered)`,
      );
    }
    const dataLength = recordDataLength(padded, i, records);
    message.set(padded.subarray(0, dataLength), written);
    written += dataLength;
  }
  return message.subarray(0, written);
}

/** `decryptChunkInPlace` behind decryptChunk's interface (a promise), for downloadStream's `decrypt`. */
export function nodeDecryptChunk(key: FolderKey, message: Uint8Array): Promise<Uint8Array> {
  try {
    return Promise.resolve(decryptChunkInPlace(key, message));
  } catch (error) {
    return Promise.reject(error);
  }
}
