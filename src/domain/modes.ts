/**
 * Folder modes and who may do what in each (spec 2.1). The server enforces these for the browser
 * site's endpoints; the page only mirrors them.
 */
export const MODES = ['send', 'share', 'request'] as const;
export type Mode = (typeof MODES)[number];
export const DEFAULT_MODE: Mode = 'send';

export type Role = 'owner' | 'visitor';
export type Action = 'upload' | 'list' | 'download';

const RIGHTS: Record<Mode, Record<Role, readonly Action[]>> = {
  // Owner uploads, others download.
  send: { owner: ['upload', 'list', 'download'], visitor: ['list', 'download'] },
  // Everyone can upload and download.
  share: { owner: ['upload', 'list', 'download'], visitor: ['upload', 'list', 'download'] },
  // Visitors upload, owner reads.
  request: { owner: ['upload', 'list', 'download'], visitor: ['upload'] },
};

/**
 * Whether `role` may perform `action` in a folder of `mode`. Before anyone owns the folder the first
 * upload is always allowed: it is the upload that makes its sender the owner (spec 3).
 */
export function may(mode: Mode, role: Role, action: Action, folderHasOwner: boolean): boolean {
  if (!folderHasOwner && action === 'upload') return true;
  return RIGHTS[mode][role].includes(action);
}
