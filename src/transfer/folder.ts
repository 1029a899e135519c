import {
  CryptoFormatError,
  checkSke,
  decryptText,
  type FolderKey,
  IntegrityError,
  importSecret,
} from '../crypto/index.js';
import { InputError, WrongSecretError } from './errors.js';
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
}

/** Opens a share link: checks its secret against the folder's `ske`, lists and decrypts the file names. */
export async function listFolder(link: string, options: SiteOptions = {}): Promise<FolderListing> {
  const parsed = parseShareLink(link);
  let key: FolderKey;
  try {
    key = await importSecret(parsed.secret);
  } catch (error) {
    if (error instanceof CryptoFormatError)
      throw new InputError(`the link's secret is malformed (${error.message}): copy the whole link`);
    throw error;
  }
  const siteApi = siteApiFor(parsed.folderUrl, options.site);
  const http: HttpOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };
  const client = new SiteClient(siteApi, parsed.folderId, { uploadAuth: options.uploadAuth }, http);
  const info = await client.info();
  if (info.ske !== null && !(await checkSke(key, info.ske))) throw new WrongSecretError();
  const listed = await client.listAll();
  const files = await Promise.all(
    listed.map(async (f): Promise<ListedFile> => {
      const sealed = f.sealedKey !== null;
      return {
        fileId: f.fileId,
        name: sealed ? f.fileId : await decryptName(key, f.filename, info.ske === null),
        mimetype: f.mimetype && !sealed ? await decryptText(key, f.mimetype).catch(() => null) : null,
        size: f.filesize,
        chunkSize: f.chunkSize,
        chunks: f.chunks,
        complete: f.complete,
        sealed,
      };
    }),
  );
  return { folderId: info.folderId, title: info.title, mode: info.mode, files, siteApi, key, client };
}

async function decryptName(key: FolderKey, value: string, unchecked: boolean): Promise<string> {
  try {
    return await decryptText(key, value);
  } catch (error) {
    // Without an ske to check against, the first name is the key check.
    if (unchecked && (error instanceof IntegrityError || error instanceof CryptoFormatError))
      throw new WrongSecretError();
    throw error;
  }
}
