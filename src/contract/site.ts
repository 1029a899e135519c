import type { Action, Mode, Role } from '../domain/modes.js';
import type { PasswordParams } from '../domain/password-params.js';
import type { UploadStatusResponse, UploadUrls } from './types.js';

/**
 * The browser site's own JSON endpoints (src/http/routes/site.ts): not part of the v2 contract, but
 * a contract between the server, the site (web/) and the client library all the same. The shapes
 * are stated once here, as types only (no runtime code), so that the browser bundle can import them.
 */
export type { Action, Mode, Role, UploadUrls };

/**
 * The settings the server writes into every page of the site (a meta tag: the CSP allows no inline
 * script), from its configuration; the page has no defaults of its own.
 */
export interface SiteSettings {
  /** Path of the site, with a trailing slash ("/" at the root). */
  readonly base: string;
  /** Path of the site's JSON endpoints. */
  readonly api: string;
  readonly baseUrl: string;
  readonly docsUrl: string;
  /** The home page's expiry choice: the operator's maximum and default (MAX_EXPIRES_HOURS, FREE_DOWNLOAD_HOURS). */
  readonly maxExpiresInHours: number;
  readonly defaultExpiresInHours: number;
  /** The instance's name (SITE_NAME), in the header and the window's title. */
  readonly siteName: string;
  /** The operator's legal pages (IMPRINT_URL, PRIVACY_URL), linked from the footer when set. */
  readonly imprintUrl: string | null;
  readonly privacyUrl: string | null;
  /** Whether the server sends e-mail (SMTP_URL is set): without it the page offers no address field. */
  readonly mail: boolean;
  /**
   * The release this instance runs and the SHA-256 of its site manifest (hex), shown in the footer
   * for a person to compare with the published release (docs/security.md); null on an unbuilt site.
   */
  readonly release: { readonly version: string; readonly manifest: string } | null;
}

/** What the folder page needs to render, for the calling browser. */
export interface FolderInfo {
  readonly folderId: string;
  readonly mode: Mode;
  readonly title: string;
  readonly createdAt: number;
  /** Empty folders only: when the folder is deleted unless someone uploads (epoch ms); else null. */
  readonly uploadDeadline: number | null;
  /** Whether someone has claimed the folder (by uploading first). */
  readonly owned: boolean;
  /** Whether the caller presented the owner's credential. */
  readonly isOwner: boolean;
  readonly role: Role;
  /** What the server will let this caller do. */
  readonly rights: Record<Action, boolean>;
  /** Key check: lets the page tell a wrong key before downloading anything. Null until set. */
  readonly ske: string | null;
  /** Request mode: the public key visitors seal their file secrets to. */
  readonly ownerPublicKey: string | null;
  /** Plaintext chunk size new uploads get (bytes). */
  readonly chunkSize: number;
  /**
   * When the folder's files stop being available (epoch ms): the owner's choice, else the latest
   * expiry of its files; null for a folder without files (it has `uploadDeadline`) and no choice.
   */
  readonly expiresAt: number | null;
  /** The operator's maximum for a chosen expiry, in hours from now (MAX_EXPIRES_HOURS). */
  readonly maxExpiresInHours: number;
  /** The folder's default download limit per file; null: no limit. */
  readonly maxDownloads: number | null;
  /** The note to recipients, encrypted by the client with the folder key like the names; opaque. */
  readonly note: string | null;
  /** The password's key derivation parameters when the folder has one (src/crypto/password.ts). */
  readonly password: PasswordParams | null;
  /** Live files (complete or not) and their plaintext bytes. */
  readonly fileCount: number;
  readonly totalSize: number;
  /** Where the folder was made: on the site (created and claimed in one step) or through the API. */
  readonly createdBy: FolderCreator;
}

export type FolderCreator = 'site' | 'api';

/**
 * How a folder's password is stretched (src/crypto/password.ts): stored by the server as given,
 * checked against this shape only (N a power of two 2^14..2^20, r 1..16, p 1..4, salt 16 bytes
 * base64url). The server never sees the password nor anything derived from it.
 */
export type { PasswordParams };

/**
 * `POST <site>/api/site/folders` with `X-Owner-Token`: creates a folder already owned by the caller
 * (create and claim in one step). `ownerPublicKey` is required in request mode, where `password` is
 * not allowed. `expiresInHours` (1..maxExpiresInHours) fixes the files' expiry from now.
 */
export interface SiteCreateFolderRequest {
  readonly mode: Mode;
  readonly title?: string;
  readonly ske: string;
  readonly ownerPublicKey?: string;
  readonly expiresInHours?: number;
  readonly maxDownloads?: number;
  readonly note?: string;
  readonly password?: PasswordParams;
}

/** 201 answer of the create: the page address has no fragment (the client adds its secret). */
export interface SiteCreateFolderResponse {
  readonly folderId: string;
  readonly folderUrl: string;
  /** When the folder is deleted unless a file is uploaded (epoch ms). */
  readonly uploadDeadline: number;
}

/**
 * `PATCH <site>/api/site/folders/<id>` (owner): the properties given change, the others stay.
 * `expiresAt` (epoch ms, future, at most maxExpiresInHours from now) becomes every file's expiry;
 * `password` only while the folder has none and no file is complete; `maxDownloads` 1..1,000,000.
 */
export interface SiteFolderUpdate {
  readonly expiresAt?: number;
  readonly maxDownloads?: number | null;
  readonly note?: string | null;
  readonly password?: PasswordParams;
}

/** `PATCH <site>/api/site/folders/<id>/files/<fileId>` (owner): the file's own limit; null: the folder's. */
export interface SiteFileUpdate {
  readonly maxDownloads: number | null;
}

/**
 * `POST …/files/<fileId>/downloads`: one download started. The ticket opens the file's chunks for
 * 24 hours (`X-Download-Ticket` or `?ticket=`); `downloads` is the count after this one, and
 * `maxDownloads` the file's effective limit (its own, else the folder's; null: none).
 */
export interface DownloadTicket {
  readonly ticket: string;
  readonly expiresAt: number;
  readonly downloads: number;
  readonly maxDownloads: number | null;
}

export type ActivityKind = 'upload' | 'download' | 'delete';

export interface ActivityEvent {
  readonly at: number;
  readonly kind: ActivityKind;
  readonly fileId: string;
  /** The client address, only when the operator turned that on (ACTIVITY_IPS); else null. */
  readonly ip: string | null;
  /**
   * On a deletion: the file's name as it was stored (encrypted by the uploading browser; the owner's
   * page decrypts it with the folder key) and, in request mode, the file's sealed key. Null on other
   * lines and on deletions recorded before the server kept them.
   */
  readonly filename: string | null;
  readonly sealedKey: string | null;
}

/** `GET <site>/api/site/folders/<id>/activity` (owner): newest first, at most 100. */
export interface SiteActivity {
  readonly events: ActivityEvent[];
}

/** One file the browser wants to upload. */
export interface SiteFileEntry {
  readonly filename: string;
  readonly filesize: number;
  readonly mimetype?: string | null;
  readonly sealedKey?: string | null;
}

export interface SiteRegisterRequest {
  readonly files: readonly SiteFileEntry[];
  /** Key check of the folder secret; required by the upload that claims a folder without one. */
  readonly ske?: string;
  /** Request mode: the owner's public key, published by the claiming upload. */
  readonly ownerPublicKey?: string;
}

export interface SiteRegisteredFile {
  readonly fileId: string;
  readonly chunkSize: number;
  readonly chunks: number;
  readonly uploadUrls: UploadUrls;
}

export interface SiteRegisterResponse {
  readonly role: Role;
  /** True when this request made the caller the owner. */
  readonly claimed: boolean;
  readonly files: SiteRegisteredFile[];
}

/** A live file of the folder, as listed to a caller allowed to list. */
export interface SiteFile {
  readonly fileId: string;
  /** Encrypted name, as the uploader sent it. */
  readonly filename: string;
  readonly mimetype: string | null;
  readonly filesize: number;
  readonly chunkSize: number;
  readonly chunks: number;
  readonly complete: boolean;
  /**
   * Chunks stored so far (`chunks` once complete): the progress of a file still arriving, which a
   * visitor can download at once (the chunks not stored yet are waited for).
   */
  readonly storedChunks: number;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly sealedKey: string | null;
  /** Whether the caller uploaded it (so may resume it). */
  readonly mine: boolean;
  /** Downloads counted so far (the owner's own are not counted). */
  readonly downloads: number;
  /** The file's own limit; null: the folder's applies (see downloadsLeft). */
  readonly maxDownloads: number | null;
  /** Downloads left under the effective limit (the file's, else the folder's); null: no limit. */
  readonly downloadsLeft: number | null;
}

/**
 * One page of a folder's files (`GET .../files?cursor=&limit=`), in upload order. `nextCursor` is
 * null on the last page; otherwise pass it as `cursor` for the next one.
 */
export interface SiteFileList {
  readonly files: SiteFile[];
  readonly nextCursor: string | null;
}

/** Upload progress of one file: the same shape as the v2 upload-status answer. */
export type FileProgress = UploadStatusResponse;

/** The owner's notification settings of a folder (GET/PUT …/folders/<id>/notifications). */
export interface SiteNotifications {
  readonly email: string | null;
  readonly webhookUrl: string | null;
  /** Standard Webhooks secret (`whsec_…`) the folder's webhook calls are signed with; null without a URL. */
  readonly webhookSecret: string | null;
  readonly onDownload: boolean;
  readonly onUpload: boolean;
  /**
   * Whether `email` may be mailed: `pending` until the address follows the link in the
   * one confirmation mail it is sent, `refused` when it asked for no mail from this instance; null
   * without an address. Notifications go only to a `confirmed` address.
   */
  readonly emailStatus: 'confirmed' | 'pending' | 'refused' | null;
}

/** A PUT of notification settings: the properties given change, the others stay. */
export type SiteNotificationsUpdate = Partial<
  Pick<SiteNotifications, 'email' | 'webhookUrl' | 'onDownload' | 'onUpload'>
> & {
  /**
   * The language of the page that sets the address (a BCP 47 tag such as `de` or `pt-BR`): the
   * confirmation mail is written in it. Not stored; without it the mail is in English.
   */
  readonly language?: string;
};
