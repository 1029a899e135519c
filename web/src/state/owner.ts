import {
  encryptText,
  type SiteActivity,
  type SiteFile,
  type SiteFolderUpdate,
  type SiteNotifications,
  type SiteNotificationsUpdate,
} from '../core.js';
import { openName } from './reader.js';
import type { SessionCore } from './types.js';

/**
 * The owner's actions on an opened folder: its settings, a file's limit, deletions, notifications
 * and the activity list. The server checks the owner's credential on each; a change of the folder
 * redraws the page through the session's 'info'.
 */
export class OwnerActions {
  constructor(private readonly session: SessionCore) {}

  /** The owner's notification settings; null for anyone else (the server would answer 403). */
  async notifications(): Promise<SiteNotifications | null> {
    return this.session.info.isOwner ? this.session.client.notifications() : null;
  }

  /**
   * Sets the e-mail address and the events to be told about (uploads only in share and request
   * folders: only the owner uploads to a send folder). A webhook URL set with the CLI stays.
   */
  setNotifications(
    email: string | null,
    events: { download: boolean; upload: boolean },
    /** The page's language: the confirmation mail is written in it. */
    language: string,
  ): Promise<SiteNotifications> {
    const update: SiteNotificationsUpdate = { email, onDownload: events.download, language };
    return this.session.client.setNotifications(
      this.session.info.mode === 'send' ? update : { ...update, onUpload: events.upload },
    );
  }

  /** Stops every notification of the folder: the address and any webhook URL are deleted. */
  async clearNotifications(): Promise<SiteNotifications> {
    await this.session.client.clearNotifications();
    return this.session.client.notifications();
  }

  /** Changes the folder's settings (the server checks the limits) and redraws. */
  async updateFolder(change: {
    expiresAt?: number;
    maxDownloads?: number | null;
    note?: string | null;
  }): Promise<void> {
    const { note, ...rest } = change;
    const patch: SiteFolderUpdate =
      note === undefined ? rest : { ...rest, note: note ? await encryptText(this.session.key, note) : null };
    this.session.info = await this.session.client.updateFolder(patch);
    this.session.redraw();
  }

  /** A file's own download limit (null: the folder's). */
  updateFile(fileId: string, maxDownloads: number | null): Promise<SiteFile> {
    return this.session.client.updateFile(fileId, { maxDownloads });
  }

  /** Deletes one file (its bytes are gone when this resolves). */
  async deleteFile(fileId: string): Promise<void> {
    await this.session.client.deleteFile(fileId);
    await this.session.refresh();
  }

  /** Deletes the folder and every file; the owner secret is forgotten. */
  async deleteFolder(): Promise<void> {
    await this.session.client.deleteFolder();
    this.session.options.store.saveOwnerSecret(this.session.folderId, null);
  }

  /**
   * The newest uploads, downloads and deletions, and the names of the files deleted: a deletion's
   * line carries the file's encrypted name (and sealed key), decrypted here with the folder's key
   * (or the owner's, in request mode), so a deleted file stays named after a reload and in another
   * browser. The server never had the plain name.
   */
  async activity(): Promise<{ events: SiteActivity['events']; deletedNames: Map<string, string> }> {
    const { events } = await this.session.client.activity();
    const deletedNames = new Map<string, string>();
    for (const e of events) {
      if (e.filename === null || deletedNames.has(e.fileId)) continue;
      const name = await openName(this.session, e.filename, e.sealedKey);
      if (name !== null) deletedNames.set(e.fileId, name);
    }
    return { events, deletedNames };
  }
}
