import type {
  ChunkSource,
  Fetch,
  FolderInfo,
  FolderKey,
  HttpOptions,
  OwnerCredentials,
  RetryInfo,
  SiteClient,
  SiteFile,
} from '../core.js';

/** What the page keeps between visits (web/src/adapters/storage.ts: localStorage, this origin only). */
export interface SiteStore {
  ownerSecretOf(folderId: string): string | null;
  saveOwnerSecret(folderId: string, secret: string | null): void;
  visitorToken(): string;
  pendingUploads(folderId: string): PendingUpload[];
  addPending(folderId: string, upload: PendingUpload): void;
  removePending(folderId: string, fileId: string): void;
  /** Request mode, visitor: what this browser sent to the folder (its receipt). */
  receipts(folderId: string): Receipt[];
  addReceipt(folderId: string, receipt: Receipt): void;
  /**
   * The tickets of this folder's downloads not yet delivered, unexpired, so that a
   * reloaded page or the link opened again goes on with them uncounted; null removes a file's. Absent
   * where nothing is kept between pages.
   */
  keptTickets?(folderId: string): StoredTicket[];
  keepTicket?(folderId: string, fileId: string, ticket: StoredTicket | null): void;
  /** Whether a running download (in any page of this origin, or its service worker) uses the ticket. */
  ticketInUse?(folderId: string, ticket: StoredTicket): Promise<boolean>;
}

/** A download's ticket as the page keeps it: a server credential, sent to the site's chunk endpoint only. */
export interface StoredTicket {
  readonly fileId: string;
  readonly ticket: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/** One file a request-mode visitor sent, as its receipt shows it (kept in this browser only). */
export interface Receipt {
  readonly fileId: string;
  readonly name: string;
  readonly size: number;
  /** When the upload completed (epoch ms). */
  readonly at: number;
}

export interface PendingUpload {
  fileId: string;
  name: string;
  size: number;
  lastModified: number;
  chunkSize: number;
  chunks: number;
  /** Request mode, visitor: the file's own secret (it cannot be recovered from the server). */
  fileSecret?: string;
}

export interface SessionOptions {
  /** The site API address (absolute: it is also handed to the service worker). */
  readonly siteApi: string;
  readonly store: SiteStore;
  /** Retry policy and transport of the JSON calls. */
  readonly http?: HttpOptions;
  /** Transport of chunk PUTs (the page: XMLHttpRequest, for progress within a chunk). */
  readonly transport?: Fetch;
  /** Chunk PUTs in flight (default 4). */
  readonly concurrency?: number;
  /** Makes an uploaded file's thumbnail (the page: web/src/adapters/thumbnail.ts); none without it. */
  readonly thumbnailer?: (file: Blob, name: string) => Promise<Uint8Array | null>;
  /**
   * Where a picked file's chunks are read and encrypted (the page: its crypto workers,
   * web/src/workers/crypto-pool.ts); default the Blob, encrypted on this thread.
   */
  readonly chunkSource?: (file: Blob) => ChunkSource;
}

/** A file picked in the page: a File (or any Blob with a name and time) and its path in a picked folder. */
export interface PickedFile {
  readonly file: Blob & { readonly lastModified: number };
  readonly path: string;
}

/** A listed file with what this browser can do with it. */
export interface OpenedFile {
  readonly file: SiteFile;
  /** Decrypted name, or null when this browser cannot read it. */
  readonly name: string | null;
  /** Decrypted type as the uploader gave it (a hint only: see web/src/state/preview.ts), or null. */
  readonly mimetype: string | null;
  /** The secret the file is encrypted under, or null when this browser does not have it. */
  readonly secret: string | null;
}

/** A retry the person is waiting for: what is being retried, why, and in how many seconds. */
export interface Waiting {
  readonly operation: string;
  /** HTTP status that caused the wait (429: the server asked to slow down), or null for a network error. */
  readonly status: number | null;
  readonly seconds: number;
}

/**
 * What the uploader, the owner's actions and the reader share of an opened folder (FolderSession
 * implements it): the site client, the folder's info and keys, this browser's owner credentials.
 */
export interface SessionCore {
  readonly options: SessionOptions;
  readonly client: SiteClient;
  info: FolderInfo;
  /** The secret everything is encrypted under: the link's, or with a password derived from both. */
  readonly secret: string;
  readonly key: FolderKey;
  owner: OwnerCredentials | null;
  ownerSecret: string | null;
  readonly folderId: string;
  /** Fetches the info again and redraws ('info'). */
  refresh(): Promise<void>;
  /** Tells the views a call waits to be retried ('waiting'). */
  waiting(info: RetryInfo): void;
  /** The info changed by this page (a claim, the owner's settings): redraw ('info'). */
  redraw(): void;
}
