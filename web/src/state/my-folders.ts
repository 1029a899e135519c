import {
  type AccountFolder,
  type FolderInfo,
  listAccountFolders,
  SiteClient,
  type SiteNotifications,
  type SiteNotificationsUpdate,
  WebfolderError,
} from '../core.js';

/**
 * "My folders", DOM-free and words-free: the folders the signed-in account made, a page
 * at a time in the chosen order, and the owner's controls that need no key. Every call carries the
 * page's session cookie (same origin) and no owner credential: the server authorises the account
 * (src/app/site/access.ts ownerAuthority). Nothing here can open a folder: the server never had a
 * folder's key, and neither has this page unless the person opens the link.
 */
export type MyFoldersSort = 'newest' | 'expiry';

export interface MyFoldersAddresses {
  /** The site's path or address (WEB_URL's path, with a trailing slash). */
  readonly base: string;
  /** The site API's path (`<base>api/site`). */
  readonly api: string;
}

export class MyFolders {
  folders: AccountFolder[] = [];
  nextCursor: string | null = null;
  sort: MyFoldersSort = 'newest';
  /** Null until the first page answered; false when the server says no one is signed in. */
  signedIn: boolean | null = null;

  constructor(private readonly at: MyFoldersAddresses) {}

  /** The first page in `sort`'s order (replacing what was listed). */
  async load(sort: MyFoldersSort = this.sort): Promise<void> {
    this.sort = sort;
    try {
      const page = await listAccountFolders(this.at.base, { sort });
      this.signedIn = true;
      this.folders = page.folders;
      this.nextCursor = page.nextCursor;
    } catch (error) {
      // 401 (no session, or it ended) and 403: not signed in as anyone who may list folders.
      if (error instanceof WebfolderError && (error.status === 401 || error.status === 403)) {
        this.signedIn = false;
        this.folders = [];
        this.nextCursor = null;
        return;
      }
      throw error;
    }
  }

  /** The next page, appended; false when there is none. */
  async more(): Promise<boolean> {
    if (!this.nextCursor) return false;
    const page = await listAccountFolders(this.at.base, { sort: this.sort, cursor: this.nextCursor });
    const known = new Set(this.folders.map((f) => f.folderId));
    this.folders.push(...page.folders.filter((f) => !known.has(f.folderId)));
    this.nextCursor = page.nextCursor;
    return true;
  }

  private client(folderId: string): SiteClient {
    return new SiteClient(this.at.api, folderId);
  }

  /** A new expiry, `hours` from now (the server checks its bounds); the row shows the answer. */
  async setExpiry(folderId: string, hours: number): Promise<void> {
    this.applied(await this.client(folderId).updateFolder({ expiresAt: Date.now() + hours * 3_600_000 }));
  }

  /** The folder's download limit per file (null: none). */
  async setLimit(folderId: string, maxDownloads: number | null): Promise<void> {
    this.applied(await this.client(folderId).updateFolder({ maxDownloads }));
  }

  /** Deletes the folder and its files (done when this resolves); it leaves the list. */
  async delete(folderId: string): Promise<void> {
    await this.client(folderId).deleteFolder();
    this.folders = this.folders.filter((f) => f.folderId !== folderId);
  }

  notifications(folderId: string): Promise<SiteNotifications> {
    return this.client(folderId).notifications();
  }
  setNotifications(folderId: string, update: SiteNotificationsUpdate): Promise<SiteNotifications> {
    return this.client(folderId).setNotifications(update);
  }
  async clearNotifications(folderId: string): Promise<SiteNotifications> {
    await this.client(folderId).clearNotifications();
    return this.client(folderId).notifications();
  }

  /** The folder's settings as the server answered a change, into its row. */
  private applied(info: FolderInfo): void {
    const row = this.folders.find((f) => f.folderId === info.folderId);
    if (!row) return;
    const i = this.folders.indexOf(row);
    this.folders[i] = { ...row, expiresAt: info.expiresAt, maxDownloads: info.maxDownloads };
  }
}
