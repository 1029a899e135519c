import { decryptChunkRecords, type FolderKey, IntegrityError, importSecret } from '../crypto/index.js';
import { RFC8188_HEADER_LENGTH } from '../domain/chunk-plan.js';
import { untilArrived } from './arriving.js';
import { arrivalOfDownload, type DownloadFile } from './download.js';
import { filePlan } from './plan.js';
import { type ByteRange, type RecordPiece, rangePieces } from './range.js';
import { type HttpOptions, linkedController } from './retry.js';
import { fetchChunkBytes } from './site-client.js';
import { siteChunkUrl } from './urls.js';

/**
 * What a media element's `Range` request is answered with (web/src/workers/sw.ts): the plaintext bytes of
 * `range`, fetched and decrypted a few RFC 8188 records at a time. Each piece asks the chunk's
 * address for only its records (`Range` within the encrypted chunk: the local backend answers 206,
 * object storage too), plus the chunk's 21-byte header once per chunk, and each record is
 * authenticated before any of it is handed on. So a seek waits for one piece (about 1 MiB), not a
 * whole chunk, and memory holds `ahead + 1` pieces whatever the chunk size.
 *
 * What per-record decryption cannot see is the rest of a chunk: a record the player never asks for
 * is never checked. Downloads (downloadStream) still authenticate every chunk whole.
 */
export interface MediaStreamOptions extends HttpOptions {
  /** Pieces fetched ahead of the one handed on (default 2). */
  readonly ahead?: number;
  /** Records per piece (default 16: 1 MiB of ciphertext). */
  readonly recordsPerPiece?: number;
}

export const MEDIA_RECORDS_PER_PIECE = 16;

export function mediaStream(
  file: DownloadFile,
  range: ByteRange,
  options: MediaStreamOptions = {},
): ReadableStream<Uint8Array> {
  const plan = filePlan(file.size, file.chunkSize, file.chunks, file.name);
  const { ahead: aheadOption, recordsPerPiece, ...rest } = options;
  const ahead = Math.max(0, Math.floor(aheadOption ?? 2));
  const pieces = rangePieces(plan, range, recordsPerPiece ?? MEDIA_RECORDS_PER_PIECE);
  const cancelled = linkedController(options.signal);
  const http: HttpOptions = { ...rest, signal: cancelled.signal };
  let keyPromise: Promise<FolderKey> | undefined;
  // Each chunk's header (its salt), fetched once per chunk this stream touches.
  const headers = new Map<number, Promise<Uint8Array>>();
  // A file still arriving plays what has arrived: a piece not stored yet is waited for (arriving.ts).
  const arrival = file.arriving ? arrivalOfDownload(file) : undefined;
  const fetchBytes = (n: number, what: string, bytes: ByteRange) => {
    const fetchOnce = () =>
      fetchChunkBytes(
        siteChunkUrl(file.siteApi, file.folderId, file.fileId, n),
        file.credentials,
        `GET ${what} of chunk ${n}/${plan.chunks} of ${file.name}`,
        http,
        bytes,
      );
    return arrival ? untilArrived(arrival, n, fetchOnce, http.signal) : fetchOnce();
  };
  const headerOf = (n: number) => {
    let header = headers.get(n);
    if (!header) {
      header = fetchBytes(n, 'the header', { start: 0, end: RFC8188_HEADER_LENGTH - 1 });
      header.catch(() => {}); // observed by the piece that needs it
      headers.set(n, header);
    }
    return header;
  };
  const open = async (piece: RecordPiece): Promise<Uint8Array> => {
    keyPromise ??= typeof file.key === 'string' ? importSecret(file.key) : Promise.resolve(file.key);
    const { records } = piece;
    const where = `records ${records.first + 1}-${records.first + records.count} of chunk ${piece.n} of ${file.name}`;
    // A piece from the chunk's first record fetches the header with it, in one request.
    const fromStart = records.first === 0;
    const [header, fetched] = await Promise.all([
      fromStart ? null : headerOf(piece.n),
      fetchBytes(piece.n, `records ${records.first + 1}-${records.first + records.count}`, {
        start: fromStart ? 0 : records.start,
        end: records.end,
      }),
    ]);
    const expected = records.end - records.start + 1;
    const body = fromStart ? fetched.subarray(RFC8188_HEADER_LENGTH) : fetched;
    if (body.length !== expected || (header ?? fetched).length < RFC8188_HEADER_LENGTH)
      throw new IntegrityError(`${where}: got ${body.length} bytes, expected ${expected}: truncated or damaged`);
    let plaintext: Uint8Array;
    try {
      plaintext = await decryptChunkRecords(await keyPromise, header ?? fetched, records.first, body, records.total);
    } catch (error) {
      throw new IntegrityError(`${where} failed its integrity check (${(error as Error).message})`);
    }
    if (plaintext.length !== records.plaintext)
      throw new IntegrityError(`${where} has ${plaintext.length} bytes, expected ${records.plaintext}`);
    return plaintext.subarray(records.skip, records.skip + records.take);
  };
  const pending = new Map<number, Promise<Uint8Array>>();
  const start = (i: number) => {
    const piece = pieces[i];
    if (piece && !pending.has(i)) {
      const p = open(piece);
      p.catch(() => {}); // observed when its turn comes
      pending.set(i, p);
    }
  };
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (index >= pieces.length) {
          controller.close();
          return;
        }
        for (let i = index; i <= index + ahead; i++) start(i);
        const bytes = await pending.get(index)!;
        pending.delete(index);
        // A chunk's header is not needed once the stream has passed the chunk.
        const next = pieces[index + 1];
        if (next && next.n !== pieces[index]!.n) headers.delete(pieces[index]!.n);
        index++;
        controller.enqueue(bytes);
      },
      cancel() {
        cancelled.abort();
        pending.clear();
      },
    },
    { highWaterMark: 1 },
  );
}
