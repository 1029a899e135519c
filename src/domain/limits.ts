import { MAX_CHUNKS_PER_FILE } from './chunk-plan.js';

/**
 * The numeric limits a request, a folder or an account is held to: the v2 contract's (spec section
 * 8) and the site's, the account's and the console's. Every schema, rule and document reads them
 * from here, so a limit is stated exactly once; the chunk plan's own (MAX_CHUNKS_PER_FILE) is in
 * ./chunk-plan.ts, whose arithmetic it bounds. The configurable ones are variables (src/config).
 */
export const MAX_TITLE_LENGTH = 200;
export const MAX_FILES_PER_REQUEST = 10;
/** 1023 GiB. The spec labels it "999 GiB"; the number is what binds (see shared/design.md). */
export const MAX_FILE_SIZE = 1_098_437_885_952;
/** An empty, ownerless folder is deleted once this many hours pass without an upload. */
export const UPLOAD_REQUIRED_WITHIN_HOURS = 24;
export const HOUR_MS = 3_600_000;

/**
 * The most chunk URLs one request signs: what the largest v2 create needs (ten files of the largest
 * size, 10,000 chunks each). Every other registration (the browser site's) is held to the same
 * bound, so no request buys more signing work than a create the spec allows.
 */
export const MAX_CHUNKS_PER_REQUEST = MAX_FILES_PER_REQUEST * MAX_CHUNKS_PER_FILE;

/**
 * Most files one site registration may carry. Here, beside the chunk cap, because the page and the
 * transfer core batch by both (src/transfer/plan.ts: registrationBatches) and cannot import the
 * contract's schemas (they pull in node:crypto through the id rules).
 */
export const MAX_SITE_FILES_PER_REQUEST = 100;

/**
 * Most bytes of a file's encrypted thumbnail (one RFC 8188 record of a WebP/JPEG of at most 320 px):
 * the page makes it smaller until it fits; the server refuses more with 413.
 */
export const MAX_THUMBNAIL_BYTES = 64 * 1024;

/** Most files one page of the site's folder listing has, and how many it has when the caller does not say. */
export const MAX_LIST_PAGE = 1000;

/** How many files and chunks one folder may hold (configurable: MAX_FILES_PER_FOLDER, MAX_CHUNKS_PER_FOLDER). */
export interface FolderLimits {
  readonly maxFiles: number;
  readonly maxChunks: number;
}

export type FolderLimitRefusal = 'too-many-files' | 'too-many-chunks';

/**
 * The storage quotas (QUOTA_FOLDER_MIB, QUOTA_TOTAL_MIB) in registered plaintext bytes; null: none.
 * The metadata store checks them in the transaction that inserts the files (createFolder, addFiles),
 * against byte counters it keeps with every insert and delete, so racing registrations on any
 * number of nodes cannot pass a quota together that each would pass alone.
 */
export interface StorageQuota {
  readonly folderBytes: number | null;
  readonly instanceBytes: number | null;
  /**
   * The default for the folders of one account together (QUOTA_ACCOUNT_MIB); an account's
   * own quota, set by an admin, replaces it. Folders made without an account are not counted.
   */
  readonly accountBytes: number | null;
}

export const NO_QUOTA: StorageQuota = { folderBytes: null, instanceBytes: null, accountBytes: null };

export const QUOTA_REFUSALS = ['folder-quota', 'instance-quota', 'account-quota'] as const;
export type QuotaRefusal = (typeof QUOTA_REFUSALS)[number];
/** Whether a store's answer is a quota's refusal (one list, so that no caller misses a quota). */
export const isQuotaRefusal = (result: string): result is QuotaRefusal =>
  (QUOTA_REFUSALS as readonly string[]).includes(result);

/** Whether adding `adding` bytes to a folder holding `held` breaks the folder quota. */
export const overFolderQuota = (held: number, adding: number, quota: StorageQuota): boolean =>
  quota.folderBytes !== null && held + adding > quota.folderBytes;

/** Why adding `files` files of `chunks` chunks in all to a folder holding `held` breaks its limits, or null. */
export function folderLimitRefusal(
  held: { readonly fileCount: number; readonly chunkCount: number },
  adding: { readonly files: number; readonly chunks: number },
  limits: FolderLimits,
): FolderLimitRefusal | null {
  if (held.fileCount + adding.files > limits.maxFiles) return 'too-many-files';
  if (held.chunkCount + adding.chunks > limits.maxChunks) return 'too-many-chunks';
  return null;
}

/** Most characters of a folder's note to recipients (its ciphertext, as the client sends it). */
export const MAX_NOTE_LENGTH = 4000;
/**
 * Most characters (UTF-16 code units, as a textarea's maxlength counts) of a note's plaintext: 800
 * units are at most 2,400 UTF-8 bytes, whose ciphertext in base64url stays under MAX_NOTE_LENGTH.
 * The page and the CLI refuse longer notes before anything is sent.
 */
export const MAX_NOTE_CHARS = 800;

/** The largest download limit an owner may set on a folder or a file. */
export const MAX_DOWNLOAD_LIMIT = 1_000_000;

/** How long a download ticket opens a file's chunks: a resumed or seeking download reuses it. */
export const DOWNLOAD_TICKET_HOURS = 24;
/**
 * Bytes a ticket's download may be sent beyond the file itself (src/app/site/downloads.ts
 * downloadBudget): what a broken connection had in socket buffers, which a retry fetches again. A
 * response that breaks gives back what it never sent; this covers only what was sent and lost.
 */
export const DOWNLOAD_RETRY_ALLOWANCE = 1024 * 1024;

/** A person may have this many live API keys: enough for every machine and script, not a store filler. */
export const MAX_KEYS_PER_ACCOUNT = 50;

/** Most folders one page of the admin console's list holds. */
export const MAX_ADMIN_PAGE = 200;
/** Most folders one page of "My folders" holds, and how many it holds when the caller does not say. */
export const MAX_ACCOUNT_FOLDERS_PAGE = 100;
export const DEFAULT_ACCOUNT_FOLDERS_PAGE = 50;

/** Most characters of a value the browser encrypted or sealed, which the server stores as given. */
export const MAX_OPAQUE_LENGTH = 4096;
/** The longest address SMTP can carry (RFC 5321: a 256-octet path less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
/** The longest owner webhook URL. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The longest a presigned URL may stay valid: S3's SigV4 ceiling, which the local backend keeps too. */
export const MAX_URL_VALIDITY_SECONDS = 7 * 24 * 3600;

/** Activity: how many events a folder keeps, and how many one answer lists (newest first). */
export const ACTIVITY_KEPT = 200;
export const ACTIVITY_LISTED = 100;
