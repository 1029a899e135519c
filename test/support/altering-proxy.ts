import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy that alters what it passes on, as a compromised reverse proxy or a network in the middle
 * would: a small node:http server on loopback that forwards every request to `upstream` and lets
 * `alter` rewrite the body (and `alterHeaders` the headers) of the answers it picks (by the
 * request's path). An answer it alters is
 * asked for without compression and sent on with its new length; every other one passes unchanged.
 */
export type Alteration = (body: Buffer, path: string) => Buffer | null;

export interface AlteringProxy {
  readonly url: string;
  /** Where requests go (set once the service behind it listens: its BASE_URL is this proxy's). */
  upstream: string;
  /** Picks and rewrites answers: returns the new body, or null to pass the answer on as it is. */
  alter: Alteration;
  /** Rewrites the headers of the answers it picks (in place); the default changes none. */
  alterHeaders: (headers: Record<string, string | string[] | undefined>, path: string) => void;
  /** The paths whose answers were altered so far. */
  readonly altered: string[];
  close(): Promise<void>;
}

export async function startAlteringProxy(picks: (path: string) => boolean): Promise<AlteringProxy> {
  const state: AlteringProxy = {
    url: '',
    upstream: '',
    alter: () => null,
    alterHeaders: () => undefined,
    altered: [],
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const target = new URL(state.upstream);
    const path = (req.url ?? '/').split('?')[0]!;
    const picked = picks(path);
    const headers = { ...req.headers };
    if (picked) delete headers['accept-encoding'];
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        if (!picked) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const pieces: Buffer[] = [];
        answer.on('data', (piece: Buffer) => pieces.push(piece));
        answer.on('end', () => {
          const body = Buffer.concat(pieces);
          const changed = state.alter(body, path);
          const out = changed ?? body;
          if (changed) state.altered.push(path);
          const outHeaders = { ...answer.headers, 'content-length': String(out.length) };
          delete outHeaders.etag;
          delete outHeaders['transfer-encoding'];
          state.alterHeaders(outHeaders, path);
          res.writeHead(answer.statusCode ?? 502, outHeaders);
          res.end(out);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return state;
}
