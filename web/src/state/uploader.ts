import {
  blobSource,
  type ChunkSource,
  createSke,
  deriveOwnerCredentials,
  encryptChunk,
  type FolderKey,
  generateSecret,
  importSecret,
  type OwnerCredentials,
  type Registrar,
  type RunFile,
  type RunOutcome,
  registerFiles,
  registrationBatches,
  resumeFile,
  type SiteClient,
  type SiteFileEntry,
  type SiteRegisteredFile,
  sealSecret,
  type UploadProgress,
  UploadRun,
} from '../core.js';
import { Emitter } from './emitter.js';
import type { PendingUpload, PickedFile, Receipt, SessionCore } from './types.js';

export interface UploadOutcome extends Pick<RunOutcome, 'state' | 'files'> {
  /** Empty files picked (the service takes no empty files). */
  readonly skippedEmpty: number;
}

type Events = {
  /** The running upload's progress (uploads run one at a time per page). */
  progress: UploadProgress;
  /** The claim was answered: this browser is now the folder's owner, or someone else was first. */
  claimed: 'owner' | 'visitor';
};

/**
 * The page's uploader: picked files are registered through the site API (the first upload of an
 * unowned folder is the claim), unfinished uploads of this browser resume, and the transfer core's
 * upload run (src/transfer/upload-run.ts) sends them; this module only chooses that registrar and
 * tells the views the run's progress ('progress'; retries go to the session's 'waiting').
 */
export class Uploader extends Emitter<Events> {
  private current: AbortController | null = null;
  /** Files this page is sending now (the list says "Uploading…" only for these). */
  private readonly sending = new Set<string>();

  constructor(private readonly session: SessionCore) {
    super();
  }

  /** Whether an upload runs now (the session does not poll meanwhile). */
  get running(): boolean {
    return this.current !== null;
  }

  /** Unfinished uploads this browser started in this folder. */
  pending(): PendingUpload[] {
    return this.session.options.store.pendingUploads(this.session.folderId);
  }

  /** Request mode, visitor: what this browser sent here (kept in this browser only). */
  receipts(): Receipt[] {
    return this.session.options.store.receipts(this.session.folderId);
  }

  /** Whether this page is sending the file now (an incomplete file nobody sends is just incomplete). */
  isUploading(fileId: string): boolean {
    return this.sending.has(fileId);
  }

  /** Stops the running upload; it can be resumed by picking the same files again. */
  cancel(): void {
    this.current?.abort();
  }

  /**
   * The page is going away (closed, reloaded, navigated): its upload stops, and recipients are told
   * at once rather than when its heartbeat runs out (src/domain/sending.ts). One request, sent as
   * the page closes (keepalive).
   */
  pageClosing(): void {
    const ids = [...this.sending];
    if (ids.length === 0) return;
    void this.session.client.sending(ids, false, { keepalive: true }).catch(() => undefined);
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
    const pending = this.pending();
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
            key: p.fileSecret ? await importSecret(p.fileSecret) : this.session.key,
            source: this.chunkSource(item.file),
          }),
        );
    }
    const sealed = this.session.info.mode === 'request' && this.session.info.owned && !this.session.info.isOwner;
    for (const batch of registrationBatches(fresh, (item) => item.file.size, this.session.info.chunkSize))
      prepared.push(...(await this.registerBatch(registrar, batch, sealed)));
    for (const p of prepared) this.sending.add(p.fileId);
    // Redraw with the registered files (and the claim's new role) before the bytes go: a page that
    // said "No files yet" or "Nobody owns this folder yet" would be stale during the whole upload.
    if (fresh.length) await this.session.refresh().catch(() => undefined);
    return this.send(registrar, prepared, skippedEmpty, items);
  }

  private async fileKey(sealed: boolean): Promise<{ key: FolderKey; fileSecret?: string; sealedKey?: string }> {
    if (!sealed) return { key: this.session.key };
    const fileSecret = generateSecret();
    return {
      key: await importSecret(fileSecret),
      fileSecret,
      sealedKey: await sealSecret(this.session.info.ownerPublicKey!, fileSecret),
    };
  }

  private chunkSource(file: Blob): ChunkSource {
    return this.session.options.chunkSource?.(file) ?? blobSource(file);
  }

  /** The site API as the upload run's registrar: registration with the claim, upload-status, fresh URLs. */
  private registrar(): Registrar {
    return {
      register: (entries) => this.claimAndRegister(entries),
      missing: async (fileId) => {
        const status = await this.session.client.status(fileId);
        return status.complete ? [] : status.missing;
      },
      renewUrls: async (fileId) => (await this.session.client.uploadUrls(fileId)).uploadUrls,
      sending: (fileIds, sending) => this.session.client.sending(fileIds, sending),
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
      this.session.options.store.addPending(this.session.folderId, pending);
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
    const visitorOnly = () => ({ visitorToken: this.session.client.credentials.visitorToken });
    if (!this.session.info.owned) {
      const secret = generateSecret();
      claiming = { secret, creds: await deriveOwnerCredentials(secret) };
      this.session.client.credentials = { ...this.session.client.credentials, ownerToken: claiming.creds.authToken };
      extra.ownerPublicKey = claiming.creds.publicKey;
      if (this.session.info.ske === null) extra.ske = await createSke(this.session.key);
    }
    let response: Awaited<ReturnType<SiteClient['register']>>;
    try {
      response = await this.session.client.register(entries, extra);
    } catch (error) {
      // A refused claim (someone else uploaded first, and the mode forbids visitors to upload):
      // drop the unused owner credential and show the folder as it now is.
      if (claiming) {
        this.session.client.credentials = visitorOnly();
        this.session.info = await this.session.client.info().catch(() => this.session.info);
      }
      throw error;
    }
    if (claiming) {
      if (response.role === 'owner') {
        this.session.options.store.saveOwnerSecret(this.session.folderId, claiming.secret);
        this.session.owner = claiming.creds;
        this.session.ownerSecret = claiming.secret;
      } else {
        this.session.client.credentials = visitorOnly();
      }
      this.session.info = await this.session.client.info();
      this.emit('claimed', response.role === 'owner' ? 'owner' : 'visitor');
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
    this.current = running;
    // After Cancel, files picked again start another send at once: what the cancelled one still
    // reports (its abort settles later) must not reach the views, which now show the new one.
    const report = () => {
      if (this.current === running) this.emit('progress', run.progress());
    };
    const run: UploadRun = new UploadRun(prepared, registrar, {
      ...this.session.options.http,
      ...(this.session.options.transport ? { fetch: this.session.options.transport } : {}),
      ...(this.session.options.concurrency ? { concurrency: this.session.options.concurrency } : {}),
      signal: running.signal,
      failFast: false,
      onEvent: (event) => {
        // A chunk PUT waits to be retried (offline, server busy): the views tell the person.
        if (event.type === 'retry') {
          if (this.current === running) this.session.waiting(event.info);
          return;
        }
        if (event.type === 'file-done') {
          const f = run.files[event.file]!;
          this.session.options.store.removePending(this.session.folderId, f.fileId);
          const item = picked.find((i) => i.path === f.name);
          if (item) thumbnails.push(this.storeThumbnail(f.fileId, prepared[event.file]!.key, item));
          if (this.session.info.mode === 'request' && !this.session.info.isOwner)
            this.session.options.store.addReceipt(this.session.folderId, {
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
      if (this.current === running) this.current = null;
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
      const made = await this.session.options.thumbnailer?.(item.file, item.path);
      if (made) await this.session.client.putThumbnail(fileId, await encryptChunk(key, made));
    } catch {
      // nothing stored: the grid falls back to making one
    }
  }
}
