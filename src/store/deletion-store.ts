import type { Outbox } from './folder-store.js';

/**
 * How folders go: the sweeper's due folders and expired files, and the deletion in two steps
 * (begin, then finish once the bytes are gone), started by the sweeper, the owner or an admin. A
 * part of the metadata port (metadata-store.ts).
 */
export interface FolderDeletion {
  /** Ids of folders whose deleteAfter <= now (including ones whose deletion is under way), at most `limit`. */
  foldersDue(now: number, limit: number): Promise<string[]>;
  /** Files whose expiresAt <= now in folders that are not themselves due, at most `limit`. */
  expiredFiles(now: number, limit: number): Promise<Array<{ folderId: string; fileId: string }>>;
  /**
   * Starts deleting a folder: succeeds only if it is still due at `now` (so a folder that gained a
   * file meanwhile survives) and no other sweeper holds a lease on it younger than `leaseMs`. From
   * then on the folder reads as absent. Exactly one of many concurrent callers wins, which is what
   * lets every node run a sweeper without double work.
   */
  beginFolderDeletion(folderId: string, now: number, leaseMs: number): Promise<boolean>;
  /**
   * Starts deleting a folder at its owner's (or an admin's) request, whatever its deleteAfter: from
   * then on it reads as absent, and its deleteAfter is `now`, so that a sweeper finishes the job if
   * the caller dies after the lease. False when it does not exist or is being deleted already.
   */
  beginOwnerDeletion(folderId: string, now: number): Promise<boolean>;
  /**
   * Removes the record of a folder whose deletion began (after its bytes are gone) and counts its
   * bytes less. A crash before this call leaves the tombstone, and a later sweep, after the lease,
   * finishes the job. `outbox` is stored in the same transaction if this call removed the record.
   */
  finishFolderDeletion(folderId: string, outbox?: Outbox): Promise<void>;
}
