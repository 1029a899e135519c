import { statfs } from 'node:fs/promises';
import { InsufficientStorageError } from '../blob-store.js';

/**
 * The free-space floor of the local storage (DISK_FREE_MIN_MIB). Every chunk write reserves its
 * length before its first byte and hands the reservation back as its bytes reach the disk, so the
 * writes under way count against the floor too: twenty uploads starting at once on a nearly full
 * disk cannot all pass a check that each would pass alone.
 *
 * Free space is what an unprivileged writer may use (`bavail`), read with statfs on every check (a
 * system call of microseconds, cheaper than being wrong about a disk another process fills).
 */
export interface Reservation {
  /** `bytes` of the reservation are now on disk (statfs sees them): stop counting them twice. */
  consume(bytes: number): void;
  /** Hands back what is left; idempotent. */
  release(): void;
}

export class DiskSpace {
  private reserved = 0;

  constructor(
    private readonly path: string,
    private readonly floorBytes: number,
  ) {}

  /** Bytes free for this process's writes, as the filesystem reports them. */
  async free(): Promise<number> {
    const s = await statfs(this.path);
    return s.bavail * s.bsize;
  }

  /** Rejects with InsufficientStorageError unless `bytes` more (beyond the writes under way) fit above the floor. */
  async ensure(bytes: number): Promise<void> {
    if (this.floorBytes === 0) return;
    const free = await this.free();
    if (free - this.reserved - bytes < this.floorBytes) throw this.refusal();
  }

  /** Reserves `bytes` for a write, or rejects with InsufficientStorageError. */
  async reserve(bytes: number): Promise<Reservation> {
    if (this.floorBytes === 0) return { consume() {}, release() {} };
    // Counted before the statfs await, so that concurrent reservations see each other.
    let left = bytes;
    this.reserved += left;
    const reservation: Reservation = {
      consume: (n) => {
        const done = Math.min(n, left);
        left -= done;
        this.reserved -= done;
      },
      release: () => {
        this.reserved -= left;
        left = 0;
      },
    };
    try {
      const free = await this.free();
      if (free - this.reserved < this.floorBytes) throw this.refusal();
      return reservation;
    } catch (error) {
      reservation.release();
      throw error;
    }
  }

  private refusal(): InsufficientStorageError {
    return new InsufficientStorageError(
      'the server is out of storage space: nothing was stored; try again later or contact its operator',
    );
  }
}
