import type { FastifyInstance } from 'fastify';
import type { Services } from '../../app/services.js';
import { getThumbnail, putThumbnail } from '../../app/site/thumbnails.js';
import { fileParams } from '../../contract/requests.js';
import { MAX_THUMBNAIL_BYTES } from '../../domain/limits.js';
import { HttpRefusal } from '../answers/errors.js';
import { FOLDER_CALLER, routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';
import { callerOf } from './site-caller.js';

/**
 * A file's encrypted thumbnail (src/app/site/thumbnails.ts): `PUT` by its uploader or the owner,
 * `GET` by anyone with the list right. Registered by the site's routes, so the site's CSP and
 * headers apply. Thumbnails are read one per tile of an image folder's grid, in the chunk bucket
 * like the chunks themselves; storing one is a site call.
 */
export async function siteThumbnailRoutes(
  scope: FastifyInstance,
  { services, api }: { services: Services; api: string },
): Promise<void> {
  const app = typed(scope);
  const path = `${api}/folders/:folderId/files/:fileId/thumbnail`;
  // This scope reads raw bytes instead of the site's JSON (the parsers are this scope's own).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: MAX_THUMBNAIL_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.addContentTypeParser('*', (_request, _payload, done) =>
    done(new HttpRefusal('unsupported_media_type', 'Content-Type must be application/octet-stream')),
  );
  app.put(
    path,
    {
      ...limitedBy('site'),
      config: routePolicy('site', FOLDER_CALLER),
      bodyLimit: MAX_THUMBNAIL_BYTES,
      schema: { params: fileParams },
    },
    async (request, reply) => {
      const p = request.params;
      await putThumbnail(services, p.folderId, p.fileId, callerOf(request), request.body);
      return reply.header('cache-control', 'no-store').status(204).send();
    },
  );
  app.get(
    path,
    {
      ...limitedBy('chunk'),
      config: routePolicy('site', FOLDER_CALLER),
      compress: false,
      schema: { params: fileParams },
    },
    async (request, reply) => {
      const p = request.params;
      const bytes = await getThumbnail(services, p.folderId, p.fileId, callerOf(request));
      return reply
        .header('cache-control', 'private, no-store')
        .type('application/octet-stream')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
