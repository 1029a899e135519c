import type { SiteFolderUpdate } from '../contract/site.js';
import type { CreateResponseDirect, FileEntry } from '../contract/types.js';
import {
  createSke,
  encryptText,
  generateSecret,
  importSecret,
  newPasswordParams,
  type PasswordParams,
  passwordSecret,
} from '../crypto/index.js';
import { MAX_FILE_SIZE, MAX_FILES_PER_REQUEST, MAX_NOTE_CHARS } from '../domain/limits.js';
import { shareLink } from '../domain/links.js';
import { blobSource, type ChunkSource, type EngineOptions } from './engine.js';
import { InputError, ProtocolError } from './errors.js';
import { registrationBatches } from './plan.js';
import type { HttpOptions, RetryInfo, RetryOptions } from './retry.js';
import { SiteClient } from './site-client.js';
import type { UploadState, UploadStateFile } from './state.js';
import {
  checkedPlan,
  type EncryptedEntry,
  type RegisteredPlan,
  type Registrar,
  type RunFile,
  registerFiles,
  resumeFile,
  UploadRun,
} from './upload-run.js';
import { siteApiFor } from './urls.js';
import { createFolder, getUploadStatus, type Mode } from './v2.js';

export { chunkOrder } from './upload-run.js';

/**
 * The v2 direct-upload flow over the upload engine (engine.ts), isomorphic: it sees files only
 * through `UploadFile.read(offset, length)`, which the Node module implements with positional reads
 * of a file on disk and the browser with `Blob.slice`.
 */
type FolderKey = Awaited<ReturnType<typeof importSecret>>;

export interface UploadFile extends ChunkSource {
  /** Plaintext file name; encrypted before it leaves the client. */
  readonly name: string;
  /** Plaintext size in bytes (> 0). */
  readonly size: number;
  /** Optional media type; encrypted like the name. */
  readonly mimetype?: string;
  /** Local identity kept in the resume state (absolute path in Node). */
  readonly path?: string | null;
  /** Modification time in ms, checked again on resume. */
  readonly mtime?: number | null;
}

export type UploadEvent =
  | {
      readonly type: 'registered';
      readonly folderId: string;
      readonly files: readonly ProgressFile[];
      readonly totalBytes: number;
      readonly doneBytes: number;
    }
  | {
      readonly type: 'chunk';
      readonly file: number;
      readonly chunk: number;
      /** Plaintext bytes of this chunk. */
      readonly bytes: number;
      readonly fileDoneBytes: number;
      readonly doneBytes: number;
      readonly totalBytes: number;
    }
  | { readonly type: 'file-complete'; readonly file: number }
  | { readonly type: 'retry'; readonly info: RetryInfo };

export interface ProgressFile {
  readonly name: string;
  readonly size: number;
  readonly fileId: string;
  readonly chunks: number;
  /** Plaintext bytes already on the server when this run started (resume). */
  readonly doneBytes: number;
}

export interface TransferOptions extends Omit<HttpOptions, 'onRetry'> {
  /** API base address, e.g. http://127.0.0.1:8080. */
  readonly server: string;
  /** Chunks in flight at once (default 4). */
  readonly concurrency?: number;
  /**
   * Chunks being encrypted at once (default 1). Encryption is CPU work; PUTs are mostly waiting.
   * Keeping it apart lets 4 PUTs overlap while the CPU (often shared with a local server, or with
   * the browser's page) is not oversubscribed by parallel encryption.
   */
  readonly encryptConcurrency?: number;
  /** Encrypts one chunk (default: `encryptChunk`, WebCrypto; the Node library passes node:crypto's). */
  readonly encrypt?: EngineOptions['encrypt'];
  readonly retry?: RetryOptions;
  readonly onProgress?: (event: UploadEvent) => void;
}

export interface UploadOptions extends TransferOptions {
  readonly title?: string | null;
  readonly mode?: Mode;
  /**
   * Called once the files are registered, before any chunk is sent, with everything `resume` needs.
   * The CLI writes it to its state file here. Awaited: the upload starts after it resolves.
   */
  readonly onState?: (state: UploadState) => void | Promise<void>;
  /**
   * A password in addition to the link (docs/encryption.md section 9; not in request mode): names
   * and chunks are encrypted under the secret derived from both, and the folder's password
   * parameters are set before any chunk is sent. Costs about a second (scrypt).
   */
  readonly password?: string;
  /** When the files stop being available (epoch ms; at most the operator's maximum from now). */
  readonly expiresAt?: number;
  /** The folder's download limit per file. */
  readonly maxDownloads?: number;
  /**
   * A note to recipients (at most MAX_NOTE_CHARS), encrypted under the folder key like the names;
   * the page shows it decrypted above the files.
   */
  readonly note?: string;
  /** The site's address when it differs from the folder URL's (where the settings are sent). */
  readonly site?: string;
}

export interface UploadResult {
  /** The share link: folderUrl + "#" + secret. Whoever holds it can decrypt the folder. */
  readonly link: string;
  readonly folderId: string;
  readonly folderUrl: string;
  readonly uploadAuth: string;
  readonly secret: string;
  readonly fileIds: readonly string[];
  readonly files: readonly {
    readonly name: string;
    readonly fileId: string;
    readonly size: number;
    readonly chunks: number;
  }[];
  /** Chunks this run PUT successfully (resume: only the missing ones). */
  readonly chunksSent: number;
}

/** Refuses what the service would refuse, before anything is created. */
export function checkUploadFiles(files: readonly UploadFile[]): void {
  if (files.length === 0) throw new InputError('nothing to upload: give at least one file');
  files.forEach((f, i) => {
    if (!f.name) throw new InputError(`file ${i + 1} has no name`);
    if (!Number.isSafeInteger(f.size) || f.size <= 0)
      throw new InputError(`${f.name} is empty: the service only takes files of at least 1 byte`);
    if (f.size > MAX_FILE_SIZE)
      throw new InputError(`${f.name} is larger than the service's limit of ${MAX_FILE_SIZE} bytes`);
  });
}

/**
 * Encrypts names and bytes under a fresh folder secret, registers the files (one folder: the v2
 * create takes the first MAX_FILES_PER_REQUEST, the site's registration the rest, as the page adds
 * files to a folder; the server's MAX_FILES_PER_FOLDER bounds the whole), uploads every chunk with bounded parallelism and retries, checks upload-status, and
 * returns the share link. The upload run (upload-run.ts) does the work; this module only registers
 * through the v2 API.
 */
export async function upload(files: readonly UploadFile[], options: UploadOptions): Promise<UploadResult> {
  checkUploadFiles(files);
  if (options.password !== undefined && options.mode === 'request')
    throw new InputError('a request folder cannot have a password: its files are sealed to the owner instead');
  if (options.password === '') throw new InputError('the password is empty');
  checkNote(options.note);
  const secret = generateSecret();
  const password: PasswordParams | null = options.password ? newPasswordParams() : null;
  // A password folder is encrypted under the effective secret; the link keeps the link secret.
  const keySecret = password ? await passwordSecret(secret, options.password!, password) : secret;
  const key = await importSecret(keySecret);
  const ske = await createSke(key);
  let created: CreateResponseDirect | null = null;
  let registered: readonly RegisteredPlan[] = [];
  const http = httpOptions(options);
  const registrar: Registrar = {
    register: async (all) => {
      const entries = all.slice(0, MAX_FILES_PER_REQUEST);
      const folder = await createFolder({
        server: options.server,
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.mode !== undefined ? { mode: options.mode } : {}),
        ske,
        files: entries.map(({ filename, filesize, mimetype }) => ({
          filename,
          filesize,
          ...(mimetype ? { mimetype } : {}),
        })) as [FileEntry, ...FileEntry[]],
        ...http,
      });
      await applySettings(folder.folderUrl, folder.folderId, folder.uploadAuth, password, key, options);
      created = folder;
      registered = [...folder.files, ...(await registerRest(folder, all.slice(entries.length), options))];
      return registered;
    },
    missing: () => Promise.reject(new Error('no folder yet')),
  };
  const runFiles = await registerFiles(
    registrar,
    files.map((f) => ({ name: f.name, size: f.size, mimetype: f.mimetype, key, source: f })),
  );
  const folder = created as CreateResponseDirect | null;
  if (!folder) throw new ProtocolError('create folder', 'no folder was created');
  const state: UploadState = {
    version: 1,
    server: options.server,
    folderId: folder.folderId,
    folderUrl: folder.folderUrl,
    uploadAuth: folder.uploadAuth,
    secret,
    ...(keySecret !== secret ? { key: keySecret } : {}),
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    files: registered.map((r, i) => stateFile(files[i]!, r)),
  };
  await options.onState?.(state);
  return transfer(state, runFiles, v2Registrar(state, http), options);
}

/** A note's plaintext: empty means none; longer than MAX_NOTE_CHARS is refused before anything is sent. */
export function checkNote(note: string | undefined): void {
  if (note !== undefined && note.length > MAX_NOTE_CHARS)
    throw new InputError(`the note has ${note.length} characters: at most ${MAX_NOTE_CHARS}`);
}

/**
 * The folder's settings (password parameters, expiry, download limit, note), set as its owner right after
 * the create and before any chunk: the server takes a password only while no file is complete. If
 * the server refuses them, the new folder is deleted again (best effort): without its password
 * parameters nobody could open it.
 */
async function applySettings(
  folderUrl: string,
  folderId: string,
  uploadAuth: string,
  password: PasswordParams | null,
  key: FolderKey,
  options: UploadOptions,
): Promise<void> {
  const update: SiteFolderUpdate = {
    ...(password ? { password } : {}),
    ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}),
    ...(options.maxDownloads !== undefined ? { maxDownloads: options.maxDownloads } : {}),
    ...(options.note ? { note: await encryptText(key, options.note) } : {}),
  };
  if (Object.keys(update).length === 0) return;
  const client = new SiteClient(siteApiFor(folderUrl, options.site), folderId, { uploadAuth }, httpOptions(options));
  try {
    await client.updateFolder(update);
  } catch (error) {
    await client.deleteFolder().catch(() => undefined);
    throw error;
  }
}

/**
 * Finishes an upload from its state: asks upload-status for every file and sends only the missing
 * chunks. `files` are the same sources, in the same order (the Node `resume` opens them from the
 * state's paths and refuses a file whose size or mtime changed).
 */
export async function resumeUpload(
  state: UploadState,
  files: readonly UploadFile[],
  options: TransferOptions,
): Promise<UploadResult> {
  if (files.length !== state.files.length)
    throw new InputError(`the state has ${state.files.length} files, ${files.length} sources were given`);
  state.files.forEach((f, i) => {
    checkedPlan(f.name, f.size, f);
    if (files[i]!.size !== f.size)
      throw new InputError(`${f.name}: size ${files[i]!.size} differs from the registered ${f.size}`);
  });
  const key = await importSecret(state.key ?? state.secret);
  const at = onServer(state, options.server);
  const registrar = v2Registrar(at, httpOptions(options));
  const runFiles = await Promise.all(
    at.files.map((f, i) =>
      resumeFile(registrar, {
        fileId: f.fileId,
        name: f.name,
        size: f.size,
        chunkSize: f.chunkSize,
        chunks: f.chunks,
        key,
        source: files[i]!,
        urls: f.uploadUrls,
      }),
    ),
  );
  return transfer(state, runFiles, registrar, options);
}

/**
 * The files past the v2 create's ten, registered as the folder's owner (its uploadAuth) through the
 * site's registration, in the batches it accepts. Should that fail, the half-made folder is deleted
 * (best effort): a folder missing some of the files asked for is not what the person wanted.
 */
async function registerRest(
  folder: CreateResponseDirect,
  rest: readonly EncryptedEntry[],
  options: UploadOptions,
): Promise<RegisteredPlan[]> {
  if (rest.length === 0) return [];
  const client = new SiteClient(
    siteApiFor(folder.folderUrl, options.site),
    folder.folderId,
    { uploadAuth: folder.uploadAuth },
    httpOptions(options),
  );
  const out: RegisteredPlan[] = [];
  try {
    for (const batch of registrationBatches(rest, (e) => e.filesize, folder.files[0]!.chunkSize)) {
      const answer = await client.register(
        batch.map(({ filename, filesize, mimetype }) => ({ filename, filesize, ...(mimetype ? { mimetype } : {}) })),
      );
      out.push(...answer.files);
    }
  } catch (error) {
    await client.deleteFolder().catch(() => undefined);
    throw error;
  }
  return out;
}

function stateFile(file: UploadFile, registered: RegisteredPlan): UploadStateFile {
  return {
    path: file.path ?? null,
    name: file.name,
    fileId: registered.fileId,
    size: file.size,
    mtime: file.mtime ?? null,
    chunkSize: registered.chunkSize,
    chunks: registered.chunks,
    uploadUrls: registered.uploadUrls,
  };
}

/**
 * The state on `server`, another node of its deployment (`resume --server`): upload-status and chunk
 * URLs of the first node (local backend) go there; object storage URLs stay. Nodes share the secret.
 */
function onServer(state: UploadState, server: string): UploadState {
  const from = state.server.replace(/\/+$/, '');
  const to = server.replace(/\/+$/, '');
  if (from === to) return state;
  const moved = (head: string) => (head.startsWith(`${from}/`) ? `${to}${head.slice(from.length)}` : head);
  return {
    ...state,
    server: to,
    files: state.files.map((f) => ({ ...f, uploadUrls: { ...f.uploadUrls, head: moved(f.uploadUrls.head) } })),
  };
}

/** A folder made by the v2 API: its files are asked about with upload-status and its uploadAuth. */
function v2Registrar(state: UploadState, http: HttpOptions): Registrar {
  return {
    register: () => Promise.reject(new Error('the folder is registered already')),
    missing: async (fileId) => {
      const status = await getUploadStatus({
        server: state.server,
        folderId: state.folderId,
        fileId,
        uploadAuth: state.uploadAuth,
        ...http,
      });
      return status.complete ? [] : status.missing;
    },
  };
}

function httpOptions(options: TransferOptions): HttpOptions {
  return {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onRetry: (info) => options.onProgress?.({ type: 'retry', info }),
  };
}

/** Runs the upload and tells its progress as the library's events. */
async function transfer(
  state: UploadState,
  runFiles: readonly RunFile[],
  registrar: Registrar,
  options: TransferOptions,
): Promise<UploadResult> {
  const totalBytes = state.files.reduce((sum, f) => sum + f.size, 0);
  const run: UploadRun = new UploadRun(runFiles, registrar, {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.encryptConcurrency !== undefined ? { encryptConcurrency: options.encryptConcurrency } : {}),
    ...(options.encrypt ? { encrypt: options.encrypt } : {}),
    onEvent: (event) => {
      if (event.type === 'retry') options.onProgress?.({ type: 'retry', info: event.info });
      else if (event.type === 'file-done') options.onProgress?.({ type: 'file-complete', file: event.file });
      else if (event.type === 'chunk')
        options.onProgress?.({
          type: 'chunk',
          file: event.file,
          chunk: event.chunk,
          bytes: event.bytes,
          fileDoneBytes: run.files[event.file]!.stored,
          doneBytes: run.stored(),
          totalBytes,
        });
    },
  });
  options.onProgress?.({
    type: 'registered',
    folderId: state.folderId,
    totalBytes,
    doneBytes: run.stored(),
    files: state.files.map((f, i) => ({
      name: f.name,
      size: f.size,
      fileId: f.fileId,
      chunks: f.chunks,
      doneBytes: run.files[i]!.stored,
    })),
  });
  const { chunksSent } = await run.run();
  return {
    link: shareLink(state.folderUrl, state.secret),
    folderId: state.folderId,
    folderUrl: state.folderUrl,
    uploadAuth: state.uploadAuth,
    secret: state.secret,
    fileIds: state.files.map((f) => f.fileId),
    files: state.files.map((f) => ({ name: f.name, fileId: f.fileId, size: f.size, chunks: f.chunks })),
    chunksSent,
  };
}

/** An UploadFile over a Blob or browser File (also works in Node 20). */
export function blobFile(blob: Blob, name?: string): UploadFile {
  const fileName = name ?? (blob as Blob & { name?: string }).name;
  if (!fileName) throw new InputError('a Blob needs a name');
  const lastModified = (blob as Blob & { lastModified?: number }).lastModified;
  return {
    name: fileName,
    size: blob.size,
    ...(blob.type ? { mimetype: blob.type } : {}),
    path: null,
    mtime: lastModified ?? null,
    ...blobSource(blob),
  };
}
