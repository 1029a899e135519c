import type { FastifyInstance } from 'fastify';
import { acceptChunk } from '../../app/accept-chunk.js';
import type { Services } from '../../app/services.js';
import type { ChunkUrlQuery } from '../../blobs/blob-store.js';
import { limitedBy } from '../rate-limits.js';

/** Where presigned chunk URLs of the local backend point. */
export const UPLOAD_PATH = '/v2/uploads';

/**
 * Chunk PUTs for backends that receive bytes themselves. The body is never parsed or buffered: the
 * scope's catch-all parser hands the raw stream to the use case, which checks everything first and
 * then streams it to storage.
 */
export async function chunkRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.put<{ Params: { folderId: string; fileId: string; chunk: string }; Querystring: Record<string, unknown> }>(
    `${UPLOAD_PATH}/:folderId/:fileId/:chunk`,
    limitedBy('chunk'),
    async (request) => {
      const query: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.query))
        query[name] = typeof value === 'string' ? value : undefined;
      return acceptChunk(services, {
        folderId: request.params.folderId,
        fileId: request.params.fileId,
        chunk: request.params.chunk,
        query: query as ChunkUrlQuery,
        contentLength: request.headers['content-length'],
        body: request.raw,
      });
    },
  );
}
