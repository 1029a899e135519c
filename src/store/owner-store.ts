import type { FolderRecord, FolderSettings } from './folder-record.js';
import type { FileRecord } from './folder-store.js';

/**
 * The owner's controls of a folder: its settings, a file's download limit, and its activity list.
 * A part of the metadata port (metadata-store.ts).
 */

/** A change of settings: the properties given change. */
export type SettingsChange = Partial<FolderSettings>;

/**
 * 'password-locked': a password was asked for but the folder has one already, or a complete file
 * (encrypted without it). 'absent': no such folder, or it is being deleted.
 */
export type UpdateFolderResult = FolderRecord | 'absent' | 'password-locked';

/** One line of a folder's activity list (the owner's view). */
export interface ActivityRecord {
  readonly at: number;
  readonly kind: 'upload' | 'download' | 'delete';
  readonly fileId: string;
  readonly ip: string | null;
  /**
   * A deletion's file name as the file record held it (encrypted by the browser, opaque here) and,
   * in request mode, its sealed key: the owner's page reads the name after the file is gone. Null
   * on the other lines.
   */
  readonly filename: string | null;
  readonly sealedKey: string | null;
}

export interface OwnerControls {
  /**
   * Changes the folder's settings in one transaction. A chosen `expiresAt` becomes the expiry of
   * every file still live at `now` (an expired one stays expired, whether swept yet or not) and sets
   * deleteAfter (domain/owner-settings.ts deleteAfterForChosenExpiry); a `password` is stored only
   * while the folder has none and no complete file. Answers the folder.
   */
  updateFolder(folderId: string, change: SettingsChange, now: number): Promise<UpdateFolderResult>;
  /** Sets a file's own download limit; null when there is no such live-folder file. */
  updateFile(folderId: string, fileId: string, maxDownloads: number | null): Promise<FileRecord | null>;
  /** Adds an activity line, keeping the newest ACTIVITY_KEPT of the folder. */
  addActivity(folderId: string, activity: ActivityRecord): Promise<void>;
  /** The folder's newest activity lines first, at most `limit`. */
  listActivity(folderId: string, limit: number): Promise<ActivityRecord[]>;
}
