/**
 * A backend the service depends on (the metadata database, object storage) did not answer: it is
 * down, restarting or unreachable. The store and blob layers raise it in place of their drivers'
 * connection errors, so that the HTTP layer answers 503 `unavailable` (docs/errors.md) in one place
 * and a client knows to retry, where any other fault is a 500.
 */
export type Backend = 'database' | 'object storage';

export class BackendUnavailable extends Error {
  override name = 'BackendUnavailable';
  constructor(
    readonly backend: Backend,
    cause: unknown,
  ) {
    super(`the ${backend} is unavailable`, { cause });
  }
}

/** Socket-level failures: the peer is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** True for an error (or one it was caused by) that a dropped or refused connection raised. */
export function isNetworkFailure(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
