import {
  DecryptorGoneError,
  type DownloadFile,
  type FolderKey,
  InputError,
  IntegrityError,
  NetworkError,
  type RetryInfo,
  type RetryOptions,
  WebfolderError,
} from '../core.js';

/**
 * The messages between the threads that need a chunk encrypted or decrypted (the page's upload, a
 * download in the service worker or the page) and the page's crypto workers
 * (web/src/workers/crypto-worker.ts), which run the transfer core's own `encryptChunk` and `openChunk` off
 * those threads. One request, one reply, matched by id; the bytes travel as transferred buffers,
 * never copied, in both directions.
 *
 * - `seal`: encrypt one chunk's plaintext as one RFC 8188 message, answered as its parts (the header,
 *   then each record's ciphertext as WebCrypto gave it, all transferred): the page builds the PUT's
 *   `Blob` from them, which copies each byte once, where one message buffer would first be filled
 *   by a copy of every record and then copied again into the Blob. The page, not the worker, makes
 *   the Blob: a Blob's bytes stay in the browser process until the garbage collector of the thread
 *   that made it frees it, and a worker's, with little else to do, ran too seldom (a Blob per chunk
 *   made in the worker grew the browser process by the whole upload, +512 MiB for 512 MiB);
 * - `fetch-open`: fetch, check and decrypt one chunk of a download (the transfer core's `openChunk`),
 *   so that the thread that asked (the service worker's feeds the response) only hands bytes on.
 *   While the retry policy waits to fetch it again (an outage), the worker sends `{id, retry}`
 *   notices before the one reply, so that the page can say "waiting — retrying in N s".
 *
 * A key is posted as it is: a `FolderKey` is the secret's text and a non-extractable CryptoKey, both
 * structured-cloneable; it goes only to this origin's own workers.
 */
export type CryptoRequest =
  | { readonly op: 'seal'; readonly key: FolderKey; readonly plaintext: Uint8Array }
  | {
      readonly op: 'fetch-open';
      readonly file: DownloadFile;
      readonly chunk: number;
      /** The policy to fetch it with, when the asking thread names one (a paused download's next try). */
      readonly retry?: RetryOptions;
    };

/** A sealed chunk's message as its parts, in order (see `seal`). */
export type MessageParts = Array<Uint8Array<ArrayBuffer> | ArrayBuffer>;

export type CryptoReply =
  | { readonly id: number; readonly bytes: Uint8Array }
  | { readonly id: number; readonly parts: MessageParts }
  | { readonly id: number; readonly retry: RetryInfo }
  | ({ readonly id: number; readonly message: string } & Failure);

/**
 * What a failed request was, so that the asking thread throws the class the transfer core would
 * have thrown (and the page's words for it follow: web/src/views/ui.ts `describeFailure`).
 */
type Failure =
  | { readonly failure: 'integrity' | 'input' | 'other' }
  | { readonly failure: 'network'; readonly operation: string; readonly cause: string }
  | {
      readonly failure: 'server';
      readonly operation: string;
      readonly status: number;
      readonly serverMessage: string;
      readonly serverCode: string | null;
      readonly retryAfterSeconds: number | null;
    };

/** Sent on a lent port when its borrower is done with it: the worker closes its end too. */
export const CLOSE_PORT = 'close';

/** The reply's failure kind for an error thrown while serving a request. */
export function failureOf(error: unknown): Failure {
  if (error instanceof IntegrityError) return { failure: 'integrity' };
  if (error instanceof InputError) return { failure: 'input' };
  if (error instanceof NetworkError)
    return {
      failure: 'network',
      operation: error.operation,
      cause: error.cause instanceof Error ? error.cause.message : String(error.cause),
    };
  if (error instanceof WebfolderError)
    return {
      failure: 'server',
      operation: error.operation,
      status: error.status,
      serverMessage: error.serverMessage,
      serverCode: error.serverCode,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  return { failure: 'other' };
}

/** The error a caller sees for a failed request: the same class the transfer core would have thrown. */
function errorOf(reply: Extract<CryptoReply, { failure: string }>): Error {
  if (reply.failure === 'integrity') return new IntegrityError(reply.message);
  if (reply.failure === 'input') return new InputError(reply.message);
  if (reply.failure === 'network') return new NetworkError(reply.operation, new Error(reply.cause));
  if (reply.failure === 'server')
    return new WebfolderError(
      reply.status,
      reply.serverMessage,
      reply.operation,
      reply.retryAfterSeconds,
      reply.serverCode,
    );
  return new Error(reply.message);
}

type Endpoint = Pick<MessagePort, 'postMessage' | 'addEventListener'> & { start?: () => void };

interface Pending {
  readonly resolve: (answer: Uint8Array | MessageParts) => void;
  readonly reject: (error: Error) => void;
  readonly lane: number;
  readonly onRetry: ((info: RetryInfo) => void) | undefined;
}

/**
 * Sends requests to several workers (dedicated Workers or MessagePorts lent by the page), each to the
 * one with the fewest requests pending, so that two chunks are processed on two cores at once.
 */
export class CryptoLanes {
  private readonly pending = new Map<number, Pending>();
  private readonly load: number[];
  private nextId = 1;
  private broken: DecryptorGoneError | null = null;

  constructor(private readonly lanes: readonly Endpoint[]) {
    this.load = lanes.map(() => 0);
    for (const lane of lanes) {
      lane.addEventListener('message', (event) => this.settle((event as MessageEvent<CryptoReply>).data));
      // A MessagePort delivers to listeners only once started (a Worker has no start()).
      lane.start?.();
    }
  }

  /** Requests waiting for an answer: a watchdog has work only while there are some. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  get gone(): boolean {
    return this.broken !== null;
  }

  /**
   * One request; its buffers in `transfer` move to the worker (the caller must not use them again).
   * Rejects with DecryptorGoneError when the workers cannot answer (they failed to start, or the page
   * that owns them went away), before or after sending.
   */
  call<A extends Uint8Array | MessageParts = Uint8Array>(
    request: CryptoRequest,
    transfer: Transferable[] = [],
    onRetry?: (info: RetryInfo) => void,
  ): Promise<A> {
    if (this.broken) return Promise.reject(this.broken);
    let lane = 0;
    for (let i = 1; i < this.load.length; i++) if (this.load[i]! < this.load[lane]!) lane = i;
    const id = this.nextId++;
    return new Promise<A>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (answer: Uint8Array | MessageParts) => void, reject, lane, onRetry });
      this.load[lane]!++;
      try {
        this.lanes[lane]!.postMessage({ ...request, id }, transfer);
      } catch (error) {
        this.pending.delete(id);
        this.load[lane]!--;
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Every pending and later request fails with `reason` (the workers are gone). */
  fail(reason: string): void {
    this.broken ??= new DecryptorGoneError(reason);
    for (const p of this.pending.values()) p.reject(this.broken);
    this.pending.clear();
  }

  private settle(reply: CryptoReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    if ('retry' in reply) {
      p.onRetry?.(reply.retry); // a notice: the request goes on
      return;
    }
    this.pending.delete(reply.id);
    this.load[p.lane]!--;
    if ('bytes' in reply) p.resolve(reply.bytes);
    else if ('parts' in reply) p.resolve(reply.parts);
    else p.reject(errorOf(reply));
  }
}

/**
 * The service worker's side of lent ports: an `open` for downloadStream that has the page's workers
 * fetch and decrypt each chunk while the page is there. `pageAlive` says whether the page that lent
 * them is still open; while requests are pending it is asked every two seconds, and once the page is
 * gone the pending chunks and every later one are opened on the service worker's own thread (they
 * reject with DecryptorGoneError, which downloadStream answers so), and a download outlives the tab
 * that started it.
 */
export function lentWorkers(
  ports: readonly MessagePort[],
  pageAlive: () => Promise<boolean>,
): {
  open(
    file: DownloadFile,
    chunk: number,
    onRetry?: (info: RetryInfo) => void,
    retry?: RetryOptions,
  ): Promise<Uint8Array>;
  close(): void;
} {
  const lanes = new CryptoLanes(ports);
  const watchdog = setInterval(() => {
    if (!lanes.busy) return;
    void pageAlive().then((alive) => {
      if (!alive) lanes.fail('the page that lent its crypto workers closed');
    });
  }, 2000);
  if (ports.length === 0) lanes.fail('no crypto workers were lent');
  return {
    open: (file, chunk, onRetry, retry) =>
      lanes.call({ op: 'fetch-open', file, chunk, ...(retry ? { retry } : {}) }, [], onRetry),
    close() {
      clearInterval(watchdog);
      for (const port of ports) {
        port.postMessage(CLOSE_PORT);
        port.close();
      }
    },
  };
}
