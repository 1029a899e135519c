import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A forward HTTP proxy that caps what its client sends (request bodies) at `bytesPerSecond`, all
 * requests together, as a home or office uplink caps a sender: the benchmarks point one Chromium at
 * it (`--proxy-server`, loopback not bypassed) so that only that person's link is slow. Answers pass
 * through at full speed. Plain HTTP only (the benchmarks' server is http on loopback).
 */
export interface UplinkProxy {
  /** The `--proxy-server` value. */
  readonly address: string;
  /** Bytes that went up through it. */
  sent(): number;
  close(): Promise<void>;
}

const PIECE = 16 * 1024;

export async function startUplinkProxy(bytesPerSecond: number): Promise<UplinkProxy> {
  // One clock for every request: the link is shared by all of the sender's PUTs.
  let due = performance.now();
  let sent = 0;
  /** Waits until `bytes` more may leave, by the shared link's schedule. */
  const pace = async (bytes: number) => {
    const now = performance.now();
    due = Math.max(due, now - 50) + (bytes / bytesPerSecond) * 1000; // a 50 ms burst at most
    sent += bytes;
    if (due > now) await new Promise((r) => setTimeout(r, due - now));
  };
  const paced = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        void (async () => {
          for (let at = 0; at < chunk.length; at += PIECE) {
            const piece = chunk.subarray(at, at + PIECE);
            await pace(piece.length);
            this.push(piece);
          }
          done();
        })().catch(done);
      },
    });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url ?? '/');
    const { 'proxy-connection': _hop, ...headers } = req.headers;
    const upstream = httpRequest(target, { method: req.method, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      pipeline(answer, res).catch(() => res.destroy());
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    pipeline(req, paced(), upstream).catch(() => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `http://127.0.0.1:${port}`,
    sent: () => sent,
    async close() {
      server.closeAllConnections();
      agent.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
