import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/**
 * Answers that carry very many chunk URL signatures (a maximum create or registration: 100,000
 * signatures, 6.7 MB of JSON) are written as a stream of one piece per file, yielding to the event
 * loop between pieces, instead of one serialisation that holds the loop for the whole answer (issue
 * #21 finding 6: four such requests in parallel made a small request wait over a second). They are
 * sent uncompressed: random hex that compression halves at best, for ~250 ms of CPU.
 */
export const STREAMED_SIGNATURES = 20_000;

interface WithFiles {
  readonly files: ReadonlyArray<{ readonly uploadUrls?: { readonly signatures?: readonly unknown[] } }>;
}

function signatureCount(payload: unknown): number {
  const files = (payload as Partial<WithFiles> | null)?.files;
  if (!Array.isArray(files)) return 0;
  let count = 0;
  for (const file of files) count += file?.uploadUrls?.signatures?.length ?? 0;
  return count;
}

/** The JSON text of `value` (an object with a `files` array), one file per piece, yielding in between. */
export async function* jsonPieces(value: Record<string, unknown>): AsyncGenerator<string> {
  let separator = '{';
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    if (key === 'files' && Array.isArray(field)) {
      yield `${separator}${JSON.stringify(key)}:[`;
      for (const [i, file] of field.entries()) {
        if (i > 0) await nextTurn();
        yield `${i > 0 ? ',' : ''}${JSON.stringify(file)}`;
      }
      yield ']';
    } else yield `${separator}${JSON.stringify(key)}:${JSON.stringify(field)}`;
    separator = ',';
  }
  yield separator === '{' ? '{}' : '}';
}

export function installLargeJson(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || signatureCount(payload) < STREAMED_SIGNATURES) return payload;
    // The reply's own serializer is what Fastify calls next: it may return a stream, which is piped.
    reply.type('application/json; charset=utf-8');
    // Typed as returning a string; Fastify pipes a stream it returns (reply.js, preSerializationHookEnd).
    const stream = Readable.from(jsonPieces(payload as Record<string, unknown>), { objectMode: false });
    reply.serializer(() => stream as unknown as string);
    request.headers['x-no-compression'] = 'signatures';
    return payload;
  });
}
