import {
  CryptoFormatError,
  checkSke,
  deriveOwnerCredentials,
  type ErrorCode,
  type FolderInfo,
  type FolderKey,
  type Fragment,
  type HttpOptions,
  importSecret,
  type OwnerCredentials,
  passwordSecret,
  SiteClient,
  type TakeDownInfo,
  WebfolderError,
} from '../core.js';
import { FolderSession } from './folder.js';
import type { SessionOptions } from './types.js';

/**
 * Opening and unlocking a folder for this browser: the link's fragment (folder secret, owner
 * secret), the key checked against the folder's `ske`, a password derived into the effective
 * secret, and this browser's owner credentials. What it opens is a FolderSession (./folder.ts).
 */

export type OpenFailure =
  | {
      readonly kind: 'not-found' | 'expired' | 'no-key' | 'bad-key' | 'wrong-key' | 'failed';
      readonly error?: unknown;
    }
  /** The operator took the folder down: why, for the page to say in the visitor's language. */
  | { readonly kind: 'taken-down'; readonly notice: TakeDownInfo };

/**
 * A folder with a password: the link's secret alone does not decrypt it. `unlock` derives the
 * effective secret (src/crypto/password.ts, memory-hard: about a second) and checks it against
 * `ske`; a wrong password resolves null and nothing reaches the server.
 */
export interface PasswordRequired {
  readonly kind: 'password';
  readonly info: FolderInfo;
  unlock(password: string): Promise<FolderSession | null>;
}

/** The server says a folder expired with the stable code `expired` (src/contract/errors.ts), never only in words. */
export function isExpired(error: WebfolderError): boolean {
  return error.serverCode === ('expired' satisfies ErrorCode);
}

/** Opens a folder for this browser: its info, the key checked against `ske`, owner credentials. */
export async function openSession(
  folderId: string,
  fragment: Fragment,
  options: SessionOptions & {
    /** The effective secret of a password folder this page has just created (never stored). */
    readonly unlocked?: string;
  },
): Promise<FolderSession | PasswordRequired | OpenFailure> {
  const { store } = options;
  // An owner link: keep the owner secret in this browser (the view then shows the plain share link).
  if (fragment.ownerSecret) store.saveOwnerSecret(folderId, fragment.ownerSecret);
  const ownerSecret = store.ownerSecretOf(folderId);
  let owner: OwnerCredentials | null = null;
  if (ownerSecret) {
    try {
      owner = await deriveOwnerCredentials(ownerSecret);
    } catch {
      store.saveOwnerSecret(folderId, null);
    }
  }
  // A person waits on these calls: fewer retries than chunk transfers get (the same policy otherwise,
  // a 429's Retry-After honoured), and each wait is told to the views ('waiting') as it starts.
  let session: FolderSession | null = null;
  const http: HttpOptions = {
    ...options.http,
    retry: { retries: 3, ...options.http?.retry },
    onRetry: (info) => {
      options.http?.onRetry?.(info);
      session?.waiting(info);
    },
  };
  const client = new SiteClient(
    options.siteApi,
    folderId,
    { ownerToken: owner?.authToken, visitorToken: store.visitorToken() },
    http,
  );
  let info: FolderInfo;
  try {
    info = await client.info();
  } catch (error) {
    if (error instanceof WebfolderError && error.serverCode === ('taken_down' satisfies ErrorCode)) {
      const notice = await client.takeDownNotice().catch(() => null);
      if (notice) return { kind: 'taken-down', notice };
    }
    if (error instanceof WebfolderError && (error.status === 404 || error.status === 400))
      return { kind: isExpired(error) ? 'expired' : 'not-found', error };
    return { kind: 'failed', error };
  }
  if (!fragment.secret) return { kind: 'no-key' };
  const linkSecret = fragment.secret;
  let key: FolderKey;
  try {
    key = await importSecret(linkSecret);
  } catch (error) {
    if (error instanceof CryptoFormatError) return { kind: 'bad-key', error };
    throw error;
  }
  const finish = async (secret: string, effective: FolderKey): Promise<FolderSession | null> => {
    if (info.ske !== null && !(await checkSke(effective, info.ske))) return null;
    if (owner && !info.isOwner) {
      // A stale owner secret (another browser claimed first, or a mistyped owner link).
      store.saveOwnerSecret(folderId, null);
      owner = null;
      client.credentials = { visitorToken: store.visitorToken() };
    }
    session = new FolderSession(
      options,
      client,
      info,
      linkSecret,
      secret,
      effective,
      owner,
      owner ? ownerSecret : null,
    );
    return session;
  };
  const params = info.password;
  if (params) {
    const unlock = async (password: string) => {
      const secret = await passwordSecret(linkSecret, password, params);
      return finish(secret, await importSecret(secret));
    };
    if (options.unlocked) {
      const opened = await finish(options.unlocked, await importSecret(options.unlocked));
      if (opened) return opened;
    }
    return { kind: 'password', info, unlock };
  }
  return (await finish(linkSecret, key)) ?? { kind: 'wrong-key' };
}
