import type { FastifyInstance } from 'fastify';
import { HttpRefusal } from './errors.js';

/**
 * Request bodies in the API scope. The spec makes the create body optional: an empty body, whatever
 * its Content-Type, is an absent body (`undefined`). A non-empty body must be JSON; it is parsed with
 * Fastify's own parser (which guards against prototype poisoning) and refused with a 400 otherwise.
 */
export function installJsonBodies(app: FastifyInstance, bodyLimit: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  type Done = (error: Error | null, body?: unknown) => void;
  const json = (request: Parameters<typeof parseJson>[0], body: string | Buffer, done: Done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, json);
  app.addContentTypeParser(/^application\/[a-z0-9.+-]*\+json$/, { parseAs: 'string', bodyLimit }, json);
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    done(new HttpRefusal('unsupported_media_type', 'Content-Type must be application/json'), undefined);
  });
}
