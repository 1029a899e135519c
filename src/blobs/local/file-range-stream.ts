import type { FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';

/**
 * A stored chunk (or a range of it) being read, for a download. As a Readable it is an ordinary
 * stream of fresh 1 MiB buffers. `sendTo` sends it to a response without allocating: the bytes go
 * through two 1 MiB buffers taken from a small pool, each reused only after the response reported
 * the write of its previous contents done (handed to the kernel). Every freshly allocated buffer
 * counts as external memory to V8, and each 64 MiB or so of it asks for a full mark-compact of the
 * server's heap: served as fresh buffers, a GiB of chunks cost the server several times the CPU a
 * plain static-file server spends (docs/benchmarks.md, "The server's download cost").
 */
export class FileRangeStream extends Readable {
  private position: number;
  private left: number;
  private claimed = false;

  constructor(
    private readonly handle: FileHandle,
    start: number,
    length: number,
  ) {
    super({ highWaterMark: PIECE });
    this.position = start;
    this.left = length;
  }

  override _read(): void {
    this.claimed = true;
    if (this.left === 0) {
      this.push(null);
      return;
    }
    const piece = Buffer.allocUnsafe(Math.min(PIECE, this.left));
    this.handle.read(piece, 0, piece.length, this.position).then(
      ({ bytesRead }) => {
        if (bytesRead === 0) return this.destroy(new Error('the stored chunk is shorter than recorded'));
        this.position += bytesRead;
        this.left -= bytesRead;
        this.push(bytesRead === piece.length ? piece : piece.subarray(0, bytesRead));
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.handle.close().then(
      () => done(error),
      () => done(error),
    );
  }

  /** Whether sendTo may still be used: nothing was read as a stream. */
  get sendable(): boolean {
    return !this.claimed && !this.destroyed;
  }

  /**
   * Writes the rest of the range to `out` and ends it; answers the bytes sent. Rejects (and destroys
   * this stream) when reading fails or `out` closes first. Call it instead of reading the stream.
   */
  async sendTo(out: Writable): Promise<number> {
    if (!this.sendable) throw new Error('the chunk is already being read as a stream');
    this.claimed = true;
    const buffers = [takeBuffer(), takeBuffer()];
    const writes: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    let sent = 0;
    let reusable = true;
    const closed = new Promise<never>((_, reject) => {
      const onClose = () => reject(new Error('the response closed before the chunk was sent'));
      out.once('close', onClose);
      this.once('close', () => out.off('close', onClose));
    });
    closed.catch(() => {});
    try {
      for (let i = 0; this.left > 0; i = 1 - i) {
        // The buffer's previous contents must have left before it is read into again.
        await Promise.race([writes[i], closed]);
        const buffer = buffers[i]!;
        const { bytesRead } = await this.handle.read(buffer, 0, Math.min(PIECE, this.left), this.position);
        if (bytesRead === 0) throw new Error('the stored chunk is shorter than recorded');
        this.position += bytesRead;
        this.left -= bytesRead;
        sent += bytesRead;
        writes[i] = written(out, buffer.subarray(0, bytesRead));
      }
      await Promise.race([Promise.all(writes), closed]);
      await Promise.race([new Promise<void>((resolve) => out.end(resolve)), closed]);
      return sent;
    } catch (error) {
      // A write may still hold a buffer: those two are left to the garbage collector.
      reusable = false;
      out.destroy();
      throw error;
    } finally {
      if (reusable) for (const buffer of buffers) giveBuffer(buffer);
      this.destroy();
    }
  }
}

const PIECE = 1 << 20;

/** Free 1 MiB buffers: enough for a few downloads at once; beyond them, buffers are allocated. */
const pool: Buffer[] = [];
const POOL_MAX = 16;
const takeBuffer = () => pool.pop() ?? Buffer.allocUnsafeSlow(PIECE);
const giveBuffer = (buffer: Buffer) => {
  if (pool.length < POOL_MAX) pool.push(buffer);
};

/**
 * Writes `data` to `out`; resolves once `out` has passed it on (the buffer is free again). Marked
 * handled at once: it is awaited later, and a failure before then must not end the process.
 */
function written(out: Writable, data: Buffer): Promise<void> {
  const done = new Promise<void>((resolve, reject) => out.write(data, (error) => (error ? reject(error) : resolve())));
  done.catch(() => {});
  return done;
}
