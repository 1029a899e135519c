import type { FolderRecord, TakeDown } from './folder-record.js';

/**
 * The admin console's part of the metadata port (`MetadataStore.admin`): every live folder with its
 * figures, searched, sorted and paged in the store; one folder; the take-down; counts by state. Both
 * SQL stores implement it over the same statements (sql/admin.ts), checked by one suite
 * (test/store/admin-store.test.ts).
 */
export type AdminSort = 'created' | 'size' | 'expiry' | 'downloads';

export interface AdminFolderQuery {
  /** A folder id (exact), or text the title contains (case-insensitive for ASCII letters). */
  readonly search?: string | undefined;
  readonly sort: AdminSort;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

export interface AdminFolder {
  readonly folder: FolderRecord;
  /** Registered (plaintext) bytes of its files. */
  readonly bytes: number;
  /** Counted downloads of all its files. */
  readonly downloads: number;
  /** The e-mail address of the account that made it (folder.accountId), when it has one. */
  readonly creatorEmail: string | null;
}

export interface AdminFolderPage {
  readonly folders: AdminFolder[];
  /** How many folders match the search, over all pages. */
  readonly total: number;
}

/** Live folders by what the console shows (`now` decides which are past their time). */
export interface AdminCounts {
  readonly folders: number;
  readonly takenDown: number;
  readonly expired: number;
  readonly emptyOwnerless: number;
  /** Accounts that ever signed in (sign-in). */
  readonly accounts: number;
}

export interface AdminStore {
  listFolders(query: AdminFolderQuery): Promise<AdminFolderPage>;
  /** One live folder (not being deleted) with its figures; null when there is none. */
  getFolder(folderId: string): Promise<AdminFolder | null>;
  /** Records the take-down on a live folder; false when there is none. A second take-down replaces the first. */
  takeDown(folderId: string, takeDown: TakeDown): Promise<boolean>;
  counts(now: number): Promise<AdminCounts>;
}
