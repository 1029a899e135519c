/**
 * Chunk-sized buffers reused by the Node download: the transport reads a chunk's body into one
 * (transport.ts), the decryptor opens it in place (decrypt.ts), and the file writer gives it back
 * once its plaintext is on its way to disk (download.ts).
 *
 * Why: a fresh 10 MiB buffer per chunk is memory the kernel maps and zeroes page by page as the
 * body is copied in, and the garbage collector counts what such buffers add up to: every few
 * chunks it ran a full collection (docs/benchmarks.md, "The CLI download against raw GETs").
 * Reusing the few buffers a download cycles through takes both away.
 *
 * Only buffers this module handed out are ever taken back (any other, a slice of Node's shared
 * small-buffer pool for one, is ignored), and a buffer given back must no longer be read or
 * written by its giver. At most SPARE buffers and SPARE_BYTES wait here, so the memory a download
 * holds stays what its chunks in flight hold, plus this; and only while a download runs
 * (`whileDownloading`): a program that downloaded once does not keep them afterwards.
 */
const SPARE = 2;
const SPARE_BYTES = 64 * 1024 * 1024;

const ours = new WeakSet<ArrayBufferLike>();
const spare: ArrayBuffer[] = [];
let downloads = 0;

/** Runs `work` with spare buffers kept; once no download runs, they are let go. */
export async function whileDownloading<T>(work: () => Promise<T>): Promise<T> {
  downloads++;
  try {
    return await work();
  } finally {
    if (--downloads === 0) spare.length = 0;
  }
}

/** A buffer of exactly `length` bytes, of unspecified content: a spare one when one fits. */
export function takeChunkBuffer(length: number): Buffer {
  const i = spare.findIndex((b) => b.byteLength === length);
  if (i >= 0) return Buffer.from(spare.splice(i, 1)[0]!);
  const buffer = Buffer.allocUnsafeSlow(length);
  ours.add(buffer.buffer);
  return buffer;
}

/** Gives back the memory under `view` (a view of a buffer of takeChunkBuffer); anything else is ignored. */
export function giveBackChunkBuffer(view: Uint8Array): void {
  const memory = view.buffer;
  if (downloads === 0 || !ours.has(memory) || spare.includes(memory as ArrayBuffer)) return;
  const held = spare.reduce((sum, b) => sum + b.byteLength, 0);
  if (spare.length >= SPARE || held + memory.byteLength > SPARE_BYTES) return;
  spare.push(memory as ArrayBuffer);
}
