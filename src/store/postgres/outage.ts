import pg from 'pg';
import { BackendUnavailable, isNetworkFailure } from '../../domain/backend-unavailable.js';

/**
 * PostgreSQL being restarted, failed over or unreachable, as opposed to a statement that failed:
 * a socket error, a connection exception (SQLSTATE class 08), the server shutting down or not yet
 * accepting connections (57P01-57P03), too many connections (53300), or pg's own words for a
 * connection that ended or could not be had in time.
 */
export function isPostgresOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof BackendUnavailable || isNetworkFailure(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300')) return true;
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
      message,
    )
  );
}

/** The error to raise for `error`: BackendUnavailable for an outage, else the error itself. */
export function postgresFailure(error: unknown): unknown {
  if (error instanceof BackendUnavailable || !isPostgresOutage(error)) return error;
  return new BackendUnavailable('database', error);
}

/** How long taking a connection may wait (see openPool). */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The store's pool. A server that does not answer at all (a dropped route, not a refused port) fails
 * the request as unavailable after CONNECT_TIMEOUT_MS rather than holding it until the client gives
 * up. An idle client losing its connection (server restart, failover) must not crash the process:
 * the pool drops it and the next query opens a new one; clients in use are guarded by withClient.
 */
export function openPool(url: string, max: number): OutagePool {
  const pool = new OutagePool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', () => {});
  return pool;
}

/**
 * The pool of every PostgreSQL store. A statement run on the pool (`pool.query`) that fails because
 * the server is away raises BackendUnavailable; pg-pool guards those clients itself. Clients taken
 * out of the pool are used through `withClient`, which guards them.
 */
export class OutagePool extends pg.Pool {
  // The override keeps every overload of pg's query; only the promise forms are used by the stores.
  // biome-ignore lint/suspicious/noExplicitAny: forwards pg's overloaded signature unchanged
  override query(...args: any[]): any {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const result = (super.query as (...a: any[]) => any)(...args);
    return result instanceof Promise
      ? result.catch((error: unknown) => Promise.reject(postgresFailure(error)))
      : result;
  }
}

/**
 * Runs `work` on a client taken from the pool. While it is out of the pool nothing else listens for
 * its 'error' event, and an 'error' without a listener ends the process: a PostgreSQL restart in the
 * middle of a transaction did exactly that. Here the error is noted, the statement under way
 * rejects on its own, the client is discarded rather than pooled again, and an outage is raised as
 * BackendUnavailable.
 */
export async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw postgresFailure(error);
  }
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on('error', onError);
  let failure: unknown;
  try {
    return await work(client);
  } catch (error) {
    failure = error;
    throw postgresFailure(error);
  } finally {
    client.removeListener('error', onError);
    // A client whose connection failed is closed and dropped from the pool, not handed out again.
    const broken = lost ?? (isPostgresOutage(failure) ? (failure as Error) : undefined);
    client.release(broken);
  }
}
