import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * `Expect: 100-continue`, server-wide: a client that asks before sending a body is told to send it
 * only once the request has passed what runs before the body (rate limits, the route's own checks),
 * so a refused upload never sends its megabytes.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers `Expect: 100-continue` itself, once its checks pass (continueNow). */
    continueAfterChecks?: boolean;
  }
}

const continued = new WeakSet<IncomingMessage>();

/** Tells a client waiting on `Expect: 100-continue` to send its body (once; nothing for other clients). */
export function continueNow(req: IncomingMessage, res: ServerResponse): void {
  if (continued.has(req) || res.headersSent || !/\b100-continue\b/i.test(req.headers.expect ?? '')) return;
  continued.add(req);
  res.writeContinue();
}

/**
 * Node answers `Expect: 100-continue` with 100 Continue on its own, before any route has looked at
 * the request, unless the server listens for 'checkContinue'. So it listens, hands the request to
 * Fastify as usual, and answers 100 Continue just before the body is parsed: after the rate limits
 * and everything else that runs on request. Routes that stream their body (chunk PUTs) answer it
 * themselves once their checks pass. Must be installed before the routes are registered.
 */
export function installExpectContinue(app: FastifyInstance): void {
  app.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => app.server.emit('request', req, res));
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!request.routeOptions.config.continueAfterChecks) continueNow(request.raw, reply.raw);
    done(null, payload);
  });
}
