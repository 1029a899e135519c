import { codeForStatus, type ErrorCode } from '../contract/errors.js';

/**
 * Failures a use case reports to its caller. The HTTP layer maps `status` to the response status
 * and `message` to the `{error}` body; the agent surfaces turn them into tool or task errors.
 * Anything else thrown is a bug or an outage and becomes a 500 with a generic message.
 */
export type FailureStatus = 400 | 401 | 403 | 404 | 408 | 409 | 410 | 411 | 413 | 429 | 507;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: FailureStatus,
    message: string,
    /** The stable code on the wire (src/contract/errors.ts); by default the one `status` stands for. */
    readonly code: ErrorCode = codeForStatus(status),
  ) {
    super(message);
  }
}

/** A 429 that says when to come back (sent as the Retry-After header). */
export class RateLimited extends AppError {
  override name = 'RateLimited';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message, 'rate_limited');
  }
}

export const invalid = (message: string) => new AppError(400, message);
export const notFound = (message: string) => new AppError(404, message);
export const forbidden = (message: string) => new AppError(403, message);
export const conflict = (message: string) => new AppError(409, message);
/** A folder or file that existed but has expired: answered as 404, with its own code. */
export const expired = (message: string) => new AppError(404, message, 'expired');
/** The server has no room for the data (disk full or below its free-space floor); nothing was stored. */
export const insufficientStorage = (message: string) => new AppError(507, message);
/** A request that asks for more work or data than one request may (the caller can split it). */
export const tooLarge = (message: string) => new AppError(413, message);
/** Only signed-in people may do this (CREATE_POLICY=signed-in). */
export const signInRequired = (message: string) => new AppError(401, message, 'sign_in_required');
/** The file's download limit is used up: 410, nothing counted. */
export const limitReached = (message: string) => new AppError(410, message, 'download_limit_reached');
/** A limited file's chunk asked for without a valid download ticket. */
export const ticketRequired = (message: string) => new AppError(403, message, 'download_ticket_required');
