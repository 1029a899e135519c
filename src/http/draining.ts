import type { FastifyInstance } from 'fastify';
import { HttpRefusal } from './errors.js';

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
