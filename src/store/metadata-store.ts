import type { FolderLimitRefusal, FolderLimits, QuotaRefusal, StorageQuota } from '../domain/limits.js';
import type { AccountStore } from './account-store.js';
import type { AccountUsageStore } from './account-usage.js';
import type { AdminStore } from './admin-store.js';
import type { AuditStore, NewAuditEntry } from './audit-store.js';
import type { Flow, FolderCreator, FolderRecord, FolderSettings } from './folder-record.js';
import type { MailStore } from './mail-store.js';
import type {
  ByteCounts,
  FolderListings,
  NewOutboxEntry,
  NotificationSettingsStore,
  OutboxStore,
} from './ops-store.js';
import type { SchemaReport } from './schema.js';

/**
 * The metadata port: folders, their files and their owners. Implemented by the SQLite store
 * (embedded default) and the PostgreSQL store (scale-out), both checked by one shared suite
 * (test/store/metadata-store.suite.ts). Times are epoch milliseconds supplied by the caller: a store
 * never reads a clock.
 *
 * Chunk presence is not kept here: the blob store is its single source of truth (a chunk exists once
 * its object exists), so direct-to-S3 uploads need no call back into the API.
 */
export type { Flow, FolderCreator, FolderRecord, FolderSettings };

/** A change of settings: the properties given change. */
export type SettingsChange = Partial<FolderSettings>;

/**
 * 'password-locked': a password was asked for but the folder has one already, or a complete file
 * (encrypted without it). 'absent': no such folder, or it is being deleted.
 */
export type UpdateFolderResult = FolderRecord | 'absent' | 'password-locked';

/** One line of a folder's activity list (the owner's view). */
export interface ActivityRecord {
  readonly at: number;
  readonly kind: 'upload' | 'download' | 'delete';
  readonly fileId: string;
  readonly ip: string | null;
  /**
   * A deletion's file name as the file record held it (encrypted by the browser, opaque here) and,
   * in request mode, its sealed key: the owner's page reads the name after the file is gone. Null
   * on the other lines.
   */
  readonly filename: string | null;
  readonly sealedKey: string | null;
}

/** What counting a download answers: the count after it, or why nothing was counted. */
export type CountDownloadResult = { readonly downloads: number } | 'limit-reached' | 'absent';

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
}

/** A file record as a caller builds it: no limit and no downloads unless given. */
export type NewFile = Omit<FileRecord, 'maxDownloads' | 'downloads'> &
  Partial<Pick<FileRecord, 'maxDownloads' | 'downloads'>>;

/** A folder record as a caller builds it: no settings, made by the API anonymously, no files, unless given. */
export type NewFolder = Omit<FolderRecord, 'settings' | 'createdBy' | 'fileCount' | 'takeDown' | 'accountId'> &
  Partial<Pick<FolderRecord, 'settings' | 'createdBy' | 'accountId'>>;

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

/** What `countDownload` is told: the limit, whether this caller counts, and what to record with it. */
export interface CountDownloadOptions {
  readonly limit: number | null;
  /** False for the owner: nothing is counted or refused. */
  readonly count: boolean;
  readonly activity: ActivityRecord | null;
  readonly outbox?: Outbox;
  /** The download the ticket answered is bound to, stored unless the answer is a refusal. */
  readonly download?: NewDownload;
}

/** A download a ticket is bound to (src/app/site/downloads.ts): the bytes it may be sent, until when. */
export interface NewDownload {
  readonly id: string;
  readonly budget: number;
  readonly expiresAt: number;
  /** Now: the file's downloads whose tickets expired are forgotten. */
  readonly now: number;
}

export interface MetadataStore {
  /** The notification outbox (ops-store.ts). */
  readonly outbox: OutboxStore;
  /** The owners' notification settings (ops-store.ts). */
  readonly notificationSettings: NotificationSettingsStore;
  /** Byte counts for quotas, metrics and stats (ops-store.ts). */
  readonly byteCounts: ByteCounts;
  /** Folder listings and the take-down (ops-store.ts). */
  readonly listings: FolderListings;
  /** The admin console's queries and the take-down (admin-store.ts). */
  readonly admin: AdminStore;
  /** The schema version, and the migrations this start applied (logged by the server). */
  readonly schema: SchemaReport;
  /**
   * Creates the folder and its files (and the options' outbox rows and audit entry) in one
   * transaction, unless they break the options' quota (then nothing is written). Fails if the id exists.
   */
  createFolder(
    folder: NewFolder,
    files: readonly NewFile[],
    options?: CreateFolderOptions,
  ): Promise<CreateFolderResult>;
  /** The mail suppression list and the mail limits' counters (mail-store.ts). */
  readonly mail: MailStore;
  /** The audit log (audit-store.ts). */
  readonly audit: AuditStore;
  /** Each account's registered bytes and own quota (account-usage.ts). */
  readonly usage: AccountUsageStore;
  /** Accounts, sessions and API keys (account-store.ts). */
  readonly accounts: AccountStore;
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
   * A folder whose owner chose an expiry gives it to the new files (effectiveFileExpiry).
   * With `claim`, the same transaction first makes the caller the owner of an ownerless folder:
   * if anything fails, the folder stays ownerless; if someone else owns it, nothing is added
   * ('claim-lost'). 'absent' when the folder does not exist or is being deleted. The storage quotas
   * are checked in the same transaction, against the folder's and the instance's byte counters
   * ('folder-quota', 'instance-quota'). `outbox` is stored with the files, only when the result is
   * 'added'.
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
   * this call leaves the tombstone, and a later sweep, after the lease, finishes the job. `outbox` is
   * stored in the same transaction if this call removed the record.
   */
  finishFolderDeletion(folderId: string, outbox?: Outbox): Promise<void>;
  /** Deletes one file record; returns true if this call deleted it, and only then stores `outbox` with it. */
  deleteFile(folderId: string, fileId: string, outbox?: Outbox): Promise<boolean>;

  // ---- The owner's controls -------------------------------------------------------------
  /**
   * Changes the folder's settings in one transaction. A chosen `expiresAt` becomes the expiry of
   * every file still live at `now` (an expired one stays expired, whether swept yet or not) and sets deleteAfter (domain/owner-settings.ts deleteAfterForChosenExpiry); a
   * `password` is stored only while the folder has none and no complete file. Answers the folder.
   */
  updateFolder(folderId: string, change: SettingsChange, now: number): Promise<UpdateFolderResult>;
  /** Sets a file's own download limit; null when there is no such live-folder file. */
  updateFile(folderId: string, fileId: string, maxDownloads: number | null): Promise<FileRecord | null>;
  /**
   * Counts one download of a file unless its count has reached `limit` (atomic: of racing callers no
   * more than `limit` are counted), with its activity line in the same transaction. With `count`
   * false (the owner) nothing is counted or refused, and the current count is answered. `outbox`
   * (the download's event) is stored in the same transaction unless the answer is a refusal.
   */
  countDownload(folderId: string, fileId: string, options: CountDownloadOptions): Promise<CountDownloadResult>;
  /**
   * Charges `bytes` to a download of the file (countDownload's `download`) if its ticket is alive at
   * `now` and the bytes fit in what it may still be sent; atomic, so racing fetches with one ticket
   * cannot together take more. False: unknown, expired or spent (nothing charged).
   */
  spendDownload(fileId: string, downloadId: string, bytes: number, now: number): Promise<boolean>;
  /**
   * Starts deleting a folder at its owner's request, whatever its deleteAfter: from then on it reads
   * as absent, and its deleteAfter is `now`, so that a sweeper finishes the job if the caller dies
   * after the lease. False when it does not exist or is being deleted already.
   */
  beginOwnerDeletion(folderId: string, now: number): Promise<boolean>;
  /** Adds an activity line, keeping the newest ACTIVITY_KEPT of the folder. */
  addActivity(folderId: string, activity: ActivityRecord): Promise<void>;
  /** The folder's newest activity lines first, at most `limit`. */
  listActivity(folderId: string, limit: number): Promise<ActivityRecord[]>;
  close(): Promise<void>;
}
