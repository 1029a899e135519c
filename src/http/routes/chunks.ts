import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { acceptChunk } from '../../app/accept-chunk.js';
import type { Services } from '../../app/services.js';
import type { ChunkReceiver } from '../../blobs/blob-store.js';
import { UPLOAD_PATH } from '../../contract/paths.js';
import { chunkParams, chunkUploadQuery } from '../../contract/requests.js';
import { concurrentPerClient, limitedBy } from '../rate-limits.js';
import { routePolicy } from '../route-policy.js';
import { typed } from '../typed.js';

/**
 * Chunk PUTs for backends that receive bytes themselves. The body is never parsed or buffered: the
 * scope's catch-all parser hands the raw stream to the use case, which checks everything first and
 * then streams it to storage. A client waiting on `Expect: 100-continue` is told to send its body
 * only then (`continueAfterChecks`, see server.ts); a refusal closes the connection instead.
 */
export async function chunkRoutes(
  scope: FastifyInstance,
  { services, receiver }: { services: Services; receiver: ChunkReceiver },
): Promise<void> {
  const app = typed(scope);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const { limits } = services.config;
  const concurrent = concurrentPerClient(limits.maxConcurrentChunkUploads, 'chunk uploads');
  app.put(
    `${UPLOAD_PATH}/:folderId/:fileId/:chunk`,
    {
      onRequest: [limitedBy('chunk').onRequest, concurrent],
      config: { ...routePolicy('chunk', ['signed-url']), continueAfterChecks: true },
      schema: { params: chunkParams, querystring: chunkUploadQuery },
    },
    async (request, reply) => {
      return acceptChunk(services, receiver, {
        folderId: request.params.folderId,
        fileId: request.params.fileId,
        chunk: request.params.chunk,
        query: request.query,
        contentLength: request.headers['content-length'],
        body: request.raw,
        ready: () => continueNow(request.raw, reply.raw),
      });
    },
  );
}

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
  app.addHook('preParsing', async (request, reply) => {
    if (!request.routeOptions.config.continueAfterChecks) continueNow(request.raw, reply.raw);
  });
}
