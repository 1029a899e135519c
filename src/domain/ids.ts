import { createHash, randomFillSync, timingSafeEqual } from 'node:crypto';
import { ID_PATTERN } from './links.js';

/**
 * Identifiers and secrets. Folder and file ids are 16 base64url characters (96 random bits): short
 * enough for a link, too many to guess. Tokens (uploadAuth, owner credentials) carry 256 bits and
 * are stored only as SHA-256 hashes, compared in constant time. An id's shape is part of a share
 * link, so it is written down with the links (./links.ts).
 */

/**
 * Random bytes are drawn 4 KiB at a time and handed out once each: one call into the system's
 * generator per request cost more than everything else an empty create does in JavaScript (about
 * 8 µs each, three per create). A slice is zeroed as it is taken, so no secret outlives its use in
 * the pool.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let taken = POOL_BYTES;

/** `bytes` (at most POOL_BYTES) fresh random bytes as base64url text. */
export function randomText(bytes: number): string {
  if (taken + bytes > POOL_BYTES) {
    randomFillSync(pool);
    taken = 0;
  }
  const text = pool.toString('base64url', taken, taken + bytes);
  pool.fill(0, taken, taken + bytes);
  taken += bytes;
  return text;
}

/**
 * Random base64url text that does not begin with '-': ids and tokens are passed to command-line
 * tools as arguments, where a leading '-' reads as an option (one value in 64 did). Drawing again is
 * uniform over the rest and costs log2(64/63), about 0.02 bits.
 */
function randomArgumentSafe(bytes: number): string {
  for (;;) {
    const text = randomText(bytes);
    if (!text.startsWith('-')) return text;
  }
}

export function newId(): string {
  return randomArgumentSafe(12);
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

export function newToken(): string {
  return randomArgumentSafe(32);
}

/**
 * The folder secret of the browser encryption format: 16 random bytes, base64url, carried only in
 * the URL fragment. Generated here for the empty-folder flow and returned once; never stored.
 */
export function newFolderSecret(): string {
  return randomText(16);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** Constant-time check of a presented token against a stored hash. */
export function tokenMatches(presented: string, storedHash: string | null): boolean {
  return hashMatches(hashToken(presented), storedHash);
}

/** Constant-time check of a token's hash (hashToken) against a stored hash. */
export function hashMatches(hash: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const a = Buffer.from(hash, 'utf8');
  const b = Buffer.from(storedHash, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
