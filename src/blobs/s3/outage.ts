import type { S3Client } from '@aws-sdk/client-s3';
import { BackendUnavailable, isNetworkFailure } from '../../domain/backend-unavailable.js';

/**
 * Object storage being down or overloaded, as opposed to a request it refused: no connection, no
 * answer in time, or a 5xx of the server (after the SDK's own retries).
 */
export function isS3Outage(error: unknown): boolean {
  if (error instanceof BackendUnavailable || isNetworkFailure(error)) return true;
  const e = error as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  const status = e.$metadata?.httpStatusCode;
  return typeof status === 'number' && status >= 500;
}

/** Makes every command of `client` that fails for an outage raise BackendUnavailable instead. */
export function raiseOutagesAsUnavailable(client: S3Client): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        throw isS3Outage(error) && !(error instanceof BackendUnavailable)
          ? new BackendUnavailable('object storage', error)
          : error;
      }
    },
    { step: 'initialize', name: 'webfolderOutageAsUnavailable' },
  );
}
