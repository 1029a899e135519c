import { isDue } from './lifecycle.js';

/**
 * The operator's take-down of a folder (docs/organisations.md#admin-console). A reason is one of a
 * fixed list, so that a visitor reads it in their own language (the page has words for each); the
 * operator may add a note in their own words, shown as written beside it.
 */
export const TAKE_DOWN_REASONS = ['illegal', 'copyright', 'abuse', 'malware', 'terms', 'other'] as const;
export type TakeDownReason = (typeof TAKE_DOWN_REASONS)[number];

/** The longest note an operator may add to a take-down (characters). */
export const TAKE_DOWN_NOTE_MAX = 500;

/**
 * A folder's state as the console shows it: taken down by the operator; expired (due for the sweeper,
 * not swept yet); empty and ownerless (an API-made empty folder nobody has uploaded to or claimed);
 * otherwise active.
 */
export type FolderState = 'active' | 'expired' | 'taken-down' | 'empty-ownerless';

export function folderState(
  folder: {
    readonly takeDown: unknown;
    readonly deleteAfter: number;
    readonly ownerTokenHash: string | null;
    readonly uploadAuthHash: string | null;
    readonly fileCount: number;
  },
  now: number,
): FolderState {
  if (folder.takeDown !== null) return 'taken-down';
  if (isDue(folder.deleteAfter, now)) return 'expired';
  if (folder.fileCount === 0 && folder.ownerTokenHash === null && folder.uploadAuthHash === null)
    return 'empty-ownerless';
  return 'active';
}
