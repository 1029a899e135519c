import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { beforeAnswerHead } from '../answers/answer-head.js';
import { HttpRefusal } from '../answers/errors.js';

/**
 * While the node drains (SIGTERM), new requests are refused with 503 `unavailable` through the one
 * error mapping, so they carry `{error, code}` like every refusal (503 `unavailable` on the v2
 * contract's routes is answered 500 with that code: the contract lists no 503). Fastify's own
 * `return503OnClosing` answers a body without a code; it is turned off where this is installed.
 * `keep` are the routes still served (the probes: /readyz says why it is not ready).
 */
export function refuseWhileDraining(app: FastifyInstance, draining: () => boolean, keep: readonly string[]): void {
  const kept = new Set(keep);
  app.addHook('onRequest', (request, _reply, done) => {
    if (draining() && !kept.has(request.routeOptions.url ?? ''))
      return done(new HttpRefusal('unavailable', 'the server is shutting down: retry shortly'));
    done();
  });
}

/**
 * A drain ends when its work ends. Once the node drains, every answer says `Connection: close`, so
 * Node closes each connection as soon as its answer is written instead of keeping it for the next
 * request; idle keep-alive connections are closed at once by the listener's close (server.ts). With
 * no connection left the process exits, and only requests still running when the grace period ends
 * are cut. Node-level, so that it covers every answer (routes, errors, hijacked replies).
 */
export function closeConnectionsWhileDraining(server: Server, draining: () => boolean): void {
  beforeAnswerHead(server, (_req, res) => {
    if (draining()) res.shouldKeepAlive = false;
  });
}
