import http from 'node:http';
import https from 'node:https';
import { API_KEY_PATTERN } from '../../domain/principal.js';
import { InputError, NetworkError } from '../../transfer/errors.js';
import { heldBodyResponse } from '../../transfer/outbound.js';
import type { Fetch } from '../../transfer/retry.js';
import { takeChunkBuffer } from './chunk-buffers.js';

/**
 * The Node transport of the outbound layer (src/transfer/outbound.ts passes it as `fetch`; nothing
 * else calls it). Two kinds of request go through node:http(s) directly, everything else through the
 * global fetch:
 *
 * - chunk PUTs with a Uint8Array body: Node's fetch (undici) copies a buffer body before sending
 *   it; at 10 MiB per chunk those copies, and the garbage they leave, cost as much CPU as the
 *   encryption. Here the ciphertext is written to the socket as it is.
 * - GETs that ask for bytes (`accept` names application/octet-stream: chunk downloads): the body is
 *   read into one buffer of its announced length and handed to the layer as it is
 *   (`heldBodyResponse`), where fetch's body stream and `arrayBuffer()` copied it twice more (the
 *   download's CPU profile, docs/benchmarks.md). The Node decryptor then opens it in place.
 *
 * Semantics match what `exchange` expects of fetch: it resolves with a Response for any HTTP
 * answer, rejects on network failure (a body cut short included) and when the signal aborts. The
 * layer's rules hold because it sets the headers: credentials only on `home` requests, none on
 * presigned ones. Redirects: node:http follows none. A request made with `redirect: 'manual'` (every
 * `home` request) gets the 3xx, which the layer refuses or hands to a chunk download; any other (a
 * presigned `foreign` GET, which carries nothing of ours) is sent again through fetch, which follows
 * it as before. Keep-alive agents reuse connections; idle sockets do not keep the process alive.
 */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export const nodeFetch: typeof fetch = async (input, init) => {
  if (typeof input !== 'string') return fetch(input, init);
  const method = init?.method ?? 'GET';
  const body = init?.body;
  if (method === 'PUT' && body instanceof Uint8Array) return send(input, init!, body, false);
  const headers = new Headers(init?.headers);
  if (method === 'GET' && body == null && /application\/octet-stream/.test(headers.get('accept') ?? '')) {
    const response = await send(input, init ?? {}, null, true);
    if (response.status >= 300 && response.status < 400 && init?.redirect !== 'manual') return fetch(input, init);
    return response;
  }
  return fetch(input, init);
};

/** One request through node:http(s); with `holdBody`, a 2xx body that is not JSON is held in one buffer. */
function send(input: string, init: RequestInit, body: Uint8Array | null, holdBody: boolean): Promise<Response> {
  const url = new URL(input);
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers['content-length'] = String(body.byteLength);
  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: init.method ?? 'GET',
        headers,
        agent: secure ? agents.https : agents.http,
        ...(init.signal ? { signal: init.signal } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
        }
        const length = Number(response.headers['content-length']);
        const hold =
          holdBody &&
          status >= 200 &&
          status < 300 &&
          status !== 204 &&
          !/^application\/json\b/.test(response.headers['content-type'] ?? '') &&
          Number.isSafeInteger(length);
        // The announced length, one buffer (a reused one when a download gave one back): the body is
        // copied into it as it comes.
        const into = hold ? takeChunkBuffer(length) : null;
        let received = 0;
        const pieces: Buffer[] = [];
        response.on('data', (piece: Buffer) => {
          if (into) piece.copy(into, received);
          else pieces.push(piece);
          received += piece.length;
        });
        response.on('error', reject);
        // A body cut short (the connection lost) ends in 'close' without 'end': a network failure.
        response.on('close', () => {
          if (!response.complete)
            reject(new TypeError(`${init.method ?? 'GET'} ${url.origin}: the answer was cut short`));
        });
        response.on('end', () => {
          const init = { status, statusText: response.statusMessage ?? '', headers: responseHeaders };
          try {
            if (into) {
              if (received !== into.length) throw new TypeError(`the answer has ${received} of ${into.length} bytes`);
              resolve(heldBodyResponse(into, init));
              return;
            }
            const noBody = status === 204 || status === 304 || status < 200;
            resolve(new Response(noBody ? null : Buffer.concat(pieces), init));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

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

/**
 * Sends `Authorization: Bearer <key>` (an API key of a signed-in person, `wfk_…`) on requests to the
 * server's `origin` only, like withOriginAuthorization: never to a presigned chunk URL of object
 * storage, a redirect's target or any other origin. A key that is not one is refused here, without
 * echoing it.
 */
export function withApiKey(inner: Fetch, origin: string, key: string): Fetch {
  if (!API_KEY_PATTERN.test(key))
    throw new InputError('the API key is not one: it is wfk_ and 43 characters, as the site showed it');
  return withOriginAuthorization(inner, origin, `Bearer ${key}`);
}

/** ECONNREFUSED anywhere in the error, its causes or an AggregateError's errors (undici nests it). */
function isRefused(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (e.code === 'ECONNREFUSED') return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isRefused(x, depth + 1))) return true;
  return isRefused(e.cause, depth + 1);
}
