import type { UploadUrls } from '../contract/types.js';
import { encryptChunk, type FolderKey } from '../crypto/index.js';
import { AbortedError, InputError, WebfolderError } from './errors.js';
import { type ChunkPlan, chunkOffset, encryptedLength, plaintextChunkLength } from './plan.js';
import { type HttpOptions, linkedController, type RetryInfo } from './retry.js';
import { putChunk } from './v2.js';

/**
 * The upload engine shared by the page, the library and the CLI: reads each chunk from its source
 * when its turn comes, encrypts it (one RFC 8188 message per chunk) and PUTs it to its file.kiwi
 * chunk URL through the one retry policy, several chunks at once. At any moment each worker holds
 * one plaintext chunk and its ciphertext, nothing more, whatever the file size.
 *
 * The transport is pluggable (`fetch` in HttpOptions): the page plugs in XMLHttpRequest so that it
 * can show bytes leaving during a chunk, Node a node:http sender that does not copy the body.
 */
export interface ChunkSource {
  /**
   * Exactly `length` plaintext bytes starting at `offset`. When `into` is given (at least `length`
   * bytes), a source may fill it and return a view of it instead of allocating: the engine reuses
   * one buffer per encryption slot, so a large upload does not churn the garbage collector.
   */
  read(offset: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  /**
   * Reads and encrypts a chunk in one step elsewhere (the page's crypto workers). When present the
   * engine uses it instead of `read` and the `encrypt` option; the length is checked after. It may
   * answer a browser's `Blob` of the ciphertext (built from the message's parts as the worker
   * answered them, so that its bytes are copied once, into the body).
   */
  sealed?(key: FolderKey, offset: number, length: number): Promise<Uint8Array | Blob>;
}

/** Chunks read from a Blob or browser File when their turn comes (`Blob.slice`), never the whole file. */
export function blobSource(blob: Blob): ChunkSource {
  return {
    async read(offset, length) {
      return new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
    },
  };
}

export interface UploadJob {
  /** The file's name, for messages (never sent anywhere). */
  readonly label: string;
  readonly plan: ChunkPlan;
  readonly key: FolderKey;
  readonly source: ChunkSource;
  /** Presigned chunk URLs; replaced when `renewUrls` re-signs them. */
  urls: UploadUrls;
  /** The chunks to send, in the order to send them. */
  readonly todo: readonly number[];
}

export type EngineEvent =
  /** Bytes of a chunk on their way (plaintext bytes, estimated from the ciphertext sent). */
  | { readonly type: 'sending'; readonly job: number; readonly chunk: number; readonly bytes: number }
  /** A chunk is stored: `bytes` plaintext bytes. */
  | { readonly type: 'chunk'; readonly job: number; readonly chunk: number; readonly bytes: number }
  | { readonly type: 'job-done'; readonly job: number }
  | { readonly type: 'job-failed'; readonly job: number; readonly error: unknown }
  | { readonly type: 'retry'; readonly info: RetryInfo };

export interface EngineOptions extends Omit<HttpOptions, 'onRetry'> {
  /** Chunks in flight at once (default 4). */
  readonly concurrency?: number;
  /**
   * Chunks being encrypted at once (default 1). Encryption is CPU work; PUTs are mostly waiting.
   * Keeping it apart lets 4 PUTs overlap while the CPU (often shared with a local server, or with
   * the browser's page) is not oversubscribed by parallel encryption.
   */
  readonly encryptConcurrency?: number;
  /**
   * true (default, the library and CLI): the first failure stops everything and is thrown, and the
   * first chunk goes alone, so a server refusing the URLs fails fast, not four times over.
   * false (the page): a failure fails only its file (`job-failed`); the other files go on.
   */
  readonly failFast?: boolean;
  /** Fresh URLs for a job whose chunk URL was refused (401/403: expired); one renewal per chunk. */
  readonly renewUrls?: (job: number) => Promise<UploadUrls>;
  /**
   * Encrypts one chunk as one RFC 8188 message (default: `encryptChunk` on this thread). The place to
   * move encryption elsewhere (a worker) without changing the engine; the length is checked after.
   */
  readonly encrypt?: (key: FolderKey, plaintext: Uint8Array) => Promise<Uint8Array>;
  readonly onEvent?: (event: EngineEvent) => void;
}

export interface EngineResult {
  /** Chunks this run stored. */
  readonly chunksSent: number;
  /** Jobs that failed (failFast: false only), with their errors. */
  readonly failed: ReadonlyMap<number, unknown>;
}

export const DEFAULT_CONCURRENCY = 4;

interface Task {
  readonly job: number;
  readonly chunk: number;
}

export async function sendChunks(jobs: readonly UploadJob[], options: EngineOptions = {}): Promise<EngineResult> {
  const failFast = options.failFast ?? true;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const encryptSlots = Math.max(1, Math.floor(options.encryptConcurrency ?? 1));
  const encrypting = semaphore(encryptSlots);
  const encrypt = options.encrypt ?? encryptChunk;
  const emit = (event: EngineEvent) => options.onEvent?.(event);
  // Plaintext buffers, one per encryption slot: encryptChunk copies what it needs, so a buffer is
  // free again as soon as its chunk is encrypted.
  const largestChunk = Math.max(0, ...jobs.map((j) => Math.min(j.plan.chunkSize, j.plan.filesize)));
  const spare: Uint8Array[] = [];
  const run = linkedController(options.signal);
  const signal = run.signal;
  const http: HttpOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    signal,
    onRetry: (info) => emit({ type: 'retry', info }),
  };
  const remaining = jobs.map((j) => j.todo.length);
  const failed = new Map<number, unknown>();
  let chunksSent = 0;
  jobs.forEach((j, i) => {
    if (j.todo.length === 0) emit({ type: 'job-done', job: i });
  });

  const encryptNext = (job: UploadJob, n: number, length: number) =>
    encrypting(async () => {
      if (job.source.sealed) return checked(await job.source.sealed(job.key, chunkOffset(job.plan, n), length), length);
      const buffer = spare.pop() ?? new Uint8Array(largestChunk);
      try {
        const plaintext = await job.source.read(chunkOffset(job.plan, n), length, buffer);
        if (plaintext.byteLength !== length)
          throw new InputError(
            `${job.label}: read ${plaintext.byteLength} bytes of chunk ${n}, expected ${length}: the file changed while it was being read`,
          );
        return checked(await encrypt(job.key, plaintext), length);
      } finally {
        if (spare.length < encryptSlots) spare.push(buffer);
      }
    });

  const put = async (task: Task, body: Uint8Array | Blob, length: number) => {
    const job = jobs[task.job]!;
    const operation = `PUT chunk ${task.chunk}/${job.plan.chunks} of ${job.label}`;
    const onUploadProgress = (sent: number) =>
      emit({
        type: 'sending',
        job: task.job,
        chunk: task.chunk,
        bytes: Math.floor((sent / bodyLength(body)) * length),
      });
    for (let renewed = false; ; renewed = true) {
      try {
        await putChunk(job.urls, task.chunk, body, operation, http, onUploadProgress);
        return;
      } catch (error) {
        if (!(error instanceof WebfolderError)) throw error;
        // 409: the file is already complete, so this chunk is stored (a PUT whose answer was lost).
        if (error.status === 409) return;
        if ((error.status === 401 || error.status === 403) && options.renewUrls && !renewed) {
          job.urls = await options.renewUrls(task.job);
          continue;
        }
        throw error;
      }
    }
  };

  const sendOne = async (task: Task) => {
    const job = jobs[task.job]!;
    const length = plaintextChunkLength(job.plan, task.chunk);
    const body = await encryptNext(job, task.chunk, length);
    if (signal.aborted) throw new AbortedError();
    await put(task, body, length);
    chunksSent++;
    emit({ type: 'chunk', job: task.job, chunk: task.chunk, bytes: length });
    if (--remaining[task.job]! === 0 && !failed.has(task.job)) emit({ type: 'job-done', job: task.job });
  };

  const tasks: Task[] = jobs.flatMap((j, job) => j.todo.map((chunk) => ({ job, chunk })));
  let next = 0;
  let failure: unknown = null;
  const fail = (task: Task, error: unknown) => {
    if (options.signal?.aborted) error = new AbortedError();
    if (failFast || error instanceof AbortedError) {
      failure ??= error;
      run.abort();
    } else if (!failed.has(task.job)) {
      failed.set(task.job, error);
      emit({ type: 'job-failed', job: task.job, error });
    }
  };
  if (failFast && tasks.length > 0) {
    const first = tasks[next++]!;
    await sendOne(first).catch((error: unknown) => fail(first, error));
  }
  const worker = async () => {
    while (failure === null && next < tasks.length) {
      const task = tasks[next++]!;
      if (failed.has(task.job)) continue;
      try {
        await sendOne(task);
      } catch (error) {
        fail(task, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  if (failure !== null) throw failure;
  return { chunksSent, failed };
}

const bodyLength = (body: Uint8Array | Blob): number => (body instanceof Uint8Array ? body.byteLength : body.size);

/** An encrypted chunk of `length` plaintext bytes, checked to be exactly as long as that encrypts to. */
function checked<B extends Uint8Array | Blob>(body: B, length: number): B {
  if (bodyLength(body) !== encryptedLength(length))
    throw new Error(`encrypted chunk has ${bodyLength(body)} bytes, expected ${encryptedLength(length)}`);
  return body;
}

/** Runs at most `limit` of the given jobs at once, in call order. */
function semaphore(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
