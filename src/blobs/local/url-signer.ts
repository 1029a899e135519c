import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { UploadUrls } from '../../contract/types.js';
import { type ChunkRef, ChunkUrlError, type ChunkUrlQuery, type PresignRequest } from '../blob-store.js';
import { timeSlice } from '../time-slice.js';

/**
 * Presigned chunk URLs for the local backend, in S3's shape so that file.kiwi's clients combine them
 * unchanged: `head + path + "/" + NNNNN + "?" + tail + "&X-Amz-Signature=" + signatures[n-1]`.
 *
 * `tail` carries the key id, the signing date and the validity in S3's parameter names. Each
 * signature is HMAC-SHA256 over a JSON array (unambiguous: no field can bleed into the next) of the
 * version, key id, folder, file, chunk number, the exact expected body length, date and validity.
 * The length is not in the URL: the server recomputes it from the file record, so a signature for
 * one chunk cannot be used for another chunk, another length, another file or after expiry.
 */
export const SIGNING_ALGORITHM = 'WEBFOLDER-HMAC-SHA256';
const VERSION = 'wf1';

export class ChunkUrlSigner {
  readonly keyId: string;

  constructor(
    private readonly secret: string,
    private readonly uploadBaseUrl: string,
  ) {
    // A short public fingerprint of the key, so that a rotated key is recognised as such.
    this.keyId = createHash('sha256').update(secret).digest('hex').slice(0, 12);
  }

  private sign(ref: ChunkRef, n: number, length: number, amzDate: string, expiresSeconds: number): string {
    const canonical = JSON.stringify([
      VERSION,
      this.keyId,
      ref.folderId,
      ref.fileId,
      n,
      length,
      amzDate,
      expiresSeconds,
    ]);
    return createHmac('sha256', this.secret).update(canonical).digest('hex');
  }

  /** Signs every chunk of the file, yielding to the event loop every few ms (10,000 chunks take ~30 ms). */
  async presign(request: PresignRequest, now: number): Promise<UploadUrls> {
    const amzDate = toAmzDate(now);
    const expiresSeconds = Math.max(1, Math.floor((request.expiresAt - now) / 1000));
    const tail = new URLSearchParams({
      'X-Amz-Algorithm': SIGNING_ALGORITHM,
      'X-Amz-Credential': `${this.keyId}/${amzDate.slice(0, 8)}/webfolder`,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(expiresSeconds),
    }).toString();
    const signatures: string[] = [];
    const slice = timeSlice();
    for (let n = 1; n <= request.chunks; n++) {
      if (request.include && !request.include(n)) {
        signatures.push('');
        continue;
      }
      signatures.push(this.sign(request, n, request.chunkLength(n), amzDate, expiresSeconds));
      await slice.tick();
    }
    return {
      head: `${this.uploadBaseUrl}/`,
      path: `${request.folderId}/${request.fileId}`,
      tail,
      signatures,
      headers: { 'Content-Type': 'application/octet-stream' },
    };
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
    const expected = Buffer.from(this.sign(ref, n, expectedLength, amzDate, Number(expires)), 'hex');
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
