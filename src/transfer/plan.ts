import { IntegrityError } from '../crypto/errors.js';
import {
  type ChunkPlan,
  encryptedChunkLength,
  encryptedLength,
  MIB,
  MIN_CHUNK_SIZE_MIB,
  missingChunks,
  plaintextChunkLength,
  planChunks,
} from '../domain/chunk-plan.js';
import { MAX_CHUNKS_PER_REQUEST, MAX_SITE_FILES_PER_REQUEST } from '../domain/limits.js';

/**
 * A file's chunk plan as every client sees it (the server's `size`, `chunkSize`, `chunks`), over the
 * domain's rules: the plaintext length of chunk n and the RFC 8188 length of its ciphertext are
 * defined once, in src/domain/chunk-plan.ts, and only read here.
 */
export type { ChunkPlan };
export { encryptedChunkLength, encryptedLength, missingChunks, plaintextChunkLength };

/** A plan from a server's answer, refused when its numbers cannot describe the file. */
export function filePlan(filesize: number, chunkSize: number, chunks: number, what = 'the file'): ChunkPlan {
  if (
    !Number.isSafeInteger(filesize) ||
    filesize <= 0 ||
    !Number.isSafeInteger(chunkSize) ||
    chunkSize <= 0 ||
    chunks !== Math.ceil(filesize / chunkSize)
  ) {
    throw new IntegrityError(`${what}: ${chunks} chunks of ${chunkSize} bytes cannot hold ${filesize} bytes`);
  }
  return { filesize, chunkSize, chunks };
}

/** Where chunk n starts in the plaintext. */
export function chunkOffset(plan: ChunkPlan, n: number): number {
  return (n - 1) * plan.chunkSize;
}

/** Plaintext bytes the server holds: every chunk except the `missing` ones (resume arithmetic). */
export function storedBytes(plan: ChunkPlan, missing: Iterable<number>): number {
  let stored = plan.filesize;
  for (const n of new Set(missing)) if (n >= 1 && n <= plan.chunks) stored -= plaintextChunkLength(plan, n);
  return stored;
}

/** Chunk numbers 1..chunks, ascending. */
export function allChunks(plan: ChunkPlan): number[] {
  return Array.from({ length: plan.chunks }, (_, i) => i + 1);
}

/**
 * Files to register, split into the requests the site accepts: at most MAX_SITE_FILES_PER_REQUEST
 * files and MAX_CHUNKS_PER_REQUEST chunk URLs each (the server answers 413 past either), in order.
 * Chunks are counted with the server's own plan at the folder's chunk size (`chunkSize` bytes, from
 * the folder info), rounded down to whole MiB so that the count is never below the server's. One
 * file never exceeds the cap alone (MAX_CHUNKS_PER_FILE is below it), so every batch is non-empty.
 */
export function registrationBatches<T>(items: readonly T[], sizeOf: (item: T) => number, chunkSize: number): T[][] {
  const chunkSizeMiB = Math.max(MIN_CHUNK_SIZE_MIB, Math.floor(chunkSize / MIB));
  const batches: T[][] = [];
  let batch: T[] = [];
  let chunks = 0;
  for (const item of items) {
    const need = planChunks(sizeOf(item), chunkSizeMiB).chunks;
    if (batch.length > 0 && (batch.length >= MAX_SITE_FILES_PER_REQUEST || chunks + need > MAX_CHUNKS_PER_REQUEST)) {
      batches.push(batch);
      batch = [];
      chunks = 0;
    }
    batch.push(item);
    chunks += need;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
