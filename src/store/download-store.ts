import type { Outbox } from './folder-store.js';
import type { ActivityRecord } from './owner-store.js';

/**
 * The downloads of a file: counted against its limit when a ticket is given, and the bytes each
 * ticket may be sent (src/app/site/downloads.ts). A part of the metadata port (metadata-store.ts).
 */

/** What counting a download answers: the count after it, or why nothing was counted. */
export type CountDownloadResult = { readonly downloads: number } | 'limit-reached' | 'absent';

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

/** A download a ticket is bound to: the bytes it may be sent, until when. */
export interface NewDownload {
  readonly id: string;
  readonly budget: number;
  readonly expiresAt: number;
  /** Now: the file's downloads whose tickets expired are forgotten. */
  readonly now: number;
}

export interface DownloadCounts {
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
}
