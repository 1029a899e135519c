import type { HttpOptions, Mode } from '../core.js';
import {
  createSke,
  deriveOwnerCredentials,
  encryptText,
  generateSecret,
  importSecret,
  newPasswordParams,
  passwordSecret,
  SiteClient,
  shareLink,
} from '../core.js';
import type { SiteStore } from './types.js';

/** What the home page asks for a new folder. */
export interface NewFolder {
  readonly mode: Mode;
  readonly title?: string;
  readonly expiresInHours?: number;
  readonly maxDownloads?: number;
  readonly note?: string;
  /** send and share only (request folders are sealed to the owner instead). */
  readonly password?: string;
}

export interface CreatedFolder {
  readonly folderId: string;
  /** The folder's page with the link secret after #: what the page goes to and shares. */
  readonly link: string;
  /** With a password: the effective secret, handed to the folder page in memory (never stored). */
  readonly unlocked?: string;
}

/**
 * Creates a folder owned by this browser in one step (`POST {api}/folders`, DESIGN-12): the page
 * makes the folder secret and an owner secret, derives the owner's token and key pair from the
 * latter, and publishes the key check (`ske`) and, for request mode, the public key visitors seal
 * their files to. The owner secret is kept in this browser (localStorage) as the answer names the
 * folder; the folder secret only ever goes into the link.
 */
export async function createFolder(
  siteApi: string,
  store: SiteStore,
  wanted: NewFolder,
  http: HttpOptions = {},
): Promise<CreatedFolder> {
  const linkSecret = generateSecret();
  const ownerSecret = generateSecret();
  const owner = await deriveOwnerCredentials(ownerSecret);
  const password = wanted.mode === 'request' ? undefined : wanted.password || undefined;
  const params = password ? newPasswordParams() : undefined;
  const secret = params && password ? await passwordSecret(linkSecret, password, params) : linkSecret;
  const key = await importSecret(secret);
  const created = await SiteClient.createFolder(
    siteApi,
    owner.authToken,
    {
      mode: wanted.mode,
      ske: await createSke(key),
      ...(wanted.title ? { title: wanted.title } : {}),
      ...(wanted.mode === 'request' ? { ownerPublicKey: owner.publicKey } : {}),
      ...(wanted.expiresInHours ? { expiresInHours: wanted.expiresInHours } : {}),
      ...(wanted.maxDownloads ? { maxDownloads: wanted.maxDownloads } : {}),
      ...(wanted.note ? { note: await encryptText(key, wanted.note) } : {}),
      ...(params ? { password: params } : {}),
    },
    http,
  );
  store.saveOwnerSecret(created.folderId, ownerSecret);
  return {
    folderId: created.folderId,
    link: shareLink(created.folderUrl, linkSecret),
    ...(params ? { unlocked: secret } : {}),
  };
}
