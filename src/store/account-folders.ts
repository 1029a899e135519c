import type { FolderRecord } from './folder-record.js';

/**
 * "My folders": the live folders an account made (`folders.account_id`), a page at a time,
 * as both SQL stores read them. One query per page, bounded by its limit; the figures come from the
 * folder's own counters (file_count, byte_count) and indexed look-ups of its files and activity.
 */
export type AccountFolderSort = 'newest' | 'expiry';

/** Where a page starts: after the folder with this sort key (created_at or delete_after) and id. */
export interface AccountFolderCursor {
  readonly key: number;
  readonly id: string;
}

export interface AccountFolderPage {
  readonly sort: AccountFolderSort;
  readonly limit: number;
  readonly after?: AccountFolderCursor | undefined;
}

export interface AccountFolderSummary extends FolderRecord {
  /** Registered (plaintext) bytes of its files. */
  readonly bytes: number;
  /** Counted downloads of its files, summed. */
  readonly downloads: number;
  /** Files registered and not yet complete. */
  readonly incompleteFiles: number;
  /** The newest line of its activity list, if any. */
  readonly lastActivity: { readonly at: number; readonly kind: 'upload' | 'download' | 'delete' } | null;
}
