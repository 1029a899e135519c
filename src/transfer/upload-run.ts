import type { UploadUrls } from '../contract/types.js';
import { encryptText, type FolderKey } from '../crypto/index.js';
import { MAX_CHUNKS_PER_FILE } from '../domain/chunk-plan.js';
import { MAX_SENDING_FILES, SENDING_BEAT_MS } from '../domain/sending.js';
import { type ChunkSource, type EngineOptions, sendChunks, type UploadJob } from './engine.js';
import { AbortedError, ProtocolError } from './errors.js';
import { allChunks, type ChunkPlan, filePlan, storedBytes } from './plan.js';
import type { RetryInfo } from './retry.js';

/**
 * The one upload orchestrator of every client (the page, the library, the CLI): it encrypts the
 * name and type entries, has them registered, turns the server's plans into engine jobs, runs the
 * engine (engine.ts), keeps the one progress model (bytes stored, bytes on their way, each file's
 * state) and the second round (ask upload-status, send what it still lists). How files are
 * registered and asked about is all a client chooses, through a `Registrar`: the v2 API for the
 * library and CLI (direct-upload.ts), the site API with the claim for the page (web/src).
 */

/** A registered file as both APIs answer it: its id, the server's plan and its chunk URLs. */
export interface RegisteredPlan {
  readonly fileId: string;
  readonly chunkSize: number;
  readonly chunks: number;
  readonly uploadUrls: UploadUrls;
}

/** One file's entry as both APIs take it: name and type encrypted under the file's key. */
export interface EncryptedEntry {
  readonly filename: string;
  readonly filesize: number;
  readonly mimetype?: string;
  /** Request mode: the file's own secret sealed to the owner. */
  readonly sealedKey?: string;
}

/** How files get registered and what the server says about them: the part each client chooses. */
export interface Registrar {
  /** Registers the entries (one request, in order); answers each file's plan, in the same order. */
  register(entries: readonly EncryptedEntry[]): Promise<readonly RegisteredPlan[]>;
  /** The server's list of chunks it still misses (upload-status); empty when the file is complete. */
  missing(fileId: string): Promise<readonly number[]>;
  /** Fresh chunk URLs for a file whose URLs were refused (401/403: expired); none without it. */
  renewUrls?(fileId: string): Promise<UploadUrls>;
  /**
   * Tells the server these files are still being sent (`sending` true: the run's heartbeat, every
   * SENDING_BEAT_MS) or stopped (Cancel, a failure): what recipients see (src/domain/sending.ts).
   * None without it (the v2 API has no such call).
   */
  sending?(fileIds: readonly string[], sending: boolean): Promise<void>;
}

/** A file to register: plaintext name and type (encrypted here), its key and where its bytes are read. */
export interface NewFile {
  readonly name: string;
  readonly size: number;
  readonly mimetype?: string | undefined;
  readonly key: FolderKey;
  readonly sealedKey?: string | undefined;
  readonly source: ChunkSource;
}

/** A registered file ready to send: its plan, key, source, URLs and the chunks still to send. */
export interface RunFile {
  readonly fileId: string;
  readonly name: string;
  readonly size: number;
  readonly plan: ChunkPlan;
  readonly key: FolderKey;
  readonly source: ChunkSource;
  readonly urls: UploadUrls;
  /** Chunks to send: all of them after a registration, upload-status's missing list on a resume. */
  readonly todo: readonly number[];
}

/** Encrypts each file's name and type under its key: the entry both APIs register. */
export function encryptEntries(files: readonly NewFile[]): Promise<EncryptedEntry[]> {
  return Promise.all(
    files.map(
      async (f): Promise<EncryptedEntry> => ({
        filename: await encryptText(f.key, f.name),
        filesize: f.size,
        ...(f.mimetype ? { mimetype: await encryptText(f.key, f.mimetype) } : {}),
        ...(f.sealedKey ? { sealedKey: f.sealedKey } : {}),
      }),
    ),
  );
}

/** Encrypts the entries, registers them (one request) and answers files ready to send. */
export async function registerFiles(registrar: Registrar, files: readonly NewFile[]): Promise<RunFile[]> {
  const registered = await registrar.register(await encryptEntries(files));
  if (registered.length !== files.length)
    throw new ProtocolError('register files', `registered ${registered.length} files for ${files.length} requested`);
  return registered.map((r, i) => {
    const f = files[i]!;
    const plan = checkedPlan(f.name, f.size, r);
    return {
      fileId: r.fileId,
      name: f.name,
      size: f.size,
      plan,
      key: f.key,
      source: f.source,
      urls: r.uploadUrls,
      todo: allChunks(plan),
    };
  });
}

/** A file registered earlier (a resume): what upload-status lists as missing is what is left to send. */
export async function resumeFile(
  registrar: Registrar,
  file: Omit<RunFile, 'todo' | 'plan' | 'urls'> & {
    readonly chunkSize: number;
    readonly chunks: number;
    readonly urls?: UploadUrls;
  },
): Promise<RunFile> {
  const [missing, urls] = await Promise.all([
    registrar.missing(file.fileId),
    file.urls ?? registrar.renewUrls?.(file.fileId),
  ]);
  if (!urls) throw new ProtocolError('resume', `no chunk URLs for ${file.name}`);
  const plan = filePlan(file.size, file.chunkSize, file.chunks, file.name);
  const { chunkSize: _, chunks: __, ...rest } = file;
  return { ...rest, plan, urls, todo: inPlan(plan, missing) };
}

/** The server's plan must describe the file we have, or every chunk would be refused. */
export function checkedPlan(name: string, size: number, r: RegisteredPlan): ChunkPlan {
  if (
    r.chunks !== Math.ceil(size / r.chunkSize) ||
    r.chunks > MAX_CHUNKS_PER_FILE ||
    r.uploadUrls.signatures.length !== r.chunks
  ) {
    throw new ProtocolError(
      'register files',
      `inconsistent chunk plan for ${name}: ${r.chunks} chunks of ${r.chunkSize} bytes, ${r.uploadUrls.signatures.length} signatures`,
    );
  }
  return filePlan(size, r.chunkSize, r.chunks, name);
}

/** Chunk order of file.kiwi's clients: the first, then the last, then the rest ascending. */
export function chunkOrder(todo: readonly number[]): number[] {
  if (todo.length <= 2) return [...todo];
  return [todo[0]!, todo[todo.length - 1]!, ...todo.slice(1, -1)];
}

function inPlan(plan: ChunkPlan, missing: readonly number[]): number[] {
  return missing.filter((n) => n >= 1 && n <= plan.chunks);
}

export type FileState = 'waiting' | 'uploading' | 'done' | 'failed' | 'cancelled';

/** How long a run is watched before its time left is told: a full window of the speed estimate. */
export const ETA_AFTER_MS = 5000;

/** One file of an upload run, as progress shows it. */
export interface FileUpload {
  readonly fileId: string;
  readonly name: string;
  readonly size: number;
  /** Plaintext bytes stored on the server (including what an earlier run sent). */
  stored: number;
  /** Plaintext bytes on their way, per chunk. */
  readonly sending: Map<number, number>;
  state: FileState;
  error?: unknown;
}

export interface UploadProgress {
  readonly files: readonly FileUpload[];
  readonly total: number;
  /** Bytes stored plus bytes on their way. */
  readonly sent: number;
  /** Bytes per second over the last 5 seconds. */
  readonly speed: number;
  readonly etaMs: number;
}

/** What happens during a run; the model (`UploadRun.files`, `progress()`) is already updated. */
export type RunEvent =
  | { readonly type: 'sending' | 'chunk'; readonly file: number; readonly chunk: number; readonly bytes: number }
  | { readonly type: 'file-done'; readonly file: number }
  | { readonly type: 'file-failed'; readonly file: number; readonly error: unknown }
  | { readonly type: 'retry'; readonly info: RetryInfo };

export interface RunOptions extends Omit<EngineOptions, 'onEvent' | 'renewUrls'> {
  /** Rounds of send-then-check (default 2: a second round sends what upload-status still lists). */
  readonly rounds?: number;
  readonly onEvent?: (event: RunEvent) => void;
  /** Clock of the speed estimate, in ms (tests give their own). */
  readonly clock?: () => number;
}

export interface RunOutcome {
  readonly state: 'complete' | 'failed' | 'cancelled';
  readonly files: readonly FileUpload[];
  /** Chunks this run stored. */
  readonly chunksSent: number;
}

/**
 * One upload of registered files. With `failFast` (the library, the CLI) the first failure stops it
 * and is thrown; without (the page) a failure fails its file, Cancel (the signal) resolves
 * 'cancelled', and the other files go on.
 */
export class UploadRun {
  readonly files: FileUpload[];
  private readonly speed: (bytes: number) => number;
  private todo: number[][];

  constructor(
    private readonly runFiles: readonly RunFile[],
    private readonly registrar: Registrar,
    private readonly options: RunOptions = {},
  ) {
    this.todo = runFiles.map((f) => [...f.todo]);
    this.files = runFiles.map((f) => ({
      fileId: f.fileId,
      name: f.name,
      size: f.size,
      stored: storedBytes(f.plan, f.todo),
      sending: new Map(),
      state: 'waiting',
    }));
    this.speed = speedometer(options.clock);
  }

  progress(): UploadProgress {
    const total = this.files.reduce((sum, f) => sum + f.size, 0);
    let sent = 0;
    for (const f of this.files) {
      sent += f.stored;
      for (const b of f.sending.values()) sent += b;
    }
    const rate = this.speed(sent);
    const now = (this.options.clock ?? (() => performance.now()))();
    this.watchedSince ??= now;
    // The speed of the first seconds (connections opening, the first chunks encrypting) says little:
    // no time left is told before ETA_AFTER_MS of the run were watched (Infinity: "—").
    const settled = now - this.watchedSince >= ETA_AFTER_MS;
    return {
      files: this.files,
      total,
      sent,
      speed: rate,
      etaMs: rate > 0 && settled ? ((total - sent) * 1000) / rate : Infinity,
    };
  }

  /** When progress was first asked for (the run's clock). */
  private watchedSince: number | null = null;

  /** Bytes stored on the server, by the model (what `progress()` counts without bytes on their way). */
  stored(): number {
    return this.files.reduce((sum, f) => sum + f.stored, 0);
  }

  /** The files not finished: what the heartbeat speaks for. */
  private unfinished(): string[] {
    return this.files.filter((f) => f.state !== 'done' && f.state !== 'failed').map((f) => f.fileId);
  }

  async run(): Promise<RunOutcome> {
    const beat = heartbeat(this.registrar);
    beat.start(() => this.unfinished());
    try {
      return await this.runRounds();
    } finally {
      // Whatever did not finish (cancelled, failed, or the run threw) stopped: recipients see it now.
      beat.stop(this.files.filter((f) => f.state !== 'done').map((f) => f.fileId));
    }
  }

  private async runRounds(): Promise<RunOutcome> {
    const failFast = this.options.failFast ?? true;
    const rounds = Math.max(1, this.options.rounds ?? 2);
    let chunksSent = 0;
    let cancelled = false;
    try {
      for (let round = 0; round < rounds; round++) {
        const live = (i: number) => this.files[i]!.state !== 'failed';
        if (this.todo.every((t, i) => t.length === 0 || !live(i))) break;
        const jobs: UploadJob[] = this.runFiles.map((f, i) => ({
          label: f.name,
          plan: f.plan,
          key: f.key,
          source: f.source,
          urls: f.urls,
          todo: live(i) ? chunkOrder(this.todo[i]!) : [],
        }));
        const result = await sendChunks(jobs, this.engineOptions(failFast));
        chunksSent += result.chunksSent;
        await this.check(round === rounds - 1, failFast);
      }
    } catch (error) {
      if (failFast || !(error instanceof AbortedError)) throw error;
      cancelled = true;
      for (const f of this.files) {
        f.sending.clear();
        if (f.state === 'waiting' || f.state === 'uploading') f.state = 'cancelled';
      }
    }
    for (let i = 0; i < this.files.length; i++) if (this.todo[i]!.length === 0) this.done(i);
    const failed = this.files.some((f) => f.state === 'failed');
    return { state: failed ? 'failed' : cancelled ? 'cancelled' : 'complete', files: this.files, chunksSent };
  }

  private engineOptions(failFast: boolean): EngineOptions {
    const { onEvent: _, rounds: __, clock: ___, ...engine } = this.options;
    const renew = this.registrar.renewUrls?.bind(this.registrar);
    return {
      ...engine,
      failFast,
      ...(renew ? { renewUrls: (i: number) => renew(this.runFiles[i]!.fileId) } : {}),
      onEvent: (event) => {
        if (event.type === 'retry') return this.emit(event);
        const i = event.job;
        const f = this.files[i]!;
        if (event.type === 'sending') {
          f.state = 'uploading';
          f.sending.set(event.chunk, event.bytes);
          this.emit({ type: 'sending', file: i, chunk: event.chunk, bytes: event.bytes });
        } else if (event.type === 'chunk') {
          f.sending.delete(event.chunk);
          f.stored += event.bytes;
          this.emit({ type: 'chunk', file: i, chunk: event.chunk, bytes: event.bytes });
        } else if (event.type === 'job-done') {
          this.todo[i] = [];
          this.done(i);
        } else {
          this.fail(i, event.error);
        }
      },
    };
  }

  /** Asks upload-status about every file the engine finished: a chunk it still misses goes again. */
  private async check(last: boolean, failFast: boolean): Promise<void> {
    await Promise.all(
      this.files.map(async (f, i) => {
        if (f.state === 'failed') return;
        let missing: number[];
        try {
          missing = inPlan(this.runFiles[i]!.plan, await this.registrar.missing(f.fileId));
        } catch (error) {
          if (failFast) throw error;
          return this.fail(i, error);
        }
        this.todo[i] = missing;
        if (missing.length === 0) return;
        f.stored = storedBytes(this.runFiles[i]!.plan, missing);
        if (!last) return;
        const error = new ProtocolError(
          'upload status',
          `still lists ${missing.length} missing chunks of ${f.name} after they were all accepted`,
        );
        if (failFast) throw error;
        this.fail(i, error);
      }),
    );
  }

  private readonly reported = new Set<number>();

  /** A file is done once: later rounds may send it again, its 'file-done' is not told twice. */
  private done(i: number): void {
    const f = this.files[i]!;
    if (f.state === 'failed' || f.state === 'cancelled') return;
    f.state = 'done';
    if (this.reported.has(i)) return;
    this.reported.add(i);
    this.emit({ type: 'file-done', file: i });
  }

  private fail(i: number, error: unknown): void {
    const f = this.files[i]!;
    f.state = 'failed';
    f.error = error;
    f.sending.clear();
    this.emit({ type: 'file-failed', file: i, error });
  }

  private emit(event: RunEvent): void {
    this.options.onEvent?.(event);
  }
}

/**
 * A run's heartbeat: the registrar told at once and every SENDING_BEAT_MS which files are still being
 * sent, then which stopped. The beats go one after another (a stop never overtaken by an earlier
 * beat) and on a best-effort basis: a lost one only lets a file look stopped sooner.
 */
function heartbeat(registrar: Registrar): { start(ids: () => string[]): void; stop(ids: string[]): void } {
  const say = registrar.sending?.bind(registrar);
  let chain: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tell = (ids: readonly string[], sending: boolean) => {
    if (!say || ids.length === 0) return;
    for (let i = 0; i < ids.length; i += MAX_SENDING_FILES) {
      const page = ids.slice(i, i + MAX_SENDING_FILES);
      chain = chain.then(() => say(page, sending)).catch(() => undefined);
    }
  };
  return {
    start(ids) {
      if (!say) return;
      const tick = () => {
        tell(ids(), true);
        timer = setTimeout(tick, SENDING_BEAT_MS);
        // A Node process (the library) does not stay up for a heartbeat.
        (timer as { unref?: () => void }).unref?.();
      };
      tick();
    },
    stop(ids) {
      if (timer) clearTimeout(timer);
      timer = null;
      tell(ids, false);
    },
  };
}

/** Bytes per second over the last 5 seconds of samples (`clock` in milliseconds: tests give their own). */
export function speedometer(clock: () => number = () => performance.now()): (bytes: number) => number {
  const samples: Array<[number, number]> = [];
  return (bytes) => {
    const now = clock();
    samples.push([now, bytes]);
    while (samples.length > 2 && now - samples[0]![0] > 5000) samples.shift();
    const [t0, b0] = samples[0]!;
    // Bytes of unfinished chunks are dropped on Cancel or failure, so the total can go down: never a negative speed.
    return now > t0 ? Math.max(0, ((bytes - b0) * 1000) / (now - t0)) : 0;
  };
}
