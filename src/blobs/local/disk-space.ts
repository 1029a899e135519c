import { statfs } from 'node:fs/promises';
import { InsufficientStorageError } from '../blob-store.js';

/**
 * The free-space floor of the local storage (DISK_FREE_MIN_MIB). Every chunk write reserves its
 * length before its first byte and hands the reservation back as its bytes reach the disk, so the
 * writes under way count against the floor too: twenty uploads starting at once on a nearly full
 * disk cannot all pass a check that each would pass alone. Registered files reserve their bytes the
 * same way until written (reserveFiles; issue 21, finding 3): a registration is refused unless what
 * is registered and not yet written fits too. The reservations live in this process: the local
 * backend is one node's disk. After a restart, files registered before it no longer count (their
 * chunks' own writes still do).
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
  /** Bytes counted against the floor beyond what statfs sees: writes under way and registered files. */
  private reserved = 0;
  /** Per registered file (`folderId/fileId`): the bytes not yet written. */
  private readonly files = new Map<string, number>();
  /** Per registered file: when its reservation lapses (its expiry), checked by prune. */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly path: string,
    private readonly floorBytes: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Bytes free for this process's writes, as the filesystem reports them. */
  async free(): Promise<number> {
    const s = await statfs(this.path);
    return s.bavail * s.bsize;
  }

  /**
   * Rejects with InsufficientStorageError unless `bytes` more (beyond what is reserved) fit above the
   * floor; what the reservation of `file` still holds counts as fitting already.
   */
  async ensure(bytes: number, file?: string): Promise<void> {
    if (this.floorBytes === 0) return;
    this.prune();
    const prepaid = file === undefined ? 0 : Math.min(bytes, this.files.get(file) ?? 0);
    const free = await this.free();
    if (free - this.reserved - (bytes - prepaid) < this.floorBytes) throw this.refusal();
  }

  /**
   * Reserves the bytes of registered files, all or none: counted before the statfs await, so that
   * racing registrations see each other.
   */
  async reserveFiles(
    entries: readonly { readonly file: string; readonly bytes: number; readonly until: number }[],
  ): Promise<void> {
    if (this.floorBytes === 0) return;
    this.prune();
    for (const { file, bytes, until } of entries) {
      this.adjust(file, bytes);
      this.until.set(file, until);
    }
    try {
      if ((await this.free()) - this.reserved < this.floorBytes) throw this.refusal();
    } catch (error) {
      for (const { file } of entries) this.forget(file);
      throw error;
    }
  }

  /** Hands back what the files' reservations hold (`prefix`: every file whose key starts with it). */
  releaseFiles(files: readonly string[], prefix?: string): void {
    for (const file of files) this.forget(file);
    if (prefix === undefined) return;
    for (const file of this.until.keys()) if (file.startsWith(prefix)) this.forget(file);
  }

  private forget(file: string): void {
    this.adjust(file, -(this.files.get(file) ?? 0));
    this.until.delete(file);
  }

  /**
   * Takes up to `bytes` from a file's reservation for a chunk write, which reserves them itself
   * (reserve): answers how many, to give back with returnToFile if the write fails.
   */
  takeFromFile(file: string, bytes: number): number {
    const taken = Math.min(bytes, this.files.get(file) ?? 0);
    this.adjust(file, -taken);
    return taken;
  }

  returnToFile(file: string, bytes: number): void {
    if (bytes > 0) this.adjust(file, bytes);
  }

  private adjust(file: string, delta: number): void {
    const left = (this.files.get(file) ?? 0) + delta;
    if (left > 0) this.files.set(file, left);
    else this.files.delete(file);
    this.reserved += delta;
  }

  /** Drops the reservations of files past their expiry (swept, or deleted by another process). */
  private prune(): void {
    const now = this.clock();
    for (const [file, until] of this.until) if (until <= now) this.forget(file);
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
