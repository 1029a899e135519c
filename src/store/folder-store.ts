import type { FolderLimitRefusal, FolderLimits, QuotaRefusal, StorageQuota } from '../domain/limits.js';
import type { NewAuditEntry } from './audit-store.js';
import type { FolderRecord } from './folder-record.js';
import type { NewOutboxEntry } from './ops-store.js';

/**
 * The core of the metadata port, what every upload uses: a folder and its files, made, read,
 * added to, completed and deleted one file at a time. Like tusd's DataStore, the rest of the port
 * (the owner's controls, the sweeper's, the downloads, the operations' parts) are parts beside it
 * (metadata-store.ts).
 *
 * Chunk presence is not kept here: the blob store is its single source of truth (a chunk exists once
 * its object exists), so direct-to-S3 uploads need no call back into the API.
 */
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
  /** The file's own download limit; null: the folder's applies. */
  readonly maxDownloads: number | null;
  /** Downloads counted (tickets given to anyone but the owner). */
  readonly downloads: number;
  /**
   * Until when the uploading browser said it is sending the file (its heartbeat, epoch ms), or null
   * when no browser ever said (API and CLI uploads): domain/sending.ts tells a stopped upload by it.
   */
  readonly sendingUntil: number | null;
}

/** A file record as a caller builds it: no limit and no downloads unless given. */
export type NewFile = Omit<FileRecord, 'maxDownloads' | 'downloads' | 'sendingUntil'> &
  Partial<Pick<FileRecord, 'maxDownloads' | 'downloads' | 'sendingUntil'>>;

/** A folder record as a caller builds it: no settings, made by the API anonymously, no files, unless given. */
export type NewFolder = Omit<FolderRecord, 'settings' | 'createdBy' | 'fileCount' | 'takeDown' | 'accountId'> &
  Partial<Pick<FolderRecord, 'settings' | 'createdBy' | 'accountId'>>;

/** A page of a folder's files: positions after `after`, at most `limit`, only those live at `liveAt`. */
/** A file with the folder it belongs to, as one read returns them. */
export interface FileInFolder {
  readonly file: FileRecord;
  readonly folder: FolderRecord;
}

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

/**
 * The outbox rows that report a change (src/app/events.ts withEvents): a write that takes them stores
 * them in the change's own transaction, and only if the change took effect, so an event is recorded
 * if and only if what it reports is (at-least-once delivery survives a crash right after the commit).
 */
export type Outbox = readonly NewOutboxEntry[];

export type AddFilesResult = 'added' | 'absent' | 'claim-lost' | FolderLimitRefusal | QuotaRefusal;

/** What createFolder answers: created, or which quota (checked in its transaction) refused it. */
export type CreateFolderResult = 'created' | QuotaRefusal;

/** The options of createFolder. */
export interface CreateFolderOptions {
  /** Stored in the creation's transaction, only if the folder is (see Outbox). */
  readonly outbox?: Outbox;
  /** The storage quotas, checked atomically with the insert; none when absent. */
  readonly quota?: StorageQuota;
  /**
   * The creation's audit-log entry, stored in the same transaction, only if the folder is: a crash
   * can neither lose it nor record a creation that did not happen.
   */
  readonly audit?: NewAuditEntry;
}

/** The options of addFiles. */
export interface AddFilesOptions {
  readonly limits: FolderLimits;
  /** The storage quotas, checked atomically with the insert; none when absent. */
  readonly quota?: StorageQuota;
  readonly claim?: OwnerClaim;
  readonly outbox?: Outbox;
}

export interface FolderStore {
  /**
   * Creates the folder and its files (and the options' outbox rows and audit entry) in one
   * transaction, unless they break the options' quota (then nothing is written). Fails if the id exists.
   */
  createFolder(
    folder: NewFolder,
    files: readonly NewFile[],
    options?: CreateFolderOptions,
  ): Promise<CreateFolderResult>;
  /** The folder, or null when it does not exist (or was deleted). */
  getFolder(folderId: string): Promise<FolderRecord | null>;
  /** The file if it belongs to that folder, else null. */
  getFile(folderId: string, fileId: string): Promise<FileRecord | null>;
  /** The file and its folder, read together, if the file belongs to that folder, else null. */
  getFileInFolder(folderId: string, fileId: string): Promise<FileInFolder | null>;
  /**
   * Files of the folder in position order (expired ones included unless `page.liveAt` is given).
   * Without `page.limit` every file is read: for tools and tests; request paths read a page.
   */
  listFiles(folderId: string, page?: FilePage): Promise<FileRecord[]>;
  /**
   * Appends files to an existing folder (browser uploads) in one transaction, in this order: with
   * `claim`, first makes the caller the owner of an ownerless folder ('claim-lost' if someone else
   * owns it); checks the folder's file and chunk limits; checks and counts the storage quotas against
   * the folder's, the instance's and the account's byte counters ('folder-quota', 'instance-quota',
   * 'account-quota'); gives the files the next positions, and moves the folder's deleteAfter
   * (domain/lifecycle.ts deleteAfterWith), all from the folder row, without reading its files. A
   * refusal writes nothing (the claim included). A folder whose owner chose an expiry gives it to the
   * new files (effectiveFileExpiry). 'absent' when the folder does not exist or is being deleted.
   * `outbox` is stored with the files, only when the result is 'added'.
   */
  addFiles(
    folderId: string,
    files: readonly Omit<NewFile, 'position'>[],
    options: AddFilesOptions,
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
   * Records completion (only the first call has an effect) with the file's new expiry (the folder's
   * chosen one instead when it has one), and moves the folder's deleteAfter accordingly
   * (deleteAfterWith). Returns true if this call completed it, and only then stores `outbox` in the
   * same transaction.
   */
  markComplete(
    folderId: string,
    fileId: string,
    completedAt: number,
    expiresAt: number,
    outbox?: Outbox,
  ): Promise<boolean>;
  /**
   * Sets until when the uploading browser sends each of `fileIds` (its heartbeat, or `until` = now
   * when it stops), only on those not yet complete; ids of other folders or files change nothing.
   */
  setSendingUntil(folderId: string, fileIds: readonly string[], until: number): Promise<void>;
  /**
   * Deletes one file record (the owner's delete, the sweeper's expiry) and counts its bytes less;
   * returns true if this call deleted it, and only then stores `outbox` with it.
   */
  deleteFile(folderId: string, fileId: string, outbox?: Outbox): Promise<boolean>;
}
