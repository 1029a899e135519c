import { AbortedError, NetworkError, ProtocolError, WebfolderError } from './errors.js';

/**
 * One HTTP exchange with retries, isomorphic (global fetch in Node 20+ and browsers).
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

export interface HttpOptions {
  readonly fetch?: typeof fetch;
  readonly retry?: RetryOptions;
  readonly signal?: AbortSignal;
  readonly onRetry?: (info: RetryInfo) => void;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 300_000,
};

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
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
  init: RequestInit,
  options: HttpOptions = {},
): Promise<Response> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new AbortedError();
    let response: Response;
    try {
      response = await doFetch(url, { ...init, signal: options.signal ?? null });
    } catch (error) {
      if (options.signal?.aborted) throw new AbortedError();
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
    if (response.ok) return response;
    const message = await errorMessage(response);
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    if (!isRetryableStatus(response.status) || attempt >= retry.retries) {
      throw new WebfolderError(response.status, message, operation, retryAfter);
    }
    const delayMs =
      retryAfter !== null && (response.status === 429 || response.status === 503)
        ? Math.min(retry.maxRetryAfterMs, retryAfter * 1000) + Math.floor(Math.random() * 250)
        : backoffDelay(attempt, retry);
    options.onRetry?.({ operation, attempt: attempt + 1, delayMs, status: response.status, reason: message });
    await sleep(delayMs, options.signal);
  }
}

/** The `{error}` string of a failure body, or the start of the body text. */
async function errorMessage(response: Response): Promise<string> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    return response.statusText || 'no body';
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string')
      return (parsed as { error: string }).error;
    // S3-style or other JSON: keep it short.
  } catch {
    /* not JSON (an S3 XML error, a proxy page) */
  }
  const s3Message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  if (s3Message) return s3Message;
  return text.slice(0, 200) || response.statusText || 'no body';
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

/** Reads a JSON success body; a body that is not JSON is reported as a server failure. */
export async function jsonBody<T>(response: Response, operation: string): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProtocolError(operation, `answer is not JSON: ${text.slice(0, 100)}`);
  }
}
