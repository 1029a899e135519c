import type { ErrorCode } from '../../src/contract/errors.js';
import type {
  FolderInfo,
  SiteActivity,
  SiteFile,
  SiteFileEntry,
  SiteFolderUpdate,
  SiteNotifications,
  SiteNotificationsUpdate,
  SiteRegisteredFile,
} from '../../src/contract/site.js';
import {
  CryptoFormatError,
  checkSke,
  createSke,
  decryptChunk,
  decryptText,
  deriveOwnerCredentials,
  encryptChunk,
  encryptText,
  type FolderKey,
  generateSecret,
  importSecret,
  type OwnerCredentials,
  openSealedSecret,
  sealSecret,
} from '../../src/crypto/index.js';
import { passwordSecret } from '../../src/crypto/password.js';
import {
  blobSource,
  type ChunkSource,
  type DownloadFile,
  type Fetch,
  type FileUpload,
  type HttpOptions,
  type Registrar,
  type RetryInfo,
  type RunFile,
  type RunOutcome,
  registerFiles,
  registrationBatches,
  resumeFile,
  SiteClient,
  type UploadProgress,
  UploadRun,
  WebfolderError,
} from '../../src/transfer/index.js';
import { t } from './i18n/index.js';

export type { FileState, FileUpload, UploadProgress } from '../../src/transfer/index.js';
export { speedometer } from '../../src/transfer/index.js';

/**
 * The folder page's state and protocols, without a DOM: opening a folder (key checks, owner
 * secrets), the claim protocol of the first upload, the upload queue with resume, and what a
 * download needs. The views (web/src/views) render it and call it; node:test drives it directly
 * (test/site/session.test.ts). Storage and the chunk transport are given, so the page plugs in
 * localStorage and XMLHttpRequest, a test a Map and fetch.
 */

/** What the page keeps between visits (web/src/storage.ts: localStorage, this origin only). */
export interface SiteStore {
  ownerSecretOf(folderId: string): string | null;
  saveOwnerSecret(folderId: string, secret: string | null): void;
  visitorToken(): string;
  pendingUploads(folderId: string): PendingUpload[];
  addPending(folderId: string, upload: PendingUpload): void;
  removePending(folderId: string, fileId: string): void;
  /** Request mode, visitor: what this browser sent to the folder (its receipt). */
  receipts(folderId: string): Receipt[];
  addReceipt(folderId: string, receipt: Receipt): void;
}

/** One file a request-mode visitor sent, as its receipt shows it (kept in this browser only). */
export interface Receipt {
  readonly fileId: string;
  readonly name: string;
  readonly size: number;
  /** When the upload completed (epoch ms). */
  readonly at: number;
}

export interface PendingUpload {
  fileId: string;
  name: string;
  size: number;
  lastModified: number;
  chunkSize: number;
  chunks: number;
  /** Request mode, visitor: the file's own secret (it cannot be recovered from the server). */
  fileSecret?: string;
}

export interface SessionOptions {
  /** The site API address (absolute: it is also handed to the service worker). */
  readonly siteApi: string;
  readonly store: SiteStore;
  /** Retry policy and transport of the JSON calls. */
  readonly http?: HttpOptions;
  /** Transport of chunk PUTs (the page: XMLHttpRequest, for progress within a chunk). */
  readonly transport?: Fetch;
  /** Chunk PUTs in flight (default 4). */
  readonly concurrency?: number;
  /** Makes an uploaded file's thumbnail (the page: web/src/thumbnail.ts); none without it. */
  readonly thumbnailer?: (file: Blob, name: string) => Promise<Uint8Array | null>;
  /**
   * Where a picked file's chunks are read and encrypted (the page: its crypto workers,
   * web/src/crypto-pool.ts); default the Blob, encrypted on this thread.
   */
  readonly chunkSource?: (file: Blob) => ChunkSource;
}

/** The part of the URL after #: the folder secret, and on an owner link `&owner=<owner secret>`. */
export interface Fragment {
  readonly secret: string | null;
  readonly ownerSecret: string | null;
}

export function parseFragment(hash: string): Fragment {
  const raw = hash.replace(/^#/, '');
  if (!raw) return { secret: null, ownerSecret: null };
  const [secret, ...params] = raw.split('&');
  let ownerSecret: string | null = null;
  for (const p of params) if (p.startsWith('owner=')) ownerSecret = decodeURIComponent(p.slice(6));
  return { secret: secret ? decodeURIComponent(secret) : null, ownerSecret };
}

export type OpenFailure = {
  readonly kind: 'not-found' | 'expired' | 'no-key' | 'bad-key' | 'wrong-key' | 'failed';
  readonly error?: unknown;
};

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

/** A file picked in the page: a File (or any Blob with a name and time) and its path in a picked folder. */
export interface PickedFile {
  readonly file: Blob & { readonly lastModified: number };
  readonly path: string;
}

export interface UploadOutcome {
  readonly state: 'complete' | 'failed' | 'cancelled';
  readonly files: readonly FileUpload[];
  /** Empty files picked (the service takes no empty files). */
  readonly skippedEmpty: number;
}

/** A listed file with what this browser can do with it. */
export interface OpenedFile {
  readonly file: SiteFile;
  /** Decrypted name, or null when this browser cannot read it. */
  readonly name: string | null;
  /** Decrypted type as the uploader gave it (a hint only: see web/src/preview.ts), or null. */
  readonly mimetype: string | null;
  /** The secret the file is encrypted under, or null when this browser does not have it. */
  readonly secret: string | null;
}

type Events = {
  /** The folder's info, ownership or credentials changed: redraw. */
  info: FolderInfo;
  /** Something to say to assistive technology. */
  announce: string;
  /** An upload's progress (uploads run one at a time per page). */
  progress: UploadProgress;
  /** A call to the site is waiting to be retried (a 429's Retry-After, or backoff after a failure). */
  waiting: Waiting;
  /** A poll found the same rights but maybe other files, counts or settings: refresh in place. */
  changed: FolderInfo;
};

/** What decides the page's layout: a change here redraws it; anything else refreshes in place. */
function shape(info: FolderInfo): string {
  return JSON.stringify([info.mode, info.owned, info.isOwner, info.rights, info.password !== null]);
}

/** A retry the person is waiting for: what is being retried, why, and in how many seconds. */
export interface Waiting {
  readonly operation: string;
  /** HTTP status that caused the wait (429: the server asked to slow down), or null for a network error. */
  readonly status: number | null;
  readonly seconds: number;
}

export class FolderSession {
  private readonly listeners = new Map<keyof Events, Set<(value: never) => void>>();
  private running: AbortController | null = null;
  /** Files this page is sending now (the list says "Uploading…" only for these). */
  private readonly sending = new Set<string>();

  constructor(
    private readonly options: SessionOptions,
    readonly client: SiteClient,
    public info: FolderInfo,
    /** The secret of the link (what the share link carries). */
    readonly linkSecret: string,
    /** The secret everything is encrypted under: the link's, or with a password derived from both. */
    readonly secret: string,
    readonly key: FolderKey,
    public owner: OwnerCredentials | null,
    public ownerSecret: string | null,
  ) {}

  get folderId(): string {
    return this.client.folderId;
  }

  /** Called by the site client's retry policy as a wait starts: tells the views ('waiting'). */
  waiting(info: RetryInfo): void {
    this.emit('waiting', { operation: info.operation, status: info.status, seconds: Math.ceil(info.delayMs / 1000) });
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof Events>(type: K, listener: (value: Events[K]) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }

  private emit<K extends keyof Events>(type: K, value: Events[K]): void {
    for (const listener of this.listeners.get(type) ?? []) (listener as (v: Events[K]) => void)(value);
  }

  /** The share link for a page address (its fragment replaced by the folder secret). */
  shareLink(pageUrl: string): string {
    return `${pageUrl.replace(/#.*$/, '')}#${this.linkSecret}`;
  }

  /** The owner link (restores ownership in another browser), when this browser owns the folder. */
  ownerLink(pageUrl: string): string | null {
    return this.info.isOwner && this.ownerSecret ? `${this.shareLink(pageUrl)}&owner=${this.ownerSecret}` : null;
  }

  /** The owner's notification settings; null for anyone else (the server would answer 403). */
  async notifications(): Promise<SiteNotifications | null> {
    return this.info.isOwner ? this.client.notifications() : null;
  }
  /**
   * Sets the e-mail address and the events to be told about (uploads only in share and request
   * folders: only the owner uploads to a send folder). A webhook URL set with the CLI stays.
   */
  setNotifications(email: string | null, events: { download: boolean; upload: boolean }): Promise<SiteNotifications> {
    const update: SiteNotificationsUpdate = { email, onDownload: events.download };
    return this.client.setNotifications(this.info.mode === 'send' ? update : { ...update, onUpload: events.upload });
  }
  /** Stops every notification of the folder: the address and any webhook URL are deleted. */
  async clearNotifications(): Promise<SiteNotifications> {
    await this.client.clearNotifications();
    return this.client.notifications();
  }

  /** The note to recipients, decrypted (null without one, or when it does not decrypt). */
  async note(): Promise<string | null> {
    if (!this.info.note) return null;
    return decryptText(this.key, this.info.note).catch(() => null);
  }

  /** Owner: changes the folder's settings (the server checks the limits) and redraws. */
  async updateFolder(change: {
    expiresAt?: number;
    maxDownloads?: number | null;
    note?: string | null;
  }): Promise<void> {
    const { note, ...rest } = change;
    const patch: SiteFolderUpdate =
      note === undefined ? rest : { ...rest, note: note ? await encryptText(this.key, note) : null };
    this.info = await this.client.updateFolder(patch);
    this.emit('info', this.info);
  }

  /** Owner: a file's own download limit (null: the folder's). */
  updateFile(fileId: string, maxDownloads: number | null): Promise<SiteFile> {
    return this.client.updateFile(fileId, { maxDownloads });
  }

  /** Owner: deletes one file (its bytes are gone when this resolves). */
  async deleteFile(fileId: string): Promise<void> {
    await this.client.deleteFile(fileId);
    await this.refresh();
  }

  /** Owner: deletes the folder and every file; the owner secret is forgotten. */
  async deleteFolder(): Promise<void> {
    await this.client.deleteFolder();
    this.options.store.saveOwnerSecret(this.folderId, null);
  }

  /** Owner: the newest uploads, downloads and deletions. */
  async activity(): Promise<SiteActivity['events']> {
    return (await this.client.activity()).events;
  }

  /** Request mode, visitor: what this browser sent here (kept in this browser only). */
  receipts(): Receipt[] {
    return this.options.store.receipts(this.folderId);
  }

  /**
   * What a download needs, with its ticket: every download, zip entry and viewer open asks the
   * server first, which counts it (the owner's are not counted) and refuses past the limit
   * (410 `download_limit_reached`, the server's words shown). The ticket travels as a header to the
   * site's chunk endpoint only, with the other credentials (also from the service worker).
   */
  async startDownload(opened: OpenedFile): Promise<DownloadFile> {
    const file = this.downloadFile(opened);
    const { ticket } = await this.client.startDownload(opened.file.fileId);
    return { ...file, credentials: { ...file.credentials, 'x-download-ticket': ticket } };
  }

  /**
   * Polls the folder while the page is visible (live updates: others' uploads, counts, expiry):
   * 'info' when the folder's rights or ownership changed (the page redraws), 'changed' when only
   * its files or settings did. Returns the stop function.
   */
  watch(everyMs = 5000): () => void {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const tick = async () => {
      if (stopped) return;
      const visible = typeof document === 'undefined' || document.visibilityState === 'visible';
      if (visible && !this.running) {
        const before = this.info;
        const now = await this.client.info().catch((error: unknown) => {
          // Deleted or expired: nothing more to watch (a network failure just waits for the next tick).
          if (error instanceof WebfolderError && error.status === 404) stopped = true;
          return null;
        });
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

  pendingUploads(): PendingUpload[] {
    return this.options.store.pendingUploads(this.folderId);
  }

  async refresh(): Promise<void> {
    this.info = await this.client.info();
    this.emit('info', this.info);
  }

  /** Whether this page is sending the file now (an incomplete file nobody sends is just incomplete). */
  isUploading(fileId: string): boolean {
    return this.sending.has(fileId);
  }

  /** Stops the running upload; it can be resumed by picking the same files again. */
  cancelUpload(): void {
    this.running?.abort();
  }

  /**
   * Uploads picked files: unfinished uploads of the same files (name, size, time) resume with only
   * their missing chunks, the others are registered (the first upload claims the folder) and sent.
   * Resolves when every file is done, failed or cancelled; a refused registration rejects.
   */
  async upload(picked: readonly PickedFile[]): Promise<UploadOutcome> {
    const items = picked.filter((i) => i.file.size > 0);
    const skippedEmpty = picked.length - items.length;
    const prepared: RunFile[] = [];
    const pending = this.pendingUploads();
    const fresh: PickedFile[] = [];
    const registrar = this.registrar();
    for (const item of items) {
      const p = pending.find(
        (u) => u.name === item.path && u.size === item.file.size && u.lastModified === item.file.lastModified,
      );
      if (!p) fresh.push(item);
      else
        prepared.push(
          await resumeFile(registrar, {
            fileId: p.fileId,
            name: p.name,
            size: p.size,
            chunkSize: p.chunkSize,
            chunks: p.chunks,
            key: p.fileSecret ? await importSecret(p.fileSecret) : this.key,
            source: this.chunkSource(item.file),
          }),
        );
    }
    const sealed = this.info.mode === 'request' && this.info.owned && !this.info.isOwner;
    for (const batch of registrationBatches(fresh, (item) => item.file.size, this.info.chunkSize))
      prepared.push(...(await this.registerBatch(registrar, batch, sealed)));
    for (const p of prepared) this.sending.add(p.fileId);
    // Redraw with the registered files (and the claim's new role) before the bytes go: a page that
    // said "No files yet" or "Nobody owns this folder yet" would be stale during the whole upload.
    if (fresh.length) await this.refresh().catch(() => undefined);
    return this.send(registrar, prepared, skippedEmpty, items);
  }

  private async fileKey(sealed: boolean): Promise<{ key: FolderKey; fileSecret?: string; sealedKey?: string }> {
    if (!sealed) return { key: this.key };
    const fileSecret = generateSecret();
    return {
      key: await importSecret(fileSecret),
      fileSecret,
      sealedKey: await sealSecret(this.info.ownerPublicKey!, fileSecret),
    };
  }

  private chunkSource(file: Blob): ChunkSource {
    return this.options.chunkSource?.(file) ?? blobSource(file);
  }

  /** The site API as the upload run's registrar: registration with the claim, upload-status, fresh URLs. */
  private registrar(): Registrar {
    return {
      register: (entries) => this.claimAndRegister(entries),
      missing: async (fileId) => {
        const status = await this.client.status(fileId);
        return status.complete ? [] : status.missing;
      },
      renewUrls: async (fileId) => (await this.client.uploadUrls(fileId)).uploadUrls,
    };
  }

  /** Registers picked files, each under its key (request mode, visitor: a file's own, sealed to the owner). */
  private async registerBatch(registrar: Registrar, items: readonly PickedFile[], sealed: boolean): Promise<RunFile[]> {
    const keys = await Promise.all(items.map(() => this.fileKey(sealed)));
    const files = await registerFiles(
      registrar,
      items.map((item, i) => ({
        name: item.path,
        size: item.file.size,
        mimetype: item.file.type,
        key: keys[i]!.key,
        sealedKey: keys[i]!.sealedKey,
        source: this.chunkSource(item.file),
      })),
    );
    files.forEach((f, i) => {
      const item = items[i]!;
      const pending: PendingUpload = {
        fileId: f.fileId,
        name: item.path,
        size: item.file.size,
        lastModified: item.file.lastModified,
        chunkSize: f.plan.chunkSize,
        chunks: f.plan.chunks,
      };
      if (keys[i]!.fileSecret) pending.fileSecret = keys[i]!.fileSecret!;
      this.options.store.addPending(this.folderId, pending);
    });
    return files;
  }

  /**
   * Registers entries. When nobody owns the folder yet this is the claim: the browser makes an owner
   * secret, presents the token derived from it (and its public key, and the key check `ske` if the
   * folder has none), and keeps the secret only if the server answers that it is now the owner.
   */
  private async claimAndRegister(entries: readonly SiteFileEntry[]): Promise<SiteRegisteredFile[]> {
    const extra: { ske?: string; ownerPublicKey?: string } = {};
    let claiming: { secret: string; creds: OwnerCredentials } | null = null;
    const visitorOnly = () => ({ visitorToken: this.client.credentials.visitorToken });
    if (!this.info.owned) {
      const secret = generateSecret();
      claiming = { secret, creds: await deriveOwnerCredentials(secret) };
      this.client.credentials = { ...this.client.credentials, ownerToken: claiming.creds.authToken };
      extra.ownerPublicKey = claiming.creds.publicKey;
      if (this.info.ske === null) extra.ske = await createSke(this.key);
    }
    let response: Awaited<ReturnType<SiteClient['register']>>;
    try {
      response = await this.client.register(entries, extra);
    } catch (error) {
      // A refused claim (someone else uploaded first, and the mode forbids visitors to upload):
      // drop the unused owner credential and show the folder as it now is.
      if (claiming) {
        this.client.credentials = visitorOnly();
        this.info = await this.client.info().catch(() => this.info);
      }
      throw error;
    }
    if (claiming) {
      if (response.role === 'owner') {
        this.options.store.saveOwnerSecret(this.folderId, claiming.secret);
        this.owner = claiming.creds;
        this.ownerSecret = claiming.secret;
      } else {
        this.client.credentials = visitorOnly();
      }
      this.info = await this.client.info();
      this.emit('announce', t(response.role === 'owner' ? 'session.nowOwner' : 'session.someoneElse'));
    }
    return response.files;
  }

  private async send(
    registrar: Registrar,
    prepared: readonly RunFile[],
    skippedEmpty: number,
    picked: readonly PickedFile[] = [],
  ): Promise<UploadOutcome> {
    const thumbnails: Array<Promise<void>> = [];
    const running = new AbortController();
    this.running = running;
    // After Cancel, files picked again start another send at once: what the cancelled one still
    // reports (its abort settles later) must not reach the views, which now show the new one.
    const report = () => {
      if (this.running === running) this.emit('progress', run.progress());
    };
    const run: UploadRun = new UploadRun(prepared, registrar, {
      ...this.options.http,
      ...(this.options.transport ? { fetch: this.options.transport } : {}),
      ...(this.options.concurrency ? { concurrency: this.options.concurrency } : {}),
      signal: running.signal,
      failFast: false,
      onEvent: (event) => {
        // A chunk PUT waits to be retried (offline, server busy): the views tell the person.
        if (event.type === 'retry') {
          if (this.running === running) this.waiting(event.info);
          return;
        }
        if (event.type === 'file-done') {
          const f = run.files[event.file]!;
          this.options.store.removePending(this.folderId, f.fileId);
          const item = picked.find((i) => i.path === f.name);
          if (item) thumbnails.push(this.storeThumbnail(f.fileId, prepared[event.file]!.key, item));
          if (this.info.mode === 'request' && !this.info.isOwner)
            this.options.store.addReceipt(this.folderId, {
              fileId: f.fileId,
              name: f.name,
              size: f.size,
              at: Date.now(),
            });
        }
        report();
      },
    });
    report();
    let outcome: RunOutcome;
    try {
      outcome = await run.run();
    } finally {
      report();
      if (this.running === running) this.running = null;
      for (const f of prepared) this.sending.delete(f.fileId);
    }
    await Promise.all(thumbnails);
    return { state: outcome.state, files: outcome.files, skippedEmpty };
  }

  /**
   * Makes the thumbnail of a file just uploaded (SessionOptions.thumbnailer), encrypts it under the
   * file's key as its chunks are, and stores it beside the file. A thumbnail is optional: when none
   * can be made or stored, the grid makes one from the file, as for files the CLI uploaded.
   */
  private async storeThumbnail(fileId: string, key: FolderKey, item: PickedFile): Promise<void> {
    try {
      const made = await this.options.thumbnailer?.(item.file, item.path);
      if (made) await this.client.putThumbnail(fileId, await encryptChunk(key, made));
    } catch {
      // nothing stored: the grid falls back to making one
    }
  }

  /** A file's stored thumbnail, decrypted (the image's bytes), or null when it has none. */
  async thumbnail(opened: OpenedFile): Promise<Uint8Array | null> {
    if (!opened.secret) return null;
    const stored = await this.client.thumbnail(opened.file.fileId);
    return stored && decryptChunk(await importSecret(opened.secret), stored);
  }

  /** Every file of the folder, with names decrypted where this browser can (sealed files: the owner only). */
  async listFiles(): Promise<OpenedFile[]> {
    const files = await this.client.listAll();
    return Promise.all(files.map((f) => this.openFile(f)));
  }

  /** One page of the folder's files (the first without `cursor`), opened as listFiles does; `nextCursor` null on the last. */
  async listPage(cursor: string | null = null): Promise<{ opened: OpenedFile[]; nextCursor: string | null }> {
    const { files, nextCursor } = await this.client.list({ cursor });
    return { opened: await Promise.all(files.map((f) => this.openFile(f))), nextCursor };
  }

  private async openFile(file: SiteFile): Promise<OpenedFile> {
    try {
      let secret = this.secret;
      let key = this.key;
      if (file.sealedKey) {
        if (!this.owner) return { file, name: null, mimetype: null, secret: null };
        secret = await openSealedSecret(this.owner.privateKey, file.sealedKey);
        key = await importSecret(secret);
      }
      const mimetype = file.mimetype ? await decryptText(key, file.mimetype).catch(() => null) : null;
      return { file, name: await decryptText(key, file.filename), mimetype, secret };
    } catch {
      return { file, name: null, mimetype: null, secret: null };
    }
  }

  /** What `downloadStream` (in the page or its service worker) needs to fetch and decrypt a file. */
  downloadFile(opened: OpenedFile): DownloadFile {
    if (!opened.secret) throw new Error('this browser cannot decrypt this file');
    return {
      name: opened.name ?? opened.file.fileId,
      size: opened.file.filesize,
      chunkSize: opened.file.chunkSize,
      chunks: opened.file.chunks,
      key: opened.secret,
      siteApi: this.client.siteApi,
      folderId: this.folderId,
      fileId: opened.file.fileId,
      credentials: this.client.credentialHeaders(),
    };
  }

  /** The name of the "download all" archive. */
  zipName(): string {
    return `${this.info.title.replace(/[\\/:*?"<>|]+/g, '_') || 'webfolder'}.zip`;
  }
}
