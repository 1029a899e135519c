import type { Mode } from '../domain/modes.js';

/**
 * A folder as both metadata ports read it (metadata-store.ts, ops-store.ts): its own module, so that
 * neither port imports the other for it.
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
  /** The owner's settings; absent in a new record means none (null, or 'api'). */
  readonly settings: FolderSettings;
  /** Where the folder was made: the site's create-and-claim, or the API. */
  readonly createdBy: FolderCreator;
  /** The account that made it (signed in by session or API key); null: anonymous. */
  readonly accountId: string | null;
  /** File records the folder has (expired ones not yet swept included); 0 for a new record. */
  readonly fileCount: number;
  /** The operator's take-down (src/app/admin/take-down.ts): its content is no longer served. */
  readonly takeDown: TakeDown | null;
}

/** An operator took the folder down: why (a reason of domain/take-down.ts, and an optional note), when. */
export interface TakeDown {
  readonly at: number;
  readonly reason: string;
  readonly note: string | null;
}

export type FolderCreator = 'site' | 'api';

/** What a folder's owner chose. Opaque values (note, password) are stored as given. */
export interface FolderSettings {
  /**
   * The expiry the owner chose (epoch ms): every file of the folder expires then, the ones added
   * later too (domain/owner-settings.ts effectiveFileExpiry); null: each file its own.
   */
  readonly expiresAt: number | null;
  /** Default download limit of the folder's files; null: none. */
  readonly maxDownloads: number | null;
  /** The encrypted note to recipients. */
  readonly note: string | null;
  /** The password's key derivation parameters as JSON text (src/contract/site.ts PasswordParams). */
  readonly password: string | null;
}
