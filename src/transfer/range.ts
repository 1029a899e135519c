import type { ChunkPlan } from './plan.js';

/**
 * Byte ranges of a file's plaintext mapped to its chunks: what a media element's `Range` request
 * needs (the service worker answers it, web/src/sw.ts) and what `downloadStream(file, {range})`
 * fetches. Only the chunks a range touches are fetched and decrypted, one at a time, so seeking in
 * a large video costs at most one chunk before the first byte, whatever the file's size.
 */

/** An inclusive byte range [start, end] of the plaintext. */
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

/** One chunk's part of a range: plaintext offsets [from, to) within chunk n. */
export interface ChunkSlice {
  readonly n: number;
  readonly from: number;
  readonly to: number;
}

/** The chunks (1-based, ascending) a range touches, each with the part of its plaintext in the range. */
export function rangeChunks(plan: ChunkPlan, range: ByteRange): ChunkSlice[] {
  if (range.start < 0 || range.end < range.start || range.end >= plan.filesize)
    throw new RangeError(`bytes ${range.start}-${range.end} are not inside a file of ${plan.filesize} bytes`);
  const first = Math.floor(range.start / plan.chunkSize) + 1;
  const last = Math.floor(range.end / plan.chunkSize) + 1;
  const slices: ChunkSlice[] = [];
  for (let n = first; n <= last; n++) {
    const offset = (n - 1) * plan.chunkSize;
    slices.push({
      n,
      from: Math.max(range.start, offset) - offset,
      to: Math.min(range.end + 1, offset + plan.chunkSize) - offset,
    });
  }
  return slices;
}

/** The `Content-Range` header of a 206 answer. */
export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}
