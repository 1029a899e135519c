/**
 * How a file is cut into chunks, and how long each encrypted chunk is on the wire.
 *
 * Plaintext sizes drive the plan (`filesize`, `chunkSize` in the API are plaintext). Each plaintext
 * chunk is encrypted by the client as one independent RFC 8188 `aes128gcm` message with record size
 * 65536: a 21-byte header (16 salt + 4 record size + 1 key-id length, empty key id), then records of
 * at most 65519 plaintext bytes, each followed by a 1-byte delimiter and a 16-byte GCM tag.
 */
export const MIB = 1024 * 1024;
export const MAX_CHUNKS_PER_FILE = 10_000;
export const MIN_CHUNK_SIZE_MIB = 5;
export const RFC8188_RECORD_SIZE = 65_536;
export const RFC8188_HEADER_LENGTH = 21;
/** Per-record overhead: 1 delimiter byte + 16 tag bytes. */
export const RFC8188_RECORD_OVERHEAD = 17;
export const RFC8188_PLAINTEXT_PER_RECORD = RFC8188_RECORD_SIZE - RFC8188_RECORD_OVERHEAD;

export interface ChunkPlan {
  readonly filesize: number;
  readonly chunkSize: number;
  readonly chunks: number;
}

/**
 * The smallest whole number of MiB, at least `defaultChunkSizeMiB`, that keeps the file within
 * MAX_CHUNKS_PER_FILE chunks. Grown only as much as needed, so most files use the default.
 */
export function planChunks(filesize: number, defaultChunkSizeMiB: number): ChunkPlan {
  if (!Number.isSafeInteger(filesize) || filesize <= 0) throw new RangeError('filesize must be a positive integer');
  if (!Number.isInteger(defaultChunkSizeMiB) || defaultChunkSizeMiB < MIN_CHUNK_SIZE_MIB) {
    throw new RangeError(`chunk size must be a whole number of MiB >= ${MIN_CHUNK_SIZE_MIB}`);
  }
  const neededMiB = Math.ceil(filesize / MAX_CHUNKS_PER_FILE / MIB);
  const chunkSize = Math.max(defaultChunkSizeMiB, neededMiB) * MIB;
  return { filesize, chunkSize, chunks: Math.ceil(filesize / chunkSize) };
}

/** Plaintext bytes in chunk `n` (1-based): every chunk is full except possibly the last. */
export function plaintextChunkLength(plan: ChunkPlan, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > plan.chunks) throw new RangeError(`chunk ${n} is outside 1..${plan.chunks}`);
  return n < plan.chunks ? plan.chunkSize : plan.filesize - plan.chunkSize * (plan.chunks - 1);
}

/** Exact byte length of an RFC 8188 message (record size 65536) carrying `p` plaintext bytes. */
export function encryptedLength(p: number): number {
  return RFC8188_HEADER_LENGTH + p + RFC8188_RECORD_OVERHEAD * Math.ceil(p / RFC8188_PLAINTEXT_PER_RECORD);
}

/** Exact byte length the server requires for the body of chunk `n`. */
export function encryptedChunkLength(plan: ChunkPlan, n: number): number {
  return encryptedLength(plaintextChunkLength(plan, n));
}

/** Chunk numbers 1..chunks that are not in `present`, ascending. */
export function missingChunks(chunks: number, present: Iterable<number>): number[] {
  const have = new Set(present);
  const missing: number[] = [];
  for (let n = 1; n <= chunks; n++) if (!have.has(n)) missing.push(n);
  return missing;
}
