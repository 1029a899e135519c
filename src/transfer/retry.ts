import { AbortedError, NetworkError, readFailure, WebfolderClientError, WebfolderError } from './errors.js';

/**
 * The one retry policy of every client (page, service worker, library, CLI): one HTTP exchange with
 * retries, isomorphic (global fetch in Node 20+ and browsers, or any `Fetch` transport).
 *
 * Retried: network failures, 408, 429 and 5xx. A 429 (or 503) with `Retry-After` waits exactly that
 * long (capped by `maxRetryAfterMs`); anything else waits an exponential backoff with full jitter
 * (`random(0, min(maxDelayMs, baseDelayMs * 2^attempt))`). Every other 4xx is final: retrying a
 * refused signature or length cannot succeed. Request bodies must be replayable (Uint8Array or string).
 */
export interface RetryOptions {
  /** Attempts after the first one (default 8). */
  readonly retries?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Longest wait honoured from a Retry-After header (default 5 minutes). */
  readonly maxRetryAfterMs?: number;
}

export interface RetryInfo {
  readonly operation: string;
  readonly attempt: number;
  readonly delayMs: number;
  /** HTTP status that caused the retry, or null for a network error. */
  readonly status: number | null;
  readonly reason: string;
}

/** What a transport must report while it sends a request body: bytes of the body sent so far. */
export interface TransportInit extends RequestInit {
  readonly onUploadProgress?: (sentBytes: number) => void;
}

/**
 * A pluggable transport: `fetch` itself, or anything that answers like it (resolves with a Response
 * for any HTTP answer, rejects on a network failure or an abort). The page plugs in XMLHttpRequest
 * for upload progress, Node a node:http sender that writes the body without copying it.
 */
export type Fetch = (url: string, init: TransportInit) => Promise<Response>;

export interface HttpOptions {
  readonly fetch?: Fetch;
  readonly retry?: RetryOptions;
  readonly signal?: AbortSignal;
  readonly onRetry?: (info: RetryInfo) => void;
  /** Failure statuses the caller reads itself instead of an error (a folder page's 404 is still the page). */
  readonly answered?: readonly number[];
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 300_000,
};

/**
 * The policy of a download's chunk fetches (`openChunk`, wherever it runs) when the caller names none.
 * A limited download is counted when it starts, and its ticket lets it go on for 24 h (docs/site.md
 * "What counts as a download"): giving up during an outage would lose the recipient's download
 * (DEFAULT_RETRY gave up during a 45 s outage). So attempts go on for minutes:
 * 30 retries, each at most 15 s apart (up to ~6.5 min in all, ~3 min on average with the jitter).
 */
export const DOWNLOAD_RETRY: Required<RetryOptions> = {
  retries: 30,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  maxRetryAfterMs: 300_000,
};

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The policy of one chunk fetched again after its download paused (DownloadStreamOptions.pause): a
 * single attempt. The pause itself is the slow interval (or the person's "Try again now"); a failed
 * attempt pauses the download again instead of starting another round of minutes of retries.
 */
export const AFTER_PAUSE_RETRY: Required<RetryOptions> = { ...DOWNLOAD_RETRY, retries: 0 };

/**
 * A failure the retry policy gave up on that may pass (the server could not be reached, or answered
 * 408, 429 or 5xx): a download may pause on it and try again later. A refusal (403, 404, 410…), an
 * integrity failure or anything else is final.
 */
export function isPassingFailure(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof WebfolderError && isRetryableStatus(error.status);
}

/** Seconds of a Retry-After header (delta-seconds or HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

export function backoffDelay(
  attempt: number,
  retry: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

export async function exchange(
  operation: string,
  url: string,
  init: TransportInit,
  options: HttpOptions = {},
): Promise<Response> {
  const doFetch: Fetch = options.fetch ?? ((u, i) => globalThis.fetch(u, i));
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new AbortedError();
    let response: Response;
    try {
      response = await doFetch(url, { ...init, signal: options.signal ?? null });
    } catch (error) {
      if (options.signal?.aborted) throw new AbortedError();
      // A transport that fails with one of our typed errors has judged the failure final (the CLI's
      // refused first connection: a wrong address, not a passing fault).
      if (error instanceof WebfolderClientError) throw error;
      if (attempt >= retry.retries) throw new NetworkError(operation, error);
      const delayMs = backoffDelay(attempt, retry);
      options.onRetry?.({
        operation,
        attempt: attempt + 1,
        delayMs,
        status: null,
        reason: error instanceof Error ? error.message : String(error),
      });
      await sleep(delayMs, options.signal);
      continue;
    }
    if (
      response.ok ||
      (init.redirect === 'manual' && isRedirect(response)) ||
      options.answered?.includes(response.status)
    )
      return response;
    const { message, code } = await readFailure(response);
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    if (!isRetryableStatus(response.status) || attempt >= retry.retries) {
      throw new WebfolderError(response.status, message, operation, retryAfter, code);
    }
    const delayMs =
      retryAfter !== null && (response.status === 429 || response.status === 503)
        ? Math.min(retry.maxRetryAfterMs, retryAfter * 1000) + Math.floor(Math.random() * 250)
        : backoffDelay(attempt, retry);
    options.onRetry?.({ operation, attempt: attempt + 1, delayMs, status: response.status, reason: message });
    await sleep(delayMs, options.signal);
  }
}

/** A redirect the caller asked to see (`redirect: 'manual'`): a 3xx, or a browser's opaque one. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * A controller whose signal also fires when `outer` does: a run that can stop itself as well as be
 * cancelled by its caller. (AbortSignal.any would do, but Safari before 17.4 lacks it, and the
 * page and its service worker run this too.)
 */
export function linkedController(outer?: AbortSignal): AbortController {
  const controller = new AbortController();
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
  return controller;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
