import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { bulkTurn } from '../../domain/bulk-turns.js';
import { signatureTextOf } from '../../domain/signature-text.js';

/**
 * Answers that carry very many chunk URL signatures (a maximum create or registration: 100,000
 * signatures, 6.7 MB of JSON) are written as a stream of pieces of about 256 KiB (long arrays 4,000
 * elements at a time), yielding to the event loop between pieces, instead of one serialisation that
 * holds the loop for the whole answer (four such requests in parallel made a
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
  for (const file of files)
    count += signatureTextOf(file?.uploadUrls)?.count ?? file?.uploadUrls?.signatures?.length ?? 0;
  return count;
}

/** Array elements serialised per piece: a few ms of work between two turns of the event loop. */
const ELEMENTS_PER_PIECE = 4000;

/** Bytes gathered before a piece goes out. */
const PIECE_LENGTH = 256 * 1024;

/**
 * The JSON text of `value`, exactly as JSON.stringify writes it, in pieces: arrays longer than
 * ELEMENTS_PER_PIECE (a file's 10,000 signatures) are written a slice at a time, and every piece
 * after the first waits for a turn of the event loop shared with all other bulk work (bulkTurn). Plain data only (no toJSON, no cycles), which
 * is what the routes answer.
 *
 * The walk itself is synchronous and descends only into objects and arrays of objects: an array of
 * strings or numbers (a file's signatures) is one JSON.stringify call per slice, so 100 files of
 * 1,000 signatures cost a few hundred native calls, not one step of a generator per signature.
 */
export async function* jsonPieces(value: unknown): AsyncGenerator<string> {
  const made = pieces(value);
  for (let first = true; ; first = false) {
    // The turn comes before the work: the next piece is made when the generator steps.
    if (!first) await bulkTurn();
    const next = made.next();
    if (next.done) return;
    yield next.value;
  }
}

function* pieces(value: unknown): Generator<string> {
  let pending = '';
  function* walk(v: unknown): Generator<string> {
    if (Array.isArray(v) && v.length > ELEMENTS_PER_PIECE) {
      pending += '[';
      for (let at = 0; at < v.length; at += ELEMENTS_PER_PIECE) {
        const slice = JSON.stringify(v.slice(at, at + ELEMENTS_PER_PIECE));
        pending += `${at > 0 ? ',' : ''}${slice.slice(1, -1)}`;
        yield* flush();
      }
      pending += ']';
    } else if (Array.isArray(v)) {
      if (!v.some(isObject)) {
        // Strings, numbers and the like (undefined and functions become null, as JSON.stringify writes them).
        pending += JSON.stringify(v);
      } else {
        pending += '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) pending += ',';
          const item: unknown = v[i];
          if (item === undefined || typeof item === 'function') pending += 'null';
          else yield* walk(item);
        }
        pending += ']';
      }
    } else if (isObject(v)) {
      pending += '{';
      let first = true;
      const text = signatureTextOf(v);
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (text && key === 'signatures') {
          // Written from the signatures' one text, a slice at a time, never as separate strings.
          pending += `${first ? '' : ','}"signatures":[`;
          first = false;
          for (let at = 0; at < text.count; at += ELEMENTS_PER_PIECE) {
            pending += `${at > 0 ? ',' : ''}${text.json(at, at + ELEMENTS_PER_PIECE)}`;
            yield* flush();
          }
          pending += ']';
          continue;
        }
        const field = (v as Record<string, unknown>)[key];
        if (field === undefined || typeof field === 'function') continue;
        pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        yield* walk(field);
      }
      pending += '}';
    } else pending += JSON.stringify(v);
    yield* flush();
  }
  function* flush(): Generator<string> {
    if (pending.length < PIECE_LENGTH) return;
    yield pending;
    pending = '';
  }
  yield* walk(value);
  if (pending.length > 0) yield pending;
}

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';

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
