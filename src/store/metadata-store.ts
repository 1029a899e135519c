import type { FolderLimitRefusal, FolderLimits } from '../domain/limits.js';
import type { Mode } from '../domain/modes.js';
import type { OpsStore } from './ops-store.js';

/**
 * The metadata port: folders, their files and their owners. Implemented by the SQLite store
 * (embedded default) and the PostgreSQL store (scale-out), both checked by one shared suite
 * (test/store/metadata-store.suite.ts). Times are epoch milliseconds supplied by the caller: a store
 * never reads a clock.
 *
 * Chunk presence is not kept here: the blob store is its single source of truth (a chunk exists once
 * its object exists), so direct-to-S3 uploads need no call back into the API.
 */
export type Flow = 'empty' | 'direct';

export interface FolderRecord {
  readonly id: string;
  readonly mode: Mode;
  readonly title: string;
  readonly flow: Flow;
  readonly createdAt: number;
  /** Key check (the secret encrypted under itself); set by the creator or by the first uploader. */
  readonly ske: string | null;
  /** SHA-256 of the direct-upload `uploadAuth` token; null in the empty-folder flow. */
  readonly uploadAuthHash: string | null;
  /** SHA-256 of the browser owner's credential; null while ownerless. */
  readonly ownerTokenHash: string | null;
  /** Public key the owner's browser published at claim time (request mode); opaque to the server. */
  readonly ownerPublicKey: string | null;
  /** When the sweeper may delete the folder (domain/lifecycle.ts folderDeleteAfter). */
  readonly deleteAfter: number;
}

export interface FileRecord {
  readonly id: string;
  readonly folderId: string;
  /** Order within the folder, 0-based, in registration order. */
  readonly position: number;
  /** Encrypted (or client-chosen) filename, opaque to the server. */
  readonly filename: string;
  readonly mimetype: string | null;
  /** Plaintext size in bytes. */
  readonly filesize: number;
  readonly chunkSize: number;
  readonly chunks: number;
  readonly createdAt: number;
  readonly completedAt: number | null;
  readonly expiresAt: number;
  /** Opaque tag of the browser that uploaded it (hash of its visitor credential), or null. */
  readonly uploaderTag: string | null;
  /**
   * Request mode: the file's own secret sealed to the owner's public key by the uploading browser,
   * opaque to the server; null when the file is encrypted under the folder secret.
   */
  readonly sealedKey: string | null;
}

/** A page of a folder's files: positions after `after`, at most `limit`, only those live at `liveAt`. */
export interface FilePage {
  readonly after?: number;
  readonly limit?: number;
  readonly liveAt?: number;
}

/** The first upload's claim of an ownerless folder (see addFiles). */
export interface OwnerClaim {
  readonly ownerTokenHash: string;
  readonly ownerPublicKey: string | null;
  readonly ske: string | null;
}

export type AddFilesResult = 'added' | 'absent' | 'claim-lost' | FolderLimitRefusal;

export interface MetadataStore {
  /** Outbox, notification settings, usage and admin queries (ops-store.ts). */
  readonly ops: OpsStore;
  /** Creates the folder and its files in one transaction. Fails if the id exists. */
  createFolder(folder: FolderRecord, files: readonly FileRecord[]): Promise<void>;
  /** The folder, or null when it does not exist (or was deleted). */
  getFolder(folderId: string): Promise<FolderRecord | null>;
  /** The file if it belongs to that folder, else null. */
  getFile(folderId: string, fileId: string): Promise<FileRecord | null>;
  /**
   * Files of the folder in position order (expired ones included unless `page.liveAt` is given).
   * Without `page.limit` every file is read: for tools and tests; request paths read a page.
   */
  listFiles(folderId: string, page?: FilePage): Promise<FileRecord[]>;
  /**
   * Appends files to an existing folder (browser uploads) in one transaction: gives them the next
   * positions, checks the folder's file and chunk limits, and moves its deleteAfter
   * (domain/lifecycle.ts deleteAfterWith), all from the folder row, without reading its files.
   * With `claim`, the same transaction first makes the caller the owner of an ownerless folder:
   * if anything fails, the folder stays ownerless; if someone else owns it, nothing is added
   * ('claim-lost'). 'absent' when the folder does not exist or is being deleted.
   */
  addFiles(
    folderId: string,
    files: readonly Omit<FileRecord, 'position'>[],
    options: { readonly limits: FolderLimits; readonly claim?: OwnerClaim },
  ): Promise<AddFilesResult>;
  /**
   * Sets the owner only if the folder has none: exactly one of any number of concurrent callers
   * wins. Returns true for the winner. `ske` is stored with it when the folder has none yet.
   */
  claimOwner(
    folderId: string,
    ownerTokenHash: string,
    ownerPublicKey: string | null,
    ske: string | null,
  ): Promise<boolean>;
  /**
   * Records completion (only the first call has an effect) with the file's new expiry, and moves the
   * folder's deleteAfter accordingly (deleteAfterWith). Returns true if this call completed it.
   */
  markComplete(folderId: string, fileId: string, completedAt: number, expiresAt: number): Promise<boolean>;
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
   * Removes the record of a folder whose deletion began (after its bytes are gone). A crash before
   * this call leaves the tombstone, and a later sweep, after the lease, finishes the job.
   */
  finishFolderDeletion(folderId: string): Promise<void>;
  /** Deletes one file record; returns true if this call deleted it. */
  deleteFile(folderId: string, fileId: string): Promise<boolean>;
  close(): Promise<void>;
}
