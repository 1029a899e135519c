import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError } from '../../app/errors.js';

/**
 * A chunk PUT's body as the transport receives it: its declared length, read from Content-Length
 * (the use case checks it against the chunk's exact length before a byte is read), and the raw
 * stream under a minimum rate.
 */

/** The Content-Length of a chunk PUT: a chunk must state its length (411 without it: no chunked encoding). */
export function declaredLength(headers: IncomingHttpHeaders): number {
  const header = headers['content-length'];
  if (header === undefined) throw new AppError('length_required', 'Content-Length is required');
  // Node's parser refuses a Content-Length that is not a whole number before a route runs; were one
  // to pass, NaN fails the use case's exact-length check.
  return Number(header);
}

/**
 * The minimum body rate of chunk uploads (MIN_BODY_RATE_KIB over MIN_BODY_RATE_WINDOW_SECONDS). A
 * client that trickles a body holds a connection, a file descriptor and a temporary file for as long
 * as it likes; one that sends less than the minimum over a whole window is cut off (the request is
 * destroyed, which closes the connection and fails the write, which removes its temporary file).
 *
 * Only time spent waiting for the client counts: while the server itself is busy writing a batch to
 * disk it reads nothing, and a slow disk must not be blamed on the client.
 */
export class BodyTooSlowError extends AppError {
  override name = 'BodyTooSlowError';
  constructor(message: string) {
    super('request_timeout', message);
  }
}

export interface BodyRate {
  readonly minBytesPerSecond: number;
  readonly windowMs: number;
}

export async function* withMinimumRate(body: Readable, rate: BodyRate): AsyncGenerator<Uint8Array> {
  if (rate.minBytesPerSecond === 0) {
    yield* body.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
    return;
  }
  const minPerWindow = (rate.minBytesPerSecond * rate.windowMs) / 1000;
  let windowBytes = 0;
  let windowWaitMs = 0;
  let waitingSince: number | null = performance.now();
  let cutOff: BodyTooSlowError | null = null;
  const check = () => {
    const now = performance.now();
    const waited = windowWaitMs + (waitingSince === null ? 0 : now - waitingSince);
    if (waited < rate.windowMs) return;
    if (windowBytes < minPerWindow) {
      cutOff = new BodyTooSlowError(
        `the chunk body arrived slower than ${Math.round(rate.minBytesPerSecond / 1024)} KiB/s: the upload was cut off`,
      );
      body.destroy(cutOff);
      return;
    }
    windowBytes = 0;
    windowWaitMs = 0;
    if (waitingSince !== null) waitingSince = now;
  };
  const timer = setInterval(check, Math.min(1000, rate.windowMs / 4));
  timer.unref();
  try {
    // A write that fails mid-body (a full disk) leaves the rest of the body unread, not destroyed:
    // its answer goes out under the lingering close (../answers/lingering-close.ts) instead of a reset.
    for await (const piece of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
      if (waitingSince !== null) windowWaitMs += performance.now() - waitingSince;
      waitingSince = null;
      windowBytes += piece.length;
      yield piece;
      waitingSince = performance.now();
    }
  } catch (error) {
    // Destroying the request surfaces as whatever the stream reports (a premature close): say why.
    throw cutOff ?? error;
  } finally {
    clearInterval(timer);
  }
}
