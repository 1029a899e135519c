/**
 * HTTP byte ranges (RFC 9110 section 14), one rule for both ends: the server's chunk GET answers a
 * `Range` within an encrypted chunk, and the service worker answers a media element's `Range` within
 * a file's plaintext (src/transfer/range.ts maps those to chunks and records).
 */

/** An inclusive byte range [start, end]. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Reads a `Range` header against a file of `size` bytes (RFC 9110 section 14): one range,
 * `bytes=a-b`, `bytes=a-` or `bytes=-n` (the last n bytes). Returns null when there is no header or
 * it is not one bytes range (then the whole file is answered with 200, as the RFC allows), and
 * 'unsatisfiable' when the range starts past the end (416).
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/** The `Content-Range` header of a 206 answer. */
export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}
