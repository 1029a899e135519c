import {
  decryptText,
  type FolderInfo,
  type FolderKey,
  type OwnerCredentials,
  ownerLink,
  type RetryInfo,
  type SiteClient,
  shareLink,
  type TakeDownInfo,
  WebfolderError,
} from '../core.js';
import { Emitter } from './emitter.js';
import { OwnerActions } from './owner.js';
import { Reader } from './reader.js';
import type { SessionCore, SessionOptions, Waiting } from './types.js';
import { Uploader } from './uploader.js';

type Events = {
  /** The folder's info, ownership or credentials changed: redraw. */
  info: FolderInfo;
  /** A call to the site is waiting to be retried (a 429's Retry-After, or backoff after a failure). */
  waiting: Waiting;
  /** A poll found the same rights but maybe other files, counts or settings: refresh in place. */
  changed: FolderInfo;
  /**
   * A poll was answered 404: the folder was deleted or has expired since the page opened it (null),
   * or the operator took it down (the notice a fresh visitor reads).
   */
  gone: TakeDownInfo | null;
};

/** What decides the page's layout: a change here redraws it; anything else refreshes in place. */
function shape(info: FolderInfo): string {
  return JSON.stringify([info.mode, info.owned, info.isOwner, info.rights, info.password !== null]);
}

/**
 * An opened folder (web/src/state/open.ts opens it): its info, keys and this browser's owner
 * credentials, the live updates, and the three parts a view works with, as Send splits them:
 * `uploads` (the claim and the upload run), `ownerActions` (settings, deletions, notifications,
 * activity) and `reader` (listing, thumbnails, downloads). DOM-free: node:test drives it directly.
 */
export class FolderSession extends Emitter<Events> implements SessionCore {
  readonly uploads: Uploader;
  readonly ownerActions: OwnerActions;
  readonly reader: Reader;

  constructor(
    readonly options: SessionOptions,
    readonly client: SiteClient,
    public info: FolderInfo,
    /** The secret of the link (what the share link carries). */
    readonly linkSecret: string,
    /** The secret everything is encrypted under: the link's, or with a password derived from both. */
    readonly secret: string,
    readonly key: FolderKey,
    public owner: OwnerCredentials | null,
    public ownerSecret: string | null,
  ) {
    super();
    this.uploads = new Uploader(this);
    this.ownerActions = new OwnerActions(this);
    this.reader = new Reader(this);
  }

  get folderId(): string {
    return this.client.folderId;
  }

  /** What a log or a test message shows of a session: never its secrets or credentials. */
  toJSON(): { folderId: string; info: FolderInfo } {
    return { folderId: this.folderId, info: this.info };
  }

  /** Called by the retry policy as a wait starts: tells the views ('waiting'). */
  waiting(info: RetryInfo): void {
    this.emit('waiting', { operation: info.operation, status: info.status, seconds: Math.ceil(info.delayMs / 1000) });
  }

  redraw(): void {
    this.emit('info', this.info);
  }

  async refresh(): Promise<void> {
    this.info = await this.client.info();
    this.redraw();
  }

  /** The share link for a page address (its fragment replaced by the folder secret). */
  shareLink(pageUrl: string): string {
    return shareLink(pageUrl, this.linkSecret);
  }

  /** The owner link (restores ownership in another browser), when this browser owns the folder. */
  ownerLink(pageUrl: string): string | null {
    return this.info.isOwner && this.ownerSecret ? ownerLink(pageUrl, this.linkSecret, this.ownerSecret) : null;
  }

  /** The note to recipients, decrypted (null without one, or when it does not decrypt). */
  async note(): Promise<string | null> {
    if (!this.info.note) return null;
    return decryptText(this.key, this.info.note).catch(() => null);
  }

  /**
   * Polls the folder while the page is visible and no upload runs (live updates: others' uploads,
   * counts, expiry): 'info' when the folder's rights or ownership changed (the page redraws),
   * 'changed' when only its files or settings did. Returns the stop function.
   */
  watch(everyMs = 5000): () => void {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const tick = async () => {
      if (stopped) return;
      const visible = typeof document === 'undefined' || document.visibilityState === 'visible';
      if (visible && !this.uploads.running) {
        const before = this.info;
        let takenDown = false;
        const now = await this.client.info().catch((error: unknown) => {
          // Deleted or expired: nothing more to watch (a network failure just waits for the next tick).
          if (error instanceof WebfolderError && error.status === 404) stopped = true;
          takenDown = stopped && error instanceof WebfolderError && error.serverCode === 'taken_down';
          return null;
        });
        if (stopped) this.emit('gone', takenDown ? await this.client.takeDownNotice().catch(() => null) : null);
        if (now && !stopped) {
          this.info = now;
          if (shape(before) !== shape(now)) this.emit('info', now);
          else this.emit('changed', now);
        }
      }
      if (!stopped) timer = setTimeout(tick, everyMs);
    };
    timer = setTimeout(tick, everyMs);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }
}
