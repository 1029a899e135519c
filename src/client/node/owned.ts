import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../transfer/errors.js';

/**
 * The owner credentials of folders this machine made, kept so that `webfolder delete`, `info` and
 * `download` work on them later without asking: `<state dir>/owned/<folderId>.json`, mode 0600 in
 * a 0700 directory (like the resume state, they are secrets). A direct upload keeps its
 * `uploadAuth`; a request folder (create and claim) its owner secret, from which the owner token and
 * the private key that opens visitors' sealed files are derived. The folder's link secret is not
 * kept: the link the user holds is always given.
 */
export interface OwnedFolder {
  readonly version: 1;
  readonly folderId: string;
  /** The folder's page address, without the fragment. */
  readonly folderUrl: string;
  readonly uploadAuth?: string;
  readonly ownerSecret?: string;
  readonly createdAt: number;
}

const FOLDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

function ownedPath(stateDir: string, folderId: string): string | null {
  return FOLDER_ID.test(folderId) ? join(stateDir, 'owned', `${folderId}.json`) : null;
}

export async function saveOwned(stateDir: string, folder: Omit<OwnedFolder, 'version'>): Promise<string> {
  const path = ownedPath(stateDir, folder.folderId);
  if (!path) throw new InputError(`not a folder id: ${folder.folderId}`);
  await mkdir(join(stateDir, 'owned'), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify({ version: 1, ...folder }), { mode: 0o600 });
  await rename(temp, path);
  return path;
}

/** The record of a folder this machine made, or null (none, or unreadable: then it is as if none). */
export async function readOwned(stateDir: string, folderId: string): Promise<OwnedFolder | null> {
  const path = ownedPath(stateDir, folderId);
  if (!path) return null;
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<OwnedFolder>;
    if (value.version !== 1 || value.folderId !== folderId) return null;
    return value as OwnedFolder;
  } catch {
    return null;
  }
}

export async function forgetOwned(stateDir: string, folderId: string): Promise<void> {
  const path = ownedPath(stateDir, folderId);
  if (path) await rm(path, { force: true });
}
