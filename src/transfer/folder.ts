import type { FolderInfo } from '../contract/site.js';
import {
  CryptoFormatError,
  checkPasswordParams,
  checkSke,
  decryptText,
  deriveOwnerCredentials,
  type FolderKey,
  IntegrityError,
  importSecret,
  type OwnerCredentials,
  openSealedSecret,
  passwordSecret,
} from '../crypto/index.js';
import { shownName } from '../domain/shown-names.js';
import { InputError, PasswordRequiredError, WrongSecretError } from './errors.js';
import type { HttpOptions } from './retry.js';
import { SiteClient } from './site-client.js';
import { parseShareLink } from './state.js';
import { siteApiFor } from './urls.js';

/**
 * Reading a folder through the browser site's own endpoints (`<site>/api/site/...`, see
 * src/http/routes/site.ts): the v2 API has no listing or download operation, the site does. The
 * secret never leaves this process: the server gets the folder id only; names are decrypted here,
 * and the key is first checked against the folder's `ske` so a wrong link fails before any download.
 * Isomorphic (fetch and WebCrypto only).
 */
export interface SiteOptions extends HttpOptions {
  /**
   * Address of the browser site (WEB_URL) when it differs from the link's own origin and path;
   * by default the part of the link before `/f/<folderId>`.
   */
  readonly site?: string;
  /**
   * The folder's `uploadAuth`, for a folder this client created through the direct upload flow: it
   * gives the owner's rights on the site (`X-Upload-Auth`), which a `request` folder needs to be
   * listed and downloaded at all.
   */
  readonly uploadAuth?: string;
  /**
   * The owner secret of a folder made with create-and-claim (the CLI's `request`, the page's owner
   * key; an owner link `…#<secret>&owner=<owner secret>` carries it too): the owner's rights
   * (`X-Owner-Token`) and, in request mode, the private key that opens visitors' sealed files.
   */
  readonly ownerSecret?: string;
  /**
   * The folder's password (docs/encryption.md section 9), or a function that asks for it: called
   * only when the folder has one. Without it such a folder fails with PasswordRequiredError.
   */
  readonly password?: string | (() => string | Promise<string>);
}

export interface FolderListing {
  readonly folderId: string;
  readonly title: string | null;
  readonly mode: string;
  readonly files: readonly ListedFile[];
  /** The site API address used, e.g. http://127.0.0.1:8080/api/site. */
  readonly siteApi: string;
  readonly key: FolderKey;
  /** The site client of this folder, with the caller's credentials (none for a plain visitor). */
  readonly client: SiteClient;
  /** What the server said about the folder (expiry, limits, counts, whether the caller owns it). */
  readonly info: FolderInfo;
  /** The owner's note to recipients, decrypted; null without one (or when it does not decrypt). */
  readonly note: string | null;
}

export interface ListedFile {
  readonly fileId: string;
  /** Decrypted name. */
  readonly name: string;
  /** Decrypted media type, when one was given. */
  readonly mimetype: string | null;
  readonly size: number;
  readonly chunkSize: number;
  readonly chunks: number;
  readonly complete: boolean;
  /** Request-mode uploads are sealed to the owner's key: the folder secret alone cannot read them. */
  readonly sealed: boolean;
  /** The key of this file's chunks: the folder's, a sealed file's own (owner only), or null (cannot open). */
  readonly key: FolderKey | null;
  /** Downloads counted so far, the file's own limit (null: the folder's) and what is left (null: no limit). */
  readonly downloads: number;
  readonly maxDownloads: number | null;
  readonly downloadsLeft: number | null;
}

/**
 * Opens a share link: checks its secret (and the folder's password, when it has one) against the
 * folder's `ske`, lists the files and decrypts their names (a request folder's sealed files too,
 * given the owner secret).
 */
export async function listFolder(link: string, options: SiteOptions = {}): Promise<FolderListing> {
  const parsed = parseShareLink(link);
  let linkKey: FolderKey;
  try {
    linkKey = await importSecret(parsed.secret);
  } catch (error) {
    if (error instanceof CryptoFormatError)
      throw new InputError(`the link's secret is malformed (${error.message}): copy the whole link`);
    throw error;
  }
  const ownerSecret = options.ownerSecret ?? parsed.ownerSecret ?? undefined;
  let owner: OwnerCredentials | null = null;
  if (ownerSecret) {
    try {
      owner = await deriveOwnerCredentials(ownerSecret);
    } catch (error) {
      if (error instanceof CryptoFormatError)
        throw new InputError(`the owner secret is malformed (${error.message}): copy the whole owner link`);
      throw error;
    }
  }
  const siteApi = siteApiFor(parsed.folderUrl, options.site);
  const http: HttpOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };
  const client = new SiteClient(
    siteApi,
    parsed.folderId,
    { uploadAuth: options.uploadAuth, ownerToken: owner?.authToken },
    http,
  );
  const info = await client.info();
  const key = info.password ? await passwordKey(parsed.secret, info, options) : linkKey;
  if (info.ske !== null && !(await checkSke(key, info.ske)))
    throw info.password
      ? new WrongSecretError('wrong password (or the link is incomplete): the key check failed')
      : new WrongSecretError();
  const listed = await client.listAll();
  const files = await Promise.all(
    listed.map(async (f): Promise<ListedFile> => {
      const sealed = f.sealedKey !== null;
      const fileKey = !sealed ? key : owner && f.sealedKey ? await openSealed(owner, f.sealedKey) : null;
      return {
        fileId: f.fileId,
        name: fileKey ? await decryptName(fileKey, f.filename, !sealed && info.ske === null) : f.fileId,
        mimetype: f.mimetype && fileKey ? await decryptText(fileKey, f.mimetype).catch(() => null) : null,
        size: f.filesize,
        chunkSize: f.chunkSize,
        chunks: f.chunks,
        complete: f.complete,
        sealed,
        key: fileKey,
        downloads: f.downloads ?? 0,
        maxDownloads: f.maxDownloads ?? null,
        downloadsLeft: f.downloadsLeft ?? null,
      };
    }),
  );
  // As on the page: a note that does not decrypt is not shown, and opening the folder goes on.
  const note = info.note ? await decryptText(key, info.note).catch(() => null) : null;
  return { folderId: info.folderId, title: info.title, mode: info.mode, files, siteApi, key, client, info, note };
}

/** A sealed file's own key, or null when this owner key does not open it (sealed to another, or altered). */
async function openSealed(owner: OwnerCredentials, sealedKey: string): Promise<FolderKey | null> {
  try {
    return await importSecret(await openSealedSecret(owner.privateKey, sealedKey));
  } catch (error) {
    if (error instanceof IntegrityError || error instanceof CryptoFormatError) return null;
    throw error;
  }
}

/** The key of a folder with a password: the password asked for (only now) and stretched with the folder's parameters. */
async function passwordKey(linkSecret: string, info: FolderInfo, options: SiteOptions): Promise<FolderKey> {
  let params: ReturnType<typeof checkPasswordParams>;
  try {
    params = checkPasswordParams(info.password);
  } catch (error) {
    throw new WrongSecretError(`the folder's password parameters are unusable: ${(error as Error).message}`);
  }
  const password = typeof options.password === 'function' ? await options.password() : options.password;
  if (!password) throw new PasswordRequiredError();
  return importSecret(await passwordSecret(linkSecret, password, params));
}

/** A file's name, decrypted and shown, not applied (its bidirectional controls as visible marks). */
async function decryptName(key: FolderKey, value: string, unchecked: boolean): Promise<string> {
  try {
    return shownName(await decryptText(key, value));
  } catch (error) {
    // Without an ske to check against, the first name is the key check.
    if (unchecked && (error instanceof IntegrityError || error instanceof CryptoFormatError))
      throw new WrongSecretError();
    throw error;
  }
}
