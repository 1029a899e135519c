import type { FromSchema } from 'json-schema-to-ts';
import type { Mode } from '../domain/modes.js';
import type { PasswordParams } from '../domain/password-params.js';
import type { siteAnswerSchemas } from './site-answers.js';
import type { UploadStatusResponse } from './types.js';

/**
 * The browser site's own JSON endpoints (src/http/routes/site.ts): not part of the v2 contract, but
 * a contract between the server, the site (web/) and the client library all the same. Types only
 * (no runtime code), so that the browser bundle can import them: the answers' types are their
 * schemas' (./site-answers.ts, which documents each field), the requests' are here.
 */
export type { Mode };

type Answer<K extends keyof typeof siteAnswerSchemas> = FromSchema<(typeof siteAnswerSchemas)[K]>;

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

/** What the folder page needs to render, for the calling browser (its fields: ./site-answers.ts). */
export type FolderInfo = Answer<'folderInfo'>;

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

export type SiteCreateFolderResponse = Answer<'siteCreateFolder'>;

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

/**
 * `POST <site>/api/site/folders/<id>/sending` (the uploading browser, 204): it still sends these of
 * its files (`sending` true, every SENDING_BEAT_MS), or stopped them (false).
 */
export interface SiteSending {
  readonly fileIds: readonly string[];
  readonly sending: boolean;
}

/** `PATCH <site>/api/site/folders/<id>/files/<fileId>` (owner): the file's own limit; null: the folder's. */
export interface SiteFileUpdate {
  readonly maxDownloads: number | null;
}

export type DownloadTicket = Answer<'downloadTicket'>;

export type SiteActivity = Answer<'activity'>;
export type ActivityEvent = SiteActivity['events'][number];

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

export type SiteRegisteredFile = Answer<'registeredFile'>;

export type SiteRegisterResponse = Answer<'register'>;

export type SiteFile = Answer<'siteFile'>;

export type SiteFileList = Answer<'fileList'>;

/** Upload progress of one file: the same shape as the v2 upload-status answer. */
export type FileProgress = UploadStatusResponse;

export type SiteNotifications = Answer<'notifications'>;

/** A PUT of notification settings: the properties given change, the others stay. */
export type SiteNotificationsUpdate = Partial<
  Pick<SiteNotifications, 'email' | 'webhookUrl' | 'onDownload' | 'onUpload'>
> & {
  /**
   * The language of the page that sets the address (a BCP 47 tag such as `de` or `pt-BR`): the
   * confirmation mail and the owner's later notification mails are written in it. Stored with the
   * settings when the site speaks it (else the mails are in English); without it, the stored one stays.
   */
  readonly language?: string;
};
