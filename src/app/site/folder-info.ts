import type { Action, Mode, Role } from '../../domain/modes.js';
import type { Services } from '../services.js';
import { openFolder, rightsOf, roleOf, type Caller } from './access.js';

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

/** What the folder page needs to render, for this caller. Opening a folder claims nothing. */
export async function folderInfo(services: Services, folderId: unknown, caller: Caller): Promise<FolderInfo> {
  const folder = await openFolder(services, folderId);
  const role = roleOf(folder, caller);
  const now = services.clock();
  const hasFiles = (await services.store.listFiles(folder.id)).some((f) => f.expiresAt > now);
  return {
    folderId: folder.id,
    mode: folder.mode,
    title: folder.title,
    createdAt: folder.createdAt,
    uploadDeadline: hasFiles ? null : folder.deleteAfter,
    owned: folder.ownerTokenHash !== null,
    isOwner: role === 'owner',
    role,
    rights: rightsOf(folder, role),
    ske: folder.ske,
    ownerPublicKey: folder.ownerPublicKey,
    chunkSize: services.config.chunkSizeMiB * 1024 * 1024,
  };
}
