import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

const COMPRESSIBLE =
  /^(?:text\/(?:html|css|plain|markdown|javascript|xml)|application\/(?:json|javascript|xml|yaml|[a-z0-9.+-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/;

/**
 * JSON answers past this size are sent as they are. The only JSON that large is chunk URL signatures
 * (a maximum create or registration: 100,000 signatures, 6.7 MB) and listings of encrypted names:
 * random hex and base64 that compression shrinks by half at best, for ~250 ms of CPU per answer
 * (gzip or brotli at its default level, measured), and even brotli's
 * cheapest level costs twice the whole request. The bytes saved are nothing beside the upload
 * those URLs are for; the CPU is what a stranger could make the server spend.
 */
export const UNCOMPRESSED_JSON_BYTES = 1024 * 1024;

/**
 * Compression when the client accepts it: the JSON answers, pages, docs and scripts. Not chunk bodies
 * (octet-stream, already encrypted) nor event streams, which must reach the client as they are
 * written, nor JSON answers over UNCOMPRESSED_JSON_BYTES.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  // Runs before the compression plugin's own onSend (route-level hooks run after the app's), and
  // uses its documented opt-out: a request with x-no-compression is answered uncompressed.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      typeof payload === 'string' &&
      payload.length > UNCOMPRESSED_JSON_BYTES &&
      /^application\/(?:[a-z0-9.+-]+\+)?json/.test(String(reply.getHeader('content-type') ?? ''))
    )
      request.headers['x-no-compression'] = 'large-json';
    done(null, payload);
  });
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    customTypes: COMPRESSIBLE,
  });
}
