import type { Action, Mode, Role } from '../domain/modes.js';
import type { UploadStatusResponse, UploadUrls } from './types.js';

/**
 * The browser site's own JSON endpoints (src/http/routes/site.ts): not part of the v2 contract, but
 * a contract between the server, the site (web/) and the client library all the same. The shapes
 * are stated once here, as types only (no runtime code), so that the browser bundle can import them.
 */
export type { Action, Mode, Role, UploadUrls };

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
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly sealedKey: string | null;
  /** Whether the caller uploaded it (so may resume it). */
  readonly mine: boolean;
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
}

/** A PUT of notification settings: the properties given change, the others stay. */
export type SiteNotificationsUpdate = Partial<
  Pick<SiteNotifications, 'email' | 'webhookUrl' | 'onDownload' | 'onUpload'>
>;
