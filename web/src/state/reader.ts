import {
  type DownloadFile,
  decryptChunk,
  decryptText,
  type FolderKey,
  importSecret,
  openSealedSecret,
  type SiteFile,
  shownName,
} from '../core.js';
import type { OpenedFile, SessionCore } from './types.js';

/** A download's ticket kept by the page until the download is delivered (or the ticket is spent). */
interface KeptTicket {
  readonly ticket: string;
  readonly expiresAt: number;
  /** A Download of the file runs with it now: another Download then gets a ticket of its own. */
  running: boolean;
}

/** A kept ticket this close to its expiry is not used again: a download must be able to finish with it. */
const TICKET_MARGIN_MS = 10 * 60_000;

/**
 * What a reader of an opened folder does: lists its files (names decrypted where this browser can;
 * sealed files for the owner only), fetches their thumbnails, and prepares downloads.
 */
export class Reader {
  /**
   * The tickets of downloads not yet delivered, by file id: a download that failed
   * (an outage longer than the retry policy, a refused chunk) and is started again by hand, or the
   * viewer's Download after its preview, goes on with the same ticket instead of counting another.
   * A Download's ticket is also kept in the page's store (web/src/adapters/storage.ts), so that a
   * reloaded page, or the link opened again, goes on with it; one that a running download uses (in
   * another tab, or in the service worker after a reload) is not taken (`SiteStore.ticketInUse`).
   */
  private readonly tickets = new Map<string, KeptTicket>();
  /**
   * Files whose download the service worker holds paused for this page though a page before a reload
   * started it (`adopted`): their tickets are in use (their Web Locks held by the worker), so no
   * Download of this page may take them until that download ends (`finished` or `interrupted`).
   */
  private readonly adoptedIds = new Set<string>();

  constructor(private readonly session: SessionCore) {}

  /** Every file of the folder, with names decrypted where this browser can. */
  async listFiles(): Promise<OpenedFile[]> {
    const files = await this.session.client.listAll();
    return Promise.all(files.map((f) => this.openFile(f)));
  }

  /** One page of the folder's files (the first without `cursor`), opened as listFiles does; `nextCursor` null on the last. */
  async listPage(cursor: string | null = null): Promise<{ opened: OpenedFile[]; nextCursor: string | null }> {
    const { files, nextCursor } = await this.session.client.list({ cursor });
    return { opened: await Promise.all(files.map((f) => this.openFile(f))), nextCursor };
  }

  private async openFile(file: SiteFile): Promise<OpenedFile> {
    try {
      const opened = await fileKey(this.session, file.sealedKey);
      if (!opened) return { file, name: null, mimetype: null, secret: null };
      const { key, secret } = opened;
      const mimetype = file.mimetype ? await decryptText(key, file.mimetype).catch(() => null) : null;
      // Names are shown, not applied: bidirectional controls become visible marks (src/domain/shown-names.ts).
      return { file, name: shownName(await decryptText(key, file.filename)), mimetype, secret };
    } catch {
      return { file, name: null, mimetype: null, secret: null };
    }
  }

  /** A file's stored thumbnail, decrypted (the image's bytes), or null when it has none. */
  async thumbnail(opened: OpenedFile): Promise<Uint8Array | null> {
    if (!opened.secret) return null;
    const stored = await this.session.client.thumbnail(opened.file.fileId);
    return stored && decryptChunk(await importSecret(opened.secret), stored);
  }

  /** What `downloadStream` (in the page or its service worker) needs to fetch and decrypt a file. */
  downloadFile(opened: OpenedFile): DownloadFile {
    if (!opened.secret) throw new Error('this browser cannot decrypt this file');
    const { client } = this.session;
    return {
      name: opened.name ?? opened.file.fileId,
      size: opened.file.filesize,
      chunkSize: opened.file.chunkSize,
      chunks: opened.file.chunks,
      key: opened.secret,
      siteApi: client.siteApi,
      folderId: this.session.folderId,
      fileId: opened.file.fileId,
      credentials: client.credentialHeaders(),
      uploadedAt: opened.file.createdAt,
      // Still arriving: the download waits for the chunks not stored yet.
      ...(opened.file.complete ? {} : { arriving: true }),
    };
  }

  /**
   * What a download needs, with its ticket: every download, zip entry and viewer open asks the
   * server first, which counts it (the owner's are not counted) and refuses past the limit
   * (410 `download_limit_reached`, the server's words shown). The ticket travels as a header to the
   * site's chunk endpoint only, with the other credentials (also from the service worker). A ticket
   * kept from an unfinished download of the file is used again instead (no count), until `finished`.
   * A Download button's download (`running`) holds its ticket until it ends (`interrupted` or
   * `finished`): a second Download meanwhile is a download of its own, counted, because two copies
   * fetched at once with one ticket would overrun its byte budget. The viewer's preview shares it.
   */
  async startDownload(opened: OpenedFile, { running = false } = {}): Promise<DownloadFile> {
    const file = this.downloadFile(opened);
    const id = opened.file.fileId;
    const { store } = this.session.options;
    const folderId = this.session.folderId;
    let kept = this.kept(id) ?? this.stored(id);
    // Not this page's running download, but maybe another page's or the service worker's.
    if (kept && !kept.running && (await store.ticketInUse?.(folderId, { fileId: id, ...kept }))) kept = null;
    if (!kept || (running && kept.running)) {
      const { ticket, expiresAt } = await this.session.client.startDownload(id);
      kept = { ticket, expiresAt, running: false };
      this.tickets.set(id, kept);
    } else this.tickets.set(id, kept);
    if (running) {
      kept.running = true;
      store.keepTicket?.(folderId, id, { fileId: id, ticket: kept.ticket, expiresAt: kept.expiresAt });
    }
    return {
      ...file,
      credentials: { ...file.credentials, 'x-download-ticket': kept.ticket },
      ticketExpiresAt: kept.expiresAt,
    };
  }

  /**
   * Whether this page holds a ticket no download of it uses now (kept since a failure here, or before
   * a reload): a Download can go on with it, uncounted.
   */
  holdsTicket(fileId: string): boolean {
    if (this.adoptedIds.has(fileId)) return false;
    const kept = this.kept(fileId) ?? this.stored(fileId);
    return kept !== null && !kept.running;
  }

  /**
   * Whether a download of the file runs or is paused for this page now (started here, or shown again
   * after a reload): its row says so rather than "download limit reached" (the count it used is its own).
   */
  downloading(fileId: string): boolean {
    return this.adoptedIds.has(fileId) || this.tickets.get(fileId)?.running === true;
  }

  /** The service worker holds a paused download of these files that a page before a reload started. */
  adopted(fileIds: readonly string[]): void {
    for (const id of fileIds) this.adoptedIds.add(id);
  }

  /** The files' Downloads stopped before delivery: their tickets are kept for a retry by hand. */
  interrupted(fileIds: readonly string[]): void {
    for (const id of fileIds) {
      this.adoptedIds.delete(id);
      const kept = this.tickets.get(id);
      if (kept) kept.running = false;
    }
  }

  /**
   * The files' downloads are over: delivered (every byte handed to the browser), or their tickets
   * refused as spent or expired. Their tickets are forgotten; the next download asks for a count.
   */
  finished(fileIds: readonly string[]): void {
    for (const id of fileIds) {
      this.adoptedIds.delete(id);
      this.tickets.delete(id);
      this.session.options.store.keepTicket?.(this.session.folderId, id, null);
    }
  }

  private kept(fileId: string): KeptTicket | null {
    const kept = this.tickets.get(fileId);
    if (kept && kept.expiresAt - TICKET_MARGIN_MS > Date.now()) return kept;
    this.tickets.delete(fileId);
    return null;
  }

  /** A ticket kept in the store by an earlier page of this browser (not in use by this one). */
  private stored(fileId: string): KeptTicket | null {
    const stored = this.session.options.store.keptTickets?.(this.session.folderId).find((t) => t.fileId === fileId);
    if (!stored || stored.expiresAt - TICKET_MARGIN_MS <= Date.now()) return null;
    return { ticket: stored.ticket, expiresAt: stored.expiresAt, running: false };
  }

  /** The name of the "download all" archive. */
  zipName(): string {
    return `${this.session.info.title.replace(/[\\/:*?"<>|]+/g, '_') || 'webfolder'}.zip`;
  }
}

/**
 * The key a file is encrypted under, with its secret: the folder's, or (request mode) the file's own,
 * sealed to the owner; null when this browser cannot have it (a sealed file, not the owner).
 */
async function fileKey(
  session: SessionCore,
  sealedKey: string | null,
): Promise<{ key: FolderKey; secret: string } | null> {
  if (!sealedKey) return { key: session.key, secret: session.secret };
  if (!session.owner) return null;
  const secret = await openSealedSecret(session.owner.privateKey, sealedKey);
  return { key: await importSecret(secret), secret };
}

/** A file name as stored (encrypted), decrypted where this browser can; null where it cannot. */
export async function openName(
  session: SessionCore,
  filename: string,
  sealedKey: string | null,
): Promise<string | null> {
  try {
    const opened = await fileKey(session, sealedKey);
    return opened && shownName(await decryptText(opened.key, filename));
  } catch {
    return null;
  }
}
