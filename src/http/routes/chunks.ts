import type { FastifyInstance } from 'fastify';
import { acceptChunk } from '../../app/accept-chunk.js';
import type { Services } from '../../app/services.js';
import type { ChunkReceiver } from '../../blobs/blob-store.js';
import { UPLOAD_PATH } from '../../contract/paths.js';
import { chunkParams, chunkUploadQuery } from '../../contract/requests.js';
import { declaredLength, withMinimumRate } from '../bodies/chunk-body.js';
import { continueNow } from '../bodies/expect-continue.js';
import { routePolicy } from '../callers/route-policy.js';
import { concurrentPerClient, limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';

/**
 * Chunk PUTs for backends that receive bytes themselves. The body is never parsed or buffered: the
 * scope's catch-all parser hands the raw stream, under the minimum body rate (../bodies/chunk-body.ts), to
 * the use case, which checks everything first and then streams it to storage. A client waiting on
 * `Expect: 100-continue` is told to send its body only then (`continueAfterChecks`,
 * ../bodies/expect-continue.ts); a refusal closes the connection instead.
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
  const rate = { minBytesPerSecond: limits.minBodyBytesPerSecond, windowMs: limits.minBodyRateWindowMs };
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
        declaredLength: declaredLength(request.headers),
        body: withMinimumRate(request.raw, rate),
        ready: () => continueNow(request.raw, reply.raw),
      });
    },
  );
}
