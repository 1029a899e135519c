import { UploadEndedError, WebfolderError } from './errors.js';
import { sleep } from './retry.js';
import type { SiteClient } from './site-client.js';

/**
 * Downloading a file while its upload is still running. Chunks are independent RFC 8188
 * messages, so a recipient needs no more than the chunks stored so far to start: the download
 * pipeline (download.ts openChunk) fetches each chunk as usual, and when the site answers 404 for
 * one that has not arrived yet it asks its `Arrival` to wait. The arrival pauses (a pause that grows
 * while nothing arrives) and the chunk is asked for again: the chunk's own GET is the probe (its 404
 * is not charged to the download), so waiting costs one request per pause. Now and then (at most
 * once per `lookEveryMs`) it also looks at the folder's listing, which says:
 * - ask again: the file is still arriving (or has just completed);
 * - never: the file is gone from the listing (its upload was cancelled), the folder is gone
 *   (deleted or expired), the listing says its sender stopped it (src/domain/sending.ts), or no
 *   chunk came for `stallMs` (a sender that never said): UploadEndedError.
 *
 * Several chunks fetched ahead wait at once; they share one look at the listing.
 */
export interface Arrival {
  /**
   * Called when chunk `k` answered 404 (`notFound`). Resolves when it is worth asking for the chunk
   * again; rejects with UploadEndedError when it will never come, and rethrows `notFound` when the
   * file is complete and the chunk still missing (a real fault, not a wait).
   */
  wait(k: number, notFound: WebfolderError, signal?: AbortSignal): Promise<void>;
  /** Chunk `k` arrived: the stall clock restarts. */
  arrived(k: number): void;
}

export interface ArrivalOptions {
  /** Told each time a chunk is waited for (the CLI prints it once per chunk). */
  readonly onWaiting?: (k: number) => void;
  /**
   * First pause before asking again, doubling up to `followPauseMs` while the last chunk arrived
   * less than `followMs` ago, then up to `maxPauseMs` (defaults 100, 250, 10 s and 1000): see
   * `nextPause`.
   */
  readonly pauseMs?: number;
  readonly followPauseMs?: number;
  readonly followMs?: number;
  readonly maxPauseMs?: number;
  /** Shortest time between two looks at the listing (default 1000 ms). */
  readonly lookEveryMs?: number;
  /** Give up when no chunk arrived for this long (default 15 minutes). */
  readonly stallMs?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

const DEFAULT_STALL_MS = 15 * 60_000;

/** How an arrival's pause grows (ArrivalOptions; all in milliseconds). */
export interface PauseRule {
  readonly followPauseMs: number;
  readonly followMs: number;
  readonly maxPauseMs: number;
}

/**
 * The pause after `pause`, `sinceArrival` ms after the last chunk arrived. While chunks keep coming
 * the recipient follows the sender closely: each pause it overshoots a chunk's arrival by is time
 * added to the recipient's wait at the end (the last chunk is seen up to one pause late), so the pause
 * stays short (a chunk's 404 costs the site one cheap request). Once nothing came for `followMs` the
 * sender is slow or paused, and the pause grows to `maxPauseMs`.
 */
export function nextPause(pause: number, sinceArrival: number, rule: PauseRule): number {
  const cap = sinceArrival < rule.followMs ? Math.min(rule.followPauseMs, rule.maxPauseMs) : rule.maxPauseMs;
  return Math.min(cap, pause * 2);
}

export function arrivalOf(client: SiteClient, fileId: string, name: string, options: ArrivalOptions = {}): Arrival {
  const now = options.now ?? Date.now;
  // Short: the recipient follows the sender chunk by chunk, and a pause longer than the time between
  // two stored chunks is time lost at the end (bench/arriving.ts, docs/benchmarks.md).
  const firstPause = options.pauseMs ?? 100;
  const rule: PauseRule = {
    followPauseMs: options.followPauseMs ?? 250,
    followMs: options.followMs ?? 10_000,
    maxPauseMs: options.maxPauseMs ?? 1000,
  };
  const lookEvery = options.lookEveryMs ?? 1000;
  let lastLook = Number.NEGATIVE_INFINITY;
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  let pause = firstPause;
  let lastArrival = now();
  let complete = false;
  // One look at a time, shared by every chunk waiting.
  let look: Promise<void> | null = null;

  const lookAtListing = async (signal?: AbortSignal): Promise<void> => {
    await sleep(pause, signal);
    pause = nextPause(pause, now() - lastArrival, rule);
    // Between looks, the chunk's GET itself says whether it came; the listing is for how it ends.
    if (now() - lastLook < lookEvery) return;
    lastLook = now();
    let files: Awaited<ReturnType<SiteClient['listAll']>>;
    try {
      files = await client.listAll();
    } catch (error) {
      if (error instanceof WebfolderError && (error.status === 404 || error.status === 410))
        throw new UploadEndedError(
          `the folder was deleted or expired while "${name}" was arriving: the download is incomplete and was not kept`,
        );
      throw error;
    }
    const file = files.find((f) => f.fileId === fileId);
    if (!file)
      throw new UploadEndedError(
        `the upload of "${name}" was cancelled (the file was removed): the download is incomplete and was not kept`,
      );
    if (file.complete) complete = true;
    else if (file.stopped)
      throw new UploadEndedError(
        `the sender stopped the upload of "${name}" at ${Math.floor((100 * file.storedChunks) / file.chunks)} %: the download is incomplete and was not kept; download it again once the upload goes on`,
      );
    else if (now() - lastArrival > stallMs)
      throw new UploadEndedError(
        `no part of "${name}" arrived for ${Math.round(stallMs / 60_000)} minutes: the sender stopped; the download is incomplete and was not kept`,
      );
  };

  return {
    async wait(k, notFound, signal) {
      // Complete, yet this chunk is missing: not a wait, a fault of the store.
      if (complete) throw notFound;
      options.onWaiting?.(k);
      look ??= lookAtListing(signal).finally(() => {
        look = null;
      });
      await look;
    },
    arrived() {
      lastArrival = now();
      pause = firstPause;
    },
  };
}

/**
 * `fetchOnce` for chunk `k` (a whole chunk, some of its records, or the page's crypto workers'
 * fetch-and-open), asked again each time `arrival` says so while the site answers 404: the one loop
 * every reader of an arriving file runs.
 */
export async function untilArrived<T>(
  arrival: Arrival,
  k: number,
  fetchOnce: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (;;) {
    try {
      const got = await fetchOnce();
      arrival.arrived(k);
      return got;
    } catch (error) {
      if (!(error instanceof WebfolderError && error.status === 404)) throw error;
      await arrival.wait(k, error, signal);
    }
  }
}
