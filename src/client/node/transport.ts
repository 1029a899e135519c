import http from 'node:http';
import https from 'node:https';

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
