import { createHash, createHmac } from 'node:crypto';

/**
 * SigV4 query signatures of the chunk PUTs of one file (AWS's "Authenticating requests: using query
 * parameters"), computed here rather than by the SDK's middleware so that the signing key is derived
 * once per request and the per-chunk work is two hashes, signed a slice of chunks at a time in
 * bulk-work steps (domain/bulk-turns.ts). Every chunk of a file shares everything but the object key and the length: the
 * canonical query (the URL's SigV4 parameters, without the signature), the host, the date and scope.
 * The store checks the first chunk against the SDK's own URL before using the rest (s3-blob-store.ts).
 */
export interface ChunkSigningJob {
  /** kSigning = HMAC chain over "AWS4" + secret, date, region, service, "aws4_request" (hex). */
  readonly signingKeyHex: string;
  readonly amzDate: string;
  /** date/region/service/aws4_request */
  readonly scope: string;
  /** The URI path before the key, as it appears in the URL ("/bucket/" path-style, "/" virtual-hosted). */
  readonly basePath: string;
  readonly canonicalQuery: string;
  readonly host: string;
  readonly contentType: string;
  readonly keys: readonly string[];
  readonly lengths: readonly number[];
}

export function deriveSigningKey(secret: string, date: string, region: string, service: string): Buffer {
  const kDate = createHmac('sha256', `AWS4${secret}`).update(date).digest();
  const kRegion = createHmac('sha256', kDate).update(region).digest();
  const kService = createHmac('sha256', kRegion).update(service).digest();
  return createHmac('sha256', kService).update('aws4_request').digest();
}

/** The signatures of every chunk of the job, concatenated (64 hex digits each). */
export function signChunks(job: ChunkSigningJob): string {
  const key = Buffer.from(job.signingKeyHex, 'hex');
  const head = `PUT\n${job.basePath}`;
  const middle = `\n${job.canonicalQuery}\ncontent-length:`;
  const tail = `\ncontent-type:${job.contentType}\nhost:${job.host}\n\ncontent-length;content-type;host\nUNSIGNED-PAYLOAD`;
  const prefix = `AWS4-HMAC-SHA256\n${job.amzDate}\n${job.scope}\n`;
  let out = '';
  for (let i = 0; i < job.keys.length; i++) {
    const canonical = `${head}${job.keys[i]}${middle}${job.lengths[i]}${tail}`;
    const hashed = createHash('sha256').update(canonical).digest('hex');
    out += createHmac('sha256', key)
      .update(prefix + hashed)
      .digest('hex');
  }
  return out;
}

/** RFC 3986 encoding, as SigV4 wants query keys and values. */
export const escapeUri = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A URL's query as SigV4's canonical query string, without the signature: sorted, encoded. */
export function canonicalQueryOf(url: URL): string {
  return [...url.searchParams]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [escapeUri(name), escapeUri(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}
