import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of a real server, which can hold back the requests a test
 * names: a test that interrupts a transfer holds chunk n and what follows, waits until the client
 * is provably stuck on them, and acts then, instead of hoping that a poll lands between two chunks.
 * Everything else is forwarded unchanged (method, path, headers, streamed bodies both ways). A server
 * behind it sets BASE_URL to the gate's address so that the chunk URLs it hands out lead here.
 */
export interface Gate {
  readonly url: string;
  /** From now on, holds every request for which `match` is true (until `release` or `drop`). */
  hold(match: (req: IncomingMessage) => boolean): void;
  /** The requests held now whose client is still connected. */
  held(): readonly IncomingMessage[];
  /** Stops holding: forwards the held requests whose client is still there, and all that follow. */
  release(): void;
  /** Stops holding: closes the held requests' connections without forwarding them. */
  drop(): void;
  /**
   * Stops holding: answers the held requests itself with `status` (and `headers`), as a server or a
   * proxy in front of it would (a 429 with Retry-After, a 404), without forwarding them.
   */
  answer(status: number, headers?: Record<string, string>, body?: { error: string; code: string }): void;
  /**
   * Answers only the held requests for which `which` is true, as `answer` does, and goes on holding
   * the others and what follows (two chunks fetched at once: one refused, the other kept waiting).
   */
  answerWhere(which: (req: IncomingMessage) => boolean, status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startGate(targetPort: number): Promise<Gate> {
  let match: ((req: IncomingMessage) => boolean) | null = null;
  let waiting: { req: IncomingMessage; res: ServerResponse }[] = [];

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.on('aborted', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    if (match?.(req)) {
      waiting.push({ req, res });
      return;
    }
    forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const stopHolding = () => {
    match = null;
    const held = waiting;
    waiting = [];
    return held.filter(({ req }) => !req.destroyed && !req.socket.destroyed);
  };
  const gate: Gate = {
    url: `http://127.0.0.1:${port}`,
    hold(m) {
      match = m;
    },
    held: () => waiting.filter(({ req }) => !req.socket.destroyed).map(({ req }) => req),
    release() {
      for (const { req, res } of stopHolding()) forward(req, res);
    },
    drop() {
      for (const { res } of waiting) res.destroy();
      stopHolding();
    },
    answer(status, headers = {}, body = { error: `answered ${status} by the test's gate`, code: 'gate' }) {
      for (const { res } of stopHolding()) {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      }
    },
    answerWhere(which, status, headers = {}) {
      const answered = waiting.filter(({ req }) => which(req));
      waiting = waiting.filter(({ req }) => !which(req));
      for (const { req, res } of answered) {
        if (req.socket.destroyed) continue;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ error: `answered ${status} by the test's gate`, code: 'gate' }));
      }
    },
    async close() {
      gate.drop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return gate;
}
