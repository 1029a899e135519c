import http from 'node:http';
import https from 'node:https';
import { NetworkError } from '../../transfer/errors.js';
import type { Fetch } from '../../transfer/retry.js';

/**
 * A `fetch` for Node uploads: chunk PUTs with a Uint8Array body go through node:http(s) directly,
 * everything else through the global fetch. Node's fetch (undici) copies a buffer body before
 * sending it; at 10 MiB per chunk those copies, and the garbage they leave, cost as much CPU as the
 * encryption. Here the ciphertext is written to the socket as it is. Keep-alive agents reuse
 * connections; idle sockets do not keep the process alive.
 *
 * Semantics match what `exchange` expects of fetch: it resolves with a Response for any HTTP
 * answer (no redirects are followed: presigned PUTs never redirect), rejects on network failure,
 * and rejects when the signal aborts.
 */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export const nodeFetch: typeof fetch = (input, init) => {
  const body = init?.body;
  if (init?.method !== 'PUT' || !(body instanceof Uint8Array) || typeof input !== 'string') return fetch(input, init);
  const url = new URL(input);
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] = String(body.byteLength);
  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: 'PUT',
        headers,
        agent: secure ? agents.https : agents.http,
        ...(init.signal ? { signal: init.signal } : {}),
      },
      (response) => {
        const pieces: Buffer[] = [];
        response.on('data', (piece: Buffer) => pieces.push(piece));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
          }
          const noBody = status === 204 || status === 304 || status < 200;
          try {
            resolve(
              new Response(noBody ? null : Buffer.concat(pieces), {
                status,
                statusText: response.statusMessage ?? '',
                headers: responseHeaders,
              }),
            );
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
};

/** The server refused the very first connection: nothing listens at that address. */
export class ServerUnreachableError extends NetworkError {
  override name = 'ServerUnreachableError';
  constructor(
    /** Origin of the address that refused, e.g. http://127.0.0.1:8080. */
    readonly address: string,
    cause: unknown,
  ) {
    super('connect', cause);
    this.message = `network error: ${address} refused the connection: is the server running at ${address}?`;
  }
}

/**
 * A transport that gives up at once when the server refuses the connection before it ever answered:
 * that is a wrong address or a server that is not running, and retrying it for a minute only hides
 * the mistake. Once any answer came, a refusal (a server restarting mid-upload) is retried as usual.
 * One per command: the "ever answered" state is this transport's.
 */
export function failFast(inner: Fetch = nodeFetch): Fetch {
  let answered = false;
  return async (url, init) => {
    try {
      const response = await inner(url, init);
      answered = true;
      return response;
    } catch (error) {
      if (!answered && isRefused(error)) throw new ServerUnreachableError(new URL(url).origin, error);
      throw error;
    }
  };
}

/**
 * Adds `authorization` to every request for `origin` (a private instance's login at its reverse
 * proxy) and to no other: a presigned chunk URL of object storage, or anywhere a link points,
 * never sees it. A request that carries its own Authorization keeps it.
 */
export function withOriginAuthorization(inner: Fetch, origin: string, authorization: string): Fetch {
  return (url, init) => {
    if (new URL(url).origin !== origin) return inner(url, init);
    const headers = new Headers(init?.headers);
    if (!headers.has('authorization')) headers.set('authorization', authorization);
    return inner(url, { ...init, headers });
  };
}

/** ECONNREFUSED anywhere in the error, its causes or an AggregateError's errors (undici nests it). */
function isRefused(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (e.code === 'ECONNREFUSED') return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isRefused(x, depth + 1))) return true;
  return isRefused(e.cause, depth + 1);
}
