import { AppError } from '../contract/errors.js';

// The failure a use case reports is the contract's, so that a lower layer (a blob store) can report
// one with its own code and no use case translates it.
export { AppError };

/** A 429 that says when to come back (sent as the Retry-After header). */
export class RateLimited extends AppError {
  override name = 'RateLimited';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

export const invalid = (message: string) => new AppError('invalid_request', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const conflict = (message: string) => new AppError('conflict', message);
/** A folder or file that existed but has expired: answered as 404, with its own code. */
export const expired = (message: string) => new AppError('expired', message);
/** A request that asks for more work or data than one request may (the caller can split it). */
export const tooLarge = (message: string) => new AppError('payload_too_large', message);
/** Only signed-in people may do this (CREATE_POLICY=signed-in). */
export const signInRequired = (message: string) => new AppError('sign_in_required', message);
/** The file's download limit is used up: 410, nothing counted. */
export const limitReached = (message: string) => new AppError('download_limit_reached', message);
/** A limited file's chunk asked for without a valid download ticket. */
export const ticketRequired = (message: string) => new AppError('download_ticket_required', message);
