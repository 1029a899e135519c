import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Two stand-in servers on loopback for the outbound-request layer's tests:
 * `home` on 127.0.0.1 plays the service a client was pointed at, and `elsewhere` on 127.0.0.2 is
 * another origin that records every request it gets (method, path with query, headers). `home`
 * answers as its current `behave` says: redirect every request elsewhere (307, path and query
 * kept), redirect on its own origin, answer a foreign JSON body (`{}`), or anything a test writes.
 */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
}

export type Behaviour =
  | { readonly kind: 'redirect-away'; readonly status?: number }
  | { readonly kind: 'redirect-same' }
  | { readonly kind: 'json'; readonly body: unknown }
  | { readonly kind: 'handler'; readonly handle: (req: http.IncomingMessage, res: http.ServerResponse) => void };

export interface StandIns {
  /** http://127.0.0.1:<port> */
  readonly home: string;
  /** http://127.0.0.2:<port> */
  readonly elsewhere: string;
  behave: Behaviour;
  /** Requests home received. */
  readonly homeSeen: Seen[];
  /** Requests the other origin received: a credential here is a leak. */
  readonly elsewhereSeen: Seen[];
  /** What `elsewhere` answers (default: 200, `{"ok":true}`). */
  elsewhereAnswer: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  close(): Promise<void>;
}

/** The header names and query parameters that carry a credential of ours. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'cookie',
  'x-owner-token',
  'x-visitor-token',
  'x-upload-auth',
  'x-download-ticket',
];
const CREDENTIAL_QUERY = /[?&](uploadAuth|apiAuth|ticket|owner)=/i;

/** The credentials in the requests `seen` (each as `METHOD path: what`): a list that must stay empty. */
export function leaks(seen: readonly Seen[]): string[] {
  const out: string[] = [];
  for (const s of seen) {
    for (const name of CREDENTIAL_HEADERS) if (s.headers[name] !== undefined) out.push(`${s.method} ${s.url}: ${name}`);
    if (CREDENTIAL_QUERY.test(s.url)) out.push(`${s.method} ${s.url}: a credential in the query`);
  }
  return out;
}

function listen(server: http.Server, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
  });
}

function record(req: http.IncomingMessage, into: Seen[]): void {
  into.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
}

export async function startStandIns(): Promise<StandIns> {
  const homeSeen: Seen[] = [];
  const elsewhereSeen: Seen[] = [];
  const state = {
    behave: { kind: 'json', body: {} } as Behaviour,
    elsewhereAnswer: (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    },
  };
  let elsewhere = '';
  const homeServer = http.createServer((req, res) => {
    record(req, homeSeen);
    req.resume();
    req.on('end', () => {
      const b = state.behave;
      if (b.kind === 'redirect-away') {
        res.writeHead(b.status ?? 307, { location: `${elsewhere}${req.url}` });
        res.end();
      } else if (b.kind === 'redirect-same') {
        res.writeHead(307, { location: `/moved${req.url}` });
        res.end();
      } else if (b.kind === 'json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(b.body));
      } else b.handle(req, res);
    });
  });
  const elsewhereServer = http.createServer((req, res) => {
    record(req, elsewhereSeen);
    req.resume();
    req.on('end', () => state.elsewhereAnswer(req, res));
  });
  const home = await listen(homeServer, '127.0.0.1');
  elsewhere = await listen(elsewhereServer, '127.0.0.2');
  return {
    home,
    elsewhere,
    get behave() {
      return state.behave;
    },
    set behave(b: Behaviour) {
      state.behave = b;
    },
    homeSeen,
    elsewhereSeen,
    get elsewhereAnswer() {
      return state.elsewhereAnswer;
    },
    set elsewhereAnswer(f) {
      state.elsewhereAnswer = f;
    },
    async close() {
      homeServer.closeAllConnections();
      elsewhereServer.closeAllConnections();
      await Promise.all([
        new Promise<void>((r) => homeServer.close(() => r())),
        new Promise<void>((r) => elsewhereServer.close(() => r())),
      ]);
    },
  };
}
