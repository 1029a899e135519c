import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Runs `decide` just before each answer's head is written (explicitly or implicitly: Node's implicit
 * head goes through writeHead too), when whether the connection stays open can still be chosen
 * (`res.shouldKeepAlive`). Node-level, below Fastify: every answer passes here, a route's, an
 * error's, a hijacked reply's.
 */
export function beforeAnswerHead(server: Server, decide: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      decide(req, this);
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['writeHead'];
  });
}
