import { IntegrityError } from '../crypto/errors.js';
import {
  type ChunkPlan,
  encryptedChunkLength,
  encryptedLength,
  missingChunks,
  plaintextChunkLength,
} from '../domain/chunk-plan.js';

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
