import { createCipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { UploadUrls } from '../../contract/types.js';
import { bulkTurn } from '../../domain/bulk-turns.js';
import { SIGNATURE_TEXT, signatureStrings, signatureText } from '../../domain/signature-text.js';
import { type ChunkRef, ChunkUrlError, type ChunkUrlQuery, type PresignRequest } from '../blob-store.js';

/**
 * Presigned chunk URLs for the local backend, in S3's shape so that file.kiwi's clients combine them
 * unchanged by the chunk URL rule (chunkUrl in src/transfer/urls.ts).
 *
 * `tail` carries the key id, the signing date and the validity in S3's parameter names. The
 * signature of chunk n is a pseudo-random function of (n, its exact body length) under a key that is
 * itself bound to the folder, the file, the date and the validity:
 *
 *   fileKey = HMAC-SHA256(secret, JSON [version, key id, folder, file, date, validity])
 *   sig(n)  = hex(AES-256-ECB(fileKey, block(n, length, 0) || block(n, length, 1)))   (64 hex digits)
 *
 * AES under a secret key is a pseudo-random permutation, so each 16-byte block is unpredictable
 * without the key: a signature for one chunk, length, file, folder or validity says nothing about
 * any other. The cost is ONE keyed hash per file and one cipher
 * call over all its chunks (100,000 chunk signatures in a few ms), where an HMAC per chunk took about
 * a CPU-second for the largest request. Verifying recomputes one key and two blocks. The length is
 * not in the URL: the server recomputes it from the file record.
 */
export const SIGNING_ALGORITHM = 'WEBFOLDER-AES256-PRF';
const VERSION = 'wf2';
const BLOCK = 16;
const YIELD_ABOVE_CHUNKS = 1000;
/** Two AES blocks per chunk: 32 bytes, 64 hex digits, as long as an S3 SigV4 signature. */
const SIGNATURE_BYTES = 2 * BLOCK;

export class ChunkUrlSigner {
  readonly keyId: string;

  constructor(
    private readonly secret: string,
    private readonly uploadBaseUrl: string,
  ) {
    // A short public fingerprint of the key, so that a rotated key is recognised as such.
    this.keyId = createHash('sha256').update(secret).digest('hex').slice(0, 12);
  }

  private fileKey(ref: ChunkRef, amzDate: string, expiresSeconds: number): Buffer {
    const canonical = JSON.stringify([VERSION, this.keyId, ref.folderId, ref.fileId, amzDate, expiresSeconds]);
    return createHmac('sha256', this.secret).update(canonical).digest();
  }

  /**
   * The signatures of chunks `numbers[i]` of lengths `lengthOf(numbers[i])` under one file key, as
   * one buffer of 32 bytes per entry: one cipher call, whatever their number.
   */
  private signAll(key: Buffer, numbers: ArrayLike<number>, lengthOf: (n: number) => number): Buffer {
    const input = new DataView(new ArrayBuffer(numbers.length * SIGNATURE_BYTES));
    for (let i = 0; i < numbers.length; i++) {
      const n = numbers[i]!;
      const length = lengthOf(n);
      // One block per half: chunk number (4 bytes), body length (8), which half (4), big-endian.
      for (let half = 0, at = i * SIGNATURE_BYTES; half < 2; half++, at += BLOCK) {
        input.setUint32(at, n);
        input.setUint32(at + 4, Math.floor(length / 2 ** 32));
        input.setUint32(at + 8, length % 2 ** 32);
        input.setUint32(at + 12, half);
      }
    }
    const cipher = createCipheriv('aes-256-ecb', key, null);
    cipher.setAutoPadding(false);
    return Buffer.concat([cipher.update(input), cipher.final()]);
  }

  /** Signs every chunk of the file (or those `include` names): one key derivation, one cipher call. */
  async presign(request: PresignRequest, now: number): Promise<UploadUrls> {
    const amzDate = toAmzDate(now);
    const expiresSeconds = Math.max(1, Math.floor((request.expiresAt - now) / 1000));
    const tail = new URLSearchParams({
      'X-Amz-Algorithm': SIGNING_ALGORITHM,
      'X-Amz-Credential': `${this.keyId}/${amzDate.slice(0, 8)}/webfolder`,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(expiresSeconds),
    }).toString();
    let numbers: Uint32Array;
    if (request.include) {
      const wanted: number[] = [];
      for (let n = 1; n <= request.chunks; n++) if (request.include(n)) wanted.push(n);
      numbers = Uint32Array.from(wanted);
    } else {
      numbers = new Uint32Array(request.chunks);
      for (let i = 0; i < numbers.length; i++) numbers[i] = i + 1;
    }
    // Each large file is signed in a turn of the event loop of its own: a create of ten of them is
    // ten short tasks with other requests served in between, not one long one.
    if (numbers.length > YIELD_ABOVE_CHUNKS) await bulkTurn();
    const key = this.fileKey(request, amzDate, expiresSeconds);
    // Hex of the whole buffer at once, then sliced: no encoder call per chunk.
    const hex = this.signAll(key, numbers, (n) => request.chunkLength(n)).toString('hex');
    // Kept as one text, made into strings only if something reads `signatures` (domain/signature-text.ts).
    const text = signatureText(hex, request.chunks, request.include ? numbers : null);
    let signatures: string[] | undefined;
    const urls = {
      head: `${this.uploadBaseUrl}/`,
      path: `${request.folderId}/${request.fileId}`,
      tail,
      get signatures(): string[] {
        signatures ??= signatureStrings(text);
        return signatures;
      },
      headers: { 'Content-Type': 'application/octet-stream' },
    };
    Object.defineProperty(urls, SIGNATURE_TEXT, { value: text });
    return urls;
  }

  /** Throws ChunkUrlError naming what is wrong; compares the signature in constant time. */
  verify(ref: ChunkRef, n: number, expectedLength: number, query: ChunkUrlQuery, now: number): void {
    const {
      'X-Amz-Algorithm': algorithm,
      'X-Amz-Credential': credential,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': expires,
      'X-Amz-Signature': signature,
    } = query;
    if (algorithm !== SIGNING_ALGORITHM) throw new ChunkUrlError('X-Amz-Algorithm is missing or unsupported');
    if (!credential || credential.split('/')[0] !== this.keyId)
      throw new ChunkUrlError('X-Amz-Credential does not match this server');
    if (!amzDate || !expires || !/^\d{1,9}$/.test(expires))
      throw new ChunkUrlError('X-Amz-Date and X-Amz-Expires are required');
    const signedAt = fromAmzDate(amzDate);
    if (signedAt === null) throw new ChunkUrlError('X-Amz-Date is malformed');
    if (!signature || !/^[0-9a-f]{64}$/.test(signature))
      throw new ChunkUrlError('X-Amz-Signature is missing or malformed');
    const expected = this.signAll(this.fileKey(ref, amzDate, Number(expires)), [n], () => expectedLength);
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
      throw new ChunkUrlError('signature does not match this chunk');
    // Checked after the signature so that a forged expiry cannot be told apart from a bad signature.
    if (now > signedAt + Number(expires) * 1000) throw new ChunkUrlError('upload URL has expired');
  }
}

/** S3's basic ISO 8601 form: 20261121T195000Z. */
export function toAmzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function fromAmzDate(value: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(ms) ? null : ms;
}
