import type { ByteRange } from '../domain/byte-range.js';
import {
  RFC8188_HEADER_LENGTH,
  RFC8188_PLAINTEXT_PER_RECORD,
  RFC8188_RECORD_OVERHEAD,
  RFC8188_RECORD_SIZE,
} from '../domain/chunk-plan.js';
import { type ChunkPlan, plaintextChunkLength } from './plan.js';

export { type ByteRange, contentRange, parseRange } from '../domain/byte-range.js';

/**
 * Byte ranges of a file's plaintext mapped to its chunks: what a media element's `Range` request
 * needs (the service worker answers it, web/src/workers/sw.ts) and what `downloadStream(file, {range})`
 * fetches. Only the chunks a range touches are fetched and decrypted, one at a time, so seeking in
 * a large video costs at most one chunk before the first byte, whatever the file's size.
 */

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

/**
 * Where part of a chunk's plaintext lies in the encrypted chunk. RFC 8188 records (64 KiB, 65,519
 * plaintext bytes each: this format never pads) decrypt on their own with the chunk's 21-byte
 * header, so a seek fetches the header and only the records it needs, not the whole chunk.
 */
export interface RecordSpan {
  /** The first record needed (0-based) and how many. */
  readonly first: number;
  readonly count: number;
  /** How many records the chunk has (the last is the one marked final). */
  readonly total: number;
  /** The records' bytes in the encrypted chunk: offsets start..end, inclusive (a `Range`). */
  readonly start: number;
  readonly end: number;
  /** Of the records' plaintext, drop `skip` bytes, then keep `take`. */
  readonly skip: number;
  readonly take: number;
  /** The records' plaintext length (checked after decryption). */
  readonly plaintext: number;
}

/** The records of a chunk of `chunkLength` plaintext bytes that hold its bytes [from, to). */
export function recordSpan(chunkLength: number, from: number, to: number): RecordSpan {
  if (from < 0 || to <= from || to > chunkLength)
    throw new RangeError(`bytes ${from}-${to - 1} are not inside a chunk of ${chunkLength} bytes`);
  const total = Math.ceil(chunkLength / RFC8188_PLAINTEXT_PER_RECORD);
  const first = Math.floor(from / RFC8188_PLAINTEXT_PER_RECORD);
  const last = Math.floor((to - 1) / RFC8188_PLAINTEXT_PER_RECORD);
  const recordsFrom = first * RFC8188_PLAINTEXT_PER_RECORD;
  const recordsTo = Math.min(chunkLength, (last + 1) * RFC8188_PLAINTEXT_PER_RECORD);
  const start = RFC8188_HEADER_LENGTH + first * RFC8188_RECORD_SIZE;
  const end =
    RFC8188_HEADER_LENGTH +
    last * RFC8188_RECORD_SIZE +
    (recordsTo - last * RFC8188_PLAINTEXT_PER_RECORD) +
    RFC8188_RECORD_OVERHEAD -
    1;
  return {
    first,
    count: last - first + 1,
    total,
    start,
    end,
    skip: from - recordsFrom,
    take: to - from,
    plaintext: recordsTo - recordsFrom,
  };
}

/** One piece of a range: chunk n's plaintext [from, to), and the records that hold it. */
export interface RecordPiece extends ChunkSlice {
  readonly records: RecordSpan;
}

/**
 * A range cut into pieces of at most `recordsPerPiece` records each (cut at record boundaries, in
 * order), so a player's stream fetches and decrypts a little at a time: the first frame after a seek
 * waits for one piece, not a whole chunk, and memory holds a few pieces whatever the chunk size.
 */
export function rangePieces(plan: ChunkPlan, range: ByteRange, recordsPerPiece: number): RecordPiece[] {
  const step = Math.max(1, Math.floor(recordsPerPiece)) * RFC8188_PLAINTEXT_PER_RECORD;
  const pieces: RecordPiece[] = [];
  for (const slice of rangeChunks(plan, range)) {
    const length = plaintextChunkLength(plan, slice.n);
    for (let from = slice.from; from < slice.to; ) {
      const to = Math.min(slice.to, (Math.floor(from / step) + 1) * step);
      pieces.push({ n: slice.n, from, to, records: recordSpan(length, from, to) });
      from = to;
    }
  }
  return pieces;
}
