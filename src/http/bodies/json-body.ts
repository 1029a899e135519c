import type { FastifyInstance } from 'fastify';
import { HttpRefusal } from '../answers/errors.js';
import { assertNoDuplicateKeys } from './strict-json.js';

/**
 * How every scope that takes JSON reads its bodies (the v2 API, the site's endpoints, v1, A2A and
 * MCP): with Fastify's own parser, which refuses prototype-poisoning keys (`__proto__`,
 * `constructor.prototype`), under the scope's size limit, and with duplicate keys refused
 * (src/http/bodies/strict-json.ts). Every failure is `invalid_json`, `payload_too_large` or
 * `unsupported_media_type` (src/contract/errors.ts).
 */
export interface JsonBodyOptions {
  /**
   * An empty body: `absent` (read as `undefined`, whatever its media type: the spec makes the v2
   * create body optional) or `invalid` (a JSON-RPC request needs one).
   */
  readonly empty?: 'absent' | 'invalid';
  /**
   * A body of another media type: `refuse` it, or leave it `unread` for the route to judge (the MCP
   * SDK answers the media types it does not take itself).
   */
  readonly otherTypes?: 'refuse' | 'unread';
}

const WRONG_TYPE = 'Content-Type must be application/json';

export function installJsonBodies(app: FastifyInstance, bodyLimit: number, options: JsonBodyOptions = {}): void {
  const { empty = 'absent', otherTypes = 'refuse' } = options;
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  type Done = (error: Error | null, body?: unknown) => void;
  const json = (request: Parameters<typeof parseJson>[0], body: string | Buffer, done: Done) => {
    const text = String(body);
    if (text.trim() === '')
      return empty === 'absent' ? done(null, undefined) : done(new HttpRefusal('invalid_json', 'body is empty'));
    parseJson(request, text, (error, value) => {
      if (error) {
        const poisoned = /prototype|constructor/i.test(error.message);
        return done(
          new HttpRefusal(
            'invalid_json',
            `body is not valid JSON${poisoned ? ': __proto__ keys are not allowed' : ''}`,
          ),
        );
      }
      try {
        assertNoDuplicateKeys(text);
      } catch (duplicate) {
        return done(new HttpRefusal('invalid_json', `body is not valid JSON: ${(duplicate as Error).message}`));
      }
      done(null, value);
    });
  };
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, json);
  app.addContentTypeParser(/^application\/[a-z0-9.+-]*\+json$/, { parseAs: 'string', bodyLimit }, json);
  if (otherTypes === 'unread') {
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  } else if (empty === 'absent') {
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => {
      if ((body as Buffer).length === 0) return done(null, undefined);
      done(new HttpRefusal('unsupported_media_type', WRONG_TYPE), undefined);
    });
  } else {
    // Refused before a byte of the body is read (the error handler then closes the connection).
    app.addContentTypeParser('*', (_request, _payload, done) =>
      done(new HttpRefusal('unsupported_media_type', WRONG_TYPE)),
    );
  }
}
