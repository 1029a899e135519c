/**
 * Failures a use case reports to its caller. The HTTP layer maps `status` to the response status
 * and `message` to the `{error}` body; the agent surfaces turn them into tool or task errors.
 * Anything else thrown is a bug or an outage and becomes a 500 with a generic message.
 */
export type FailureStatus = 400 | 403 | 404 | 409 | 411 | 413 | 429;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: FailureStatus,
    message: string,
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
    super(429, message);
  }
}

export const invalid = (message: string) => new AppError(400, message);
export const notFound = (message: string) => new AppError(404, message);
export const forbidden = (message: string) => new AppError(403, message);
export const conflict = (message: string) => new AppError(409, message);
