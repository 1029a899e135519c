import type { AccountFolderPage, AccountFolderSummary } from './account-folders.js';
import type { FolderRecord } from './folder-record.js';

/**
 * The operations parts of the metadata port, one interface per purpose, each a property of
 * `MetadataStore`: the notification outbox (`outbox`), the owners' notification settings
 * (`notificationSettings`), the byte counts quotas and metrics read (`byteCounts`), and the
 * operator's listings (`listings`). Kept apart from the folder/file contract so that either can grow
 * without touching the other; a caller depends on the part it uses. Both SQL stores implement them
 * over the same tables, checked by the shared suite.
 */

/** One delivery: an event for one target (an operator endpoint, or the folder owner's mail or hook). */
export interface OutboxEntry {
  /** Unique per event and target; the delivery's key for claims and results. */
  readonly id: string;
  /** The event's id, sent as `webhook-id`: the same on every retry, for the receiver's de-duplication. */
  readonly eventId: string;
  /** `hook:<key>` (an operator endpoint), `owner-mail` or `owner-hook`. */
  readonly target: string;
  /** The folder the event is about (owner targets look their settings up through it). */
  readonly folderId: string | null;
  /** The JSON body, exactly as it is signed and sent. */
  readonly payload: string;
  readonly createdAt: number;
  /** Failed attempts so far. */
  readonly attempts: number;
}

export interface NewOutboxEntry extends Omit<OutboxEntry, 'attempts'> {
  readonly nextAttemptAt: number;
}

/** What a folder's owner asked to be told, and where. Deleted with the folder (ON DELETE CASCADE). */
export interface FolderNotifications {
  readonly email: string | null;
  readonly webhookUrl: string | null;
  /** The per-folder webhook's signing secret (Standard Webhooks `whsec_…`). */
  readonly webhookSecret: string | null;
  readonly onDownload: boolean;
  readonly onUpload: boolean;
  /** The language of the owner's mails: a site language tag (`de`, `pt-BR`); null: English. */
  readonly language: string | null;
  readonly updatedAt: number;
}

export interface StoreUsage {
  /** Live folders (not under deletion). */
  readonly folders: number;
  readonly files: number;
  /** Sum of the registered (plaintext) sizes of the live files. */
  readonly bytes: number;
  /** Files registered but not yet complete. */
  readonly incompleteFiles: number;
}

export interface OutboxCounts {
  /** Deliveries waiting for their (next) attempt. */
  readonly pending: number;
  /** Deliveries given up after their last attempt. */
  readonly failed: number;
}

export interface FolderSummary extends FolderRecord {
  readonly files: number;
  readonly bytes: number;
}

/** The durable outbox of webhook and mail deliveries (src/notify delivers from it). */
export interface OutboxStore {
  /** Records deliveries (all or none). Duplicate ids are ignored. */
  enqueueOutbox(entries: readonly NewOutboxEntry[]): Promise<void>;
  /**
   * Takes up to `limit` deliveries that are due at `now` and not leased by anyone, leasing them until
   * `now + leaseMs`: of any number of concurrent claimers on any number of nodes, each delivery goes
   * to exactly one until its lease runs out.
   */
  claimOutbox(now: number, leaseMs: number, limit: number): Promise<OutboxEntry[]>;
  /** The delivery succeeded (or is moot): removes it. */
  finishOutbox(id: string): Promise<void>;
  /** The attempt failed: counts it and sets the next attempt (null gives up, keeping the row). */
  retryOutbox(id: string, attempts: number, nextAttemptAt: number | null, lastError: string): Promise<void>;
  outboxCounts(): Promise<OutboxCounts>;
}

/** The folder owners' notification settings. */
export interface NotificationSettingsStore {
  /** Sets (or, with null, removes) the owner's settings; false when the folder does not exist. */
  setFolderNotifications(folderId: string, settings: FolderNotifications | null): Promise<boolean>;
  getFolderNotifications(folderId: string): Promise<FolderNotifications | null>;
}

/** The byte and item counts that quotas, metrics and the admin stats read (one row read each). */
export interface ByteCounts {
  usage(): Promise<StoreUsage>;
  /** Sum of the registered sizes of the folder's files (its byte counter: one row read). */
  folderBytes(folderId: string): Promise<number>;
  /**
   * Sum of the registered sizes of every file of the instance, folders being deleted included
   * (the counter the instance quota is checked against: one row read).
   */
  totalBytes(): Promise<number>;
}

/** The operator's and the accounts' listings of folders, and the operator's take-down. */
export interface FolderListings {
  /** Live folders, newest first, created before `before` (for paging), at most `limit`. */
  listFolders(limit: number, before?: number): Promise<FolderSummary[]>;
  /** "My folders": a page of the live folders `accountId` made (src/store/account-folders.ts). */
  accountFolders(accountId: string, now: number, page: AccountFolderPage): Promise<AccountFolderSummary[]>;
  /** Makes a live folder due now (an operator's take-down); false when there is no such folder. */
  expireFolder(folderId: string, now: number): Promise<boolean>;
}

/** Every part above: what the SQL stores implement, one object behind the four properties. */
export type OpsStore = OutboxStore & NotificationSettingsStore & ByteCounts & FolderListings;
