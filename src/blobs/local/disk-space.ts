import { statfs } from 'node:fs/promises';
import { InsufficientStorageError } from '../blob-store.js';

/**
 * The free-space floor of the local storage (DISK_FREE_MIN_MIB). Every chunk write reserves its
 * length before its first byte and hands the reservation back as its bytes reach the disk, so the
 * writes under way count against the floor too: twenty uploads starting at once on a nearly full
 * disk cannot all pass a check that each would pass alone. Registered files reserve their bytes the
 * same way until written (reserveFiles): a registration is refused unless what
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

/** How registrations' reservations are bounded (DISK_RESERVATION_IDLE_SECONDS, DISK_RESERVATION_SHARE_PERCENT). */
export interface ReservationPolicy {
  /** A folder's reservations lapse once no chunk of it arrived for this long. */
  readonly idleMs: number;
  /** The most one folder, or one client, may hold reserved: this fraction of the space above the floor. */
  readonly share: number;
}

const NO_BOUNDS: ReservationPolicy = { idleMs: Number.POSITIVE_INFINITY, share: 1 };

/** Who holds a registration's reservation: its folder, and the client address that registered it (if known). */
export interface ReservationHolder {
  readonly folder: string;
  readonly client: string | null;
}

interface Held {
  /** The bytes not yet written. */
  bytes: number;
  /** When the reservation lapses at the latest (the file's expiry). */
  readonly until: number;
  readonly folder: string;
  readonly client: string | null;
}

export class DiskSpace {
  /** Bytes counted against the floor beyond what statfs sees: writes under way and registered files. */
  private reserved = 0;
  /** Per registered file (`folderId/fileId`): what its reservation holds, and for whom. */
  private readonly files = new Map<string, Held>();
  /** Per folder holding reservations: when it last made progress (a registration, a chunk arriving). */
  private readonly progress = new Map<string, number>();

  constructor(
    private readonly path: string,
    private readonly floorBytes: number,
    private readonly clock: () => number = Date.now,
    private readonly policy: ReservationPolicy = NO_BOUNDS,
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
    const prepaid = file === undefined ? 0 : Math.min(bytes, this.files.get(file)?.bytes ?? 0);
    const free = await this.free();
    if (free - this.reserved - (bytes - prepaid) < this.floorBytes) throw this.refusal();
  }

  /**
   * Reserves the bytes of registered files for `holder`, all or none: counted before the statfs
   * await, so that racing registrations see each other. Refused when they do not fit above the
   * floor, or when they would take what the holder's folder, or its client, has reserved past the
   * policy's share of the space above the floor.
   */
  async reserveFiles(
    entries: readonly { readonly file: string; readonly bytes: number; readonly until: number }[],
    holder: ReservationHolder = { folder: '', client: null },
  ): Promise<void> {
    if (this.floorBytes === 0) return;
    this.prune();
    for (const { file, bytes, until } of entries) {
      this.forget(file);
      this.files.set(file, { bytes: 0, until, folder: holder.folder, client: holder.client });
      this.adjust(file, bytes);
    }
    this.progress.set(holder.folder, this.clock());
    try {
      const usable = (await this.free()) - this.floorBytes;
      if (usable - this.reserved < 0) throw this.refusal();
      const bound = Math.floor(usable * this.policy.share);
      if (this.policy.share < 1 && this.heldBy((h) => h.folder === holder.folder) > bound)
        throw this.shareRefusal('one folder', bound);
      if (this.policy.share < 1 && holder.client !== null && this.heldBy((h) => h.client === holder.client) > bound)
        throw this.shareRefusal('one client', bound);
    } catch (error) {
      for (const { file } of entries) this.forget(file);
      throw error;
    }
  }

  private heldBy(test: (held: Held) => boolean): number {
    let sum = 0;
    for (const held of this.files.values()) if (test(held)) sum += held.bytes;
    return sum;
  }

  /** Hands back what the files' reservations hold (`prefix`: every file whose key starts with it). */
  releaseFiles(files: readonly string[], prefix?: string): void {
    for (const file of files) this.forget(file);
    if (prefix === undefined) return;
    for (const file of this.files.keys()) if (file.startsWith(prefix)) this.forget(file);
  }

  private forget(file: string): void {
    const held = this.files.get(file);
    if (!held) return;
    this.reserved -= held.bytes;
    this.files.delete(file);
  }

  /**
   * Takes up to `bytes` from a file's reservation for a chunk write, which reserves them itself
   * (reserve): answers how many, to give back with returnToFile if the write fails. A chunk arriving
   * is progress: the reservations of its folder start their idle time again.
   */
  takeFromFile(file: string, bytes: number): number {
    const held = this.files.get(file);
    if (!held) return 0;
    this.progress.set(held.folder, this.clock());
    const taken = Math.min(bytes, held.bytes);
    this.adjust(file, -taken);
    return taken;
  }

  returnToFile(file: string, bytes: number): void {
    if (bytes > 0) this.adjust(file, bytes);
  }

  /** Moves a file's reservation by `delta` (a file whose reservation lapsed or went meanwhile: nothing). */
  private adjust(file: string, delta: number): void {
    const held = this.files.get(file);
    if (!held) return;
    const next = Math.max(0, held.bytes + delta);
    this.reserved += next - held.bytes;
    held.bytes = next;
  }

  /**
   * Drops the reservations of files past their expiry (swept, or deleted by another process), and
   * those of folders that made no progress for the policy's idle time: their chunks are checked
   * against the free space again when they arrive.
   */
  private prune(): void {
    const now = this.clock();
    for (const [file, held] of this.files) {
      const idleSince = this.progress.get(held.folder) ?? 0;
      if (held.until <= now || idleSince + this.policy.idleMs <= now) this.forget(file);
    }
    for (const [folder, at] of this.progress) if (at + this.policy.idleMs <= now) this.progress.delete(folder);
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

  private shareRefusal(who: string, bound: number): InsufficientStorageError {
    return new InsufficientStorageError(
      `${who} may reserve at most ${Math.floor(bound / 1024 / 1024)} MiB of this server's free space for files not yet uploaded: upload the files registered already, or register fewer or smaller files`,
    );
  }

  private refusal(): InsufficientStorageError {
    return new InsufficientStorageError(
      'the server is out of storage space: nothing was stored; try again later or contact its operator',
    );
  }
}
