import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/**
 * Answers that carry very many chunk URL signatures (a maximum create or registration: 100,000
 * signatures, 6.7 MB of JSON) are written as a stream of pieces of about 256 KiB (long arrays 4,000
 * elements at a time), yielding to the event loop between pieces, instead of one serialisation that
 * holds the loop for the whole answer (issue #21 finding 6: four such requests in parallel made a
 * small request wait over a second; pieces per file halved that p99, docs/benchmarks.md). They are
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

/** Array elements serialised per piece: a few ms of work between two turns of the event loop. */
const ELEMENTS_PER_PIECE = 4000;

/**
 * The JSON text of `value`, exactly as JSON.stringify writes it, in pieces: arrays longer than
 * ELEMENTS_PER_PIECE (a file's 10,000 signatures) are written a slice at a time, and every piece
 * after the first waits for a turn of the event loop. Plain data only (no toJSON, no cycles), which
 * is what the routes answer.
 */
export async function* jsonPieces(value: unknown): AsyncGenerator<string> {
  let pending = '';
  let written = 0;
  // Small values are gathered into one piece; a piece goes out once it is big enough.
  async function* flush(force: boolean): AsyncGenerator<string> {
    if (pending.length === 0 || (!force && pending.length < 256 * 1024)) return;
    if (written++ > 0) await nextTurn();
    yield pending;
    pending = '';
  }
  async function* walk(v: unknown): AsyncGenerator<string> {
    if (Array.isArray(v) && v.length > ELEMENTS_PER_PIECE) {
      pending += '[';
      for (let at = 0; at < v.length; at += ELEMENTS_PER_PIECE) {
        const slice = JSON.stringify(v.slice(at, at + ELEMENTS_PER_PIECE));
        pending += `${at > 0 ? ',' : ''}${slice.slice(1, -1)}`;
        yield* flush(false);
      }
      pending += ']';
    } else if (Array.isArray(v)) {
      pending += '[';
      for (const [i, item] of v.entries()) {
        if (i > 0) pending += ',';
        // Inside arrays JSON.stringify writes undefined and functions as null.
        if (item === undefined || typeof item === 'function') pending += 'null';
        else yield* walk(item);
      }
      pending += ']';
    } else if (v !== null && typeof v === 'object') {
      pending += '{';
      let first = true;
      for (const [key, field] of Object.entries(v)) {
        if (field === undefined || typeof field === 'function') continue;
        pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        yield* walk(field);
      }
      pending += '}';
    } else pending += JSON.stringify(v);
    yield* flush(false);
  }
  yield* walk(value);
  yield* flush(true);
}

export function installLargeJson(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || signatureCount(payload) < STREAMED_SIGNATURES) return payload;
    // The reply's own serializer is what Fastify calls next: it may return a stream, which is piped.
    reply.type('application/json; charset=utf-8');
    // Typed as returning a string; Fastify pipes a stream it returns (reply.js, preSerializationHookEnd).
    const stream = Readable.from(jsonPieces(payload), { objectMode: false });
    reply.serializer(() => stream as unknown as string);
    request.headers['x-no-compression'] = 'signatures';
    return payload;
  });
}
