import { hashMatches, hashToken, tokenMatches } from '../../domain/ids.js';
import { isDue } from '../../domain/lifecycle.js';
import { type Action, type Mode, may, type Role } from '../../domain/modes.js';
import type { Principal } from '../../domain/principal.js';
import type { FileRecord, FolderRecord } from '../../store/metadata-store.js';
import { refuseIfTakenDown } from '../admin/take-down.js';
import { expired, forbidden, invalid, notFound } from '../errors.js';
import type { Services } from '../services.js';

/**
 * Who is calling a browser-site endpoint. The owner presents the credential its browser derived at
 * claim time (`X-Owner-Token`); the server keeps only its hash and compares in constant time. Any
 * browser may present a visitor token (`X-Visitor-Token`, random, kept in its storage) so that its
 * own uploads can be resumed; it grants nothing else.
 */
export interface Caller {
  readonly ownerToken?: string | undefined;
  readonly visitorToken?: string | undefined;
  /**
   * The `uploadAuth` of a direct-upload folder (`X-Upload-Auth`): the program that created the folder
   * and holds its token is its owner on the site too. Without this a direct folder in request mode
   * could be read by no one, and its first browser visitor could claim it.
   */
  readonly uploadAuth?: string | undefined;
  /**
   * Who the request is signed in as (a session cookie or an API key; src/http/callers/principal.ts). The
   * account that made a folder may use the owner's controls that need no key (`ownerAuthority`).
   */
  readonly principal?: Principal | undefined;
}

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** Refuses malformed credentials instead of treating them as absent (a client bug must show). */
export function checkCaller(caller: Caller): Caller {
  if (caller.ownerToken !== undefined && !TOKEN.test(caller.ownerToken)) throw invalid('X-Owner-Token is malformed');
  if (caller.visitorToken !== undefined && !TOKEN.test(caller.visitorToken))
    throw invalid('X-Visitor-Token is malformed');
  if (caller.uploadAuth !== undefined && !TOKEN.test(caller.uploadAuth)) throw invalid('X-Upload-Auth is malformed');
  return caller;
}

/** The folder if it exists and is not past its deletion time; 400/404 otherwise. */
export async function openFolder(services: Services, folderId: string): Promise<FolderRecord> {
  const folder = await services.store.getFolder(folderId);
  if (!folder) throw notFound('folder not found: it may have expired or been deleted');
  refuseIfTakenDown(folder);
  if (isDue(folder.deleteAfter, services.clock())) throw expired('folder has expired');
  return folder;
}

/** Whether the folder has an owner: a browser that claimed it, or the creator of a direct upload. */
export function isOwned(folder: FolderRecord): boolean {
  return folder.ownerTokenHash !== null || folder.uploadAuthHash !== null;
}

/**
 * How the caller holds the owner's authority over the folder, the one place that decides it:
 * - `'key'`: it presents the owner's credential (X-Owner-Token, derived from the owner secret, or a
 *   direct upload's X-Upload-Auth): the owner's browser or program, which holds the folder's link;
 * - `'account'`: it is signed in as the account that made the folder (`folders.account_id`, set at
 *   creation by a signed-in person, by session or API key). The server never holds a folder's key, so
 *   this authority covers only the controls that need none (OWNER_CONTROLS below);
 * - `null`: neither.
 */
export type OwnerAuthority = 'key' | 'account' | null;

export function ownerAuthority(folder: FolderRecord, caller: Caller): OwnerAuthority {
  const browserOwner = caller.ownerToken !== undefined && tokenMatches(caller.ownerToken, folder.ownerTokenHash);
  const directOwner = caller.uploadAuth !== undefined && tokenMatches(caller.uploadAuth, folder.uploadAuthHash);
  if (browserOwner || directOwner) return 'key';
  const p = caller.principal;
  if (p?.kind === 'account' && folder.accountId != null && p.accountId === folder.accountId) return 'account';
  return null;
}

/**
 * The caller's role for the mode's rights (upload, list, download): the owner is whoever holds the
 * owner's credential. An account's authority does not make it the owner here: listing and
 * downloading are for holders of the link, and the owner's downloads are not counted.
 */
export function roleOf(folder: FolderRecord, caller: Caller): Role {
  return ownerAuthority(folder, caller) === 'key' ? 'owner' : 'visitor';
}

/** The tag stored with a file a caller uploads, and matched to let it resume that upload. */
export function uploaderTagOf(caller: Caller, role: Role): string | null {
  if (role === 'owner' && caller.ownerToken) return hashToken(caller.ownerToken);
  if (role === 'owner' && caller.uploadAuth) return hashToken(caller.uploadAuth);
  if (caller.visitorToken) return hashToken(caller.visitorToken);
  return null;
}

export function isUploaderOf(file: FileRecord, caller: Caller): boolean {
  const tag = file.uploaderTag;
  if (tag === null) return false;
  return credentialHashes(caller).some((hash) => hashMatches(hash, tag));
}

/**
 * The hashes of the caller's credentials, computed once per caller: a listing page asks of each of
 * its 1,000 files whether this caller uploaded it.
 */
function credentialHashes(caller: Caller): readonly string[] {
  let hashes = hashesOf.get(caller);
  if (!hashes) {
    const tokens = [caller.ownerToken, caller.visitorToken, caller.uploadAuth];
    hashes = tokens.flatMap((t) => (t === undefined ? [] : [hashToken(t)]));
    hashesOf.set(caller, hashes);
  }
  return hashes;
}

const hashesOf = new WeakMap<Caller, readonly string[]>();

const REFUSALS: Record<Mode, Partial<Record<Action, string>>> = {
  send: { upload: 'only the owner can upload to a send folder' },
  share: {},
  request: {
    list: 'only the owner can list the files of a request folder',
    download: 'only the owner can download from a request folder',
  },
};

/**
 * Why `role` may not do `action` here, or null when it may: `may()` (domain/modes.ts), the one rule of
 * who may do what, plus what only the record knows. A request folder created by direct upload is owned
 * through `uploadAuth` and has no owner key (only a browser that claims a folder publishes one), so
 * its visitors have nothing to encrypt their files to, and uploading under the folder secret would let
 * every holder of the link read them.
 */
function refusal(folder: FolderRecord, role: Role, action: Action): string | null {
  const owned = isOwned(folder);
  if (!may(folder.mode, role, action, owned))
    return REFUSALS[folder.mode][action] ?? `${action} is not allowed in this folder`;
  if (
    folder.mode === 'request' &&
    action === 'upload' &&
    role === 'visitor' &&
    owned &&
    folder.ownerPublicKey === null
  ) {
    return 'this request folder was created through the API and has no owner key to encrypt to: visitors cannot upload to it';
  }
  return null;
}

/** 403 with the reason unless `role` may do `action` in this folder. */
export function requireRight(folder: FolderRecord, role: Role, action: Action): void {
  const reason = refusal(folder, role, action);
  if (reason !== null) throw forbidden(reason);
}

export function rightsOf(folder: FolderRecord, role: Role): Record<Action, boolean> {
  return {
    upload: refusal(folder, role, 'upload') === null,
    list: refusal(folder, role, 'list') === null,
    download: refusal(folder, role, 'download') === null,
  };
}

/**
 * The owner's controls, what each is called in a refusal, and whether it needs the folder's key.
 * A control that needs no key may be used by the account that made the folder too (My folders);
 * one that writes or reads what is encrypted with the key (the note, the password) may not: the
 * server could not check what an account that lacks the key would write.
 */
export const OWNER_CONTROLS = {
  settings: { what: "change the folder's settings", keyless: true },
  encryptedSettings: { what: 'change the note or the password', keyless: false },
  fileLimit: { what: "change a file's download limit", keyless: true },
  deleteFolder: { what: 'delete the folder', keyless: true },
  deleteFile: { what: 'delete files', keyless: true },
  activity: { what: 'see the activity', keyless: true },
  notifications: { what: 'see or change notifications', keyless: true },
} as const satisfies Record<string, { what: string; keyless: boolean }>;
export type OwnerControl = keyof typeof OWNER_CONTROLS;

/** The folder, if the caller may use the owner's `control` on it: 403 otherwise, saying what only the owner may do. */
export async function openAsOwner(
  services: Services,
  folderId: string,
  caller: Caller,
  control: OwnerControl,
): Promise<FolderRecord> {
  const folder = await openFolder(services, folderId);
  const authority = ownerAuthority(folder, caller);
  const { what, keyless } = OWNER_CONTROLS[control];
  if (authority === 'key' || (authority === 'account' && keyless)) return folder;
  if (authority === 'account')
    throw forbidden(
      `only the owner's browser or program can ${what}: it needs the folder's key, which the server never holds`,
    );
  throw forbidden(`only the owner can ${what}`);
}

/** A live (not expired) file of the folder, or 404. */
export async function openFile(services: Services, folder: FolderRecord, fileId: string): Promise<FileRecord> {
  const file = await services.store.getFile(folder.id, fileId);
  if (!file || file.expiresAt <= services.clock()) throw notFound('file not found');
  return file;
}
