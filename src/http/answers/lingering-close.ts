import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { beforeAnswerHead } from './answer-head.js';

/**
 * Answers that reach their client although its body was never read: a lingering close, as nginx
 * does it. A route may refuse a request before reading its body (a stored chunk, a bad signature, a
 * wrong length, a full disk, a rate limit, an oversized JSON body, a draining server). Closing the
 * socket then, with the client's bytes still unread in the kernel, makes the kernel send a reset,
 * and a reset discards what the client had not read yet: the answer itself. So an answer to a
 * request whose body is unread says `Connection: close`, its write side is closed once it is written
 * (the client reads the answer, then the end), and the socket goes on reading and discarding the
 * body: up to `discardBytes` (the largest body the server accepts anywhere, so that every refused
 * chunk of the configured size drains whole), while bytes keep coming (LINGER_IDLE_MS) and for at
 * most LINGER_MS. A body that ends, or a client that closes on reading its answer, closes the socket
 * cleanly. Past the byte bound the socket stops reading, so the client's sending stalls and spends
 * no more bandwidth, and it is reset at the deadline, when a client that reads while it sends (every
 * HTTP library tested: fetch, node:http, curl) has long had its answer.
 *
 * Node-level, below Fastify: it covers every route, the 404 handler and the framework's own
 * refusals alike. The bounded-work limits stay: LINGER_MS is far below the request timeout, and a
 * lingering connection counts against the connection caps until it closes.
 */

/** How long a lingering connection may go without a byte (nginx's lingering_timeout). */
export const LINGER_IDLE_MS = 5000;
/** How long after its answer a connection lingers at most (nginx's lingering_time). */
export const LINGER_MS = 30_000;

/** Installs the lingering close on every response of `server` whose request body is unread when it is answered. */
export function lingerOnUnreadBodies(server: Server, discardBytes: number): void {
  beforeAnswerHead(server, (req, res) => {
    if (req.complete || req.destroyed) return;
    res.shouldKeepAlive = false;
    linger(req, req.socket, discardBytes);
  });
}

/**
 * From the answer's head on, the body is read and thrown away within the bounds. Node ends a
 * `Connection: close` answer with socket.destroySoon() (end the write side, then destroy); here that
 * ends the write side only, and the socket is destroyed once the body has all arrived (nothing left
 * unread: a clean close), or the client has closed, or a bound has passed.
 */
function linger(req: IncomingMessage, socket: Socket, discardBytes: number): void {
  const destroySoon = socket.destroySoon.bind(socket);
  let answered = false;
  const reset = () => socket.destroy();
  const deadline = setTimeout(reset, LINGER_MS);
  const idle = setTimeout(reset, LINGER_IDLE_MS);
  deadline.unref();
  idle.unref();
  socket.once('close', () => {
    clearTimeout(deadline);
    clearTimeout(idle);
  });
  socket.destroySoon = () => {
    answered = true;
    if (req.complete) destroySoon();
    else socket.end();
  };
  req.once('end', () => {
    if (answered) destroySoon();
  });
  let discarded = 0;
  req.on('data', (piece: Buffer) => {
    discarded += piece.length;
    // Past the bound reading stops (the body backs up to the client) and only the deadline is left.
    if (discarded >= discardBytes) {
      req.pause();
      clearTimeout(idle);
    } else idle.refresh();
  });
  req.resume();
}
