/** The mail counters' fixed windows, as both SQL stores keep them. */

/** The start of the fixed window `now` falls in. */
export const windowStart = (now: number, windowMs: number): number => Math.floor(now / windowMs) * windowMs;

/** Counters of windows that ended this long ago are deleted as others are spent. */
export const COUNTER_KEEP_MS = 3 * 24 * 3600_000;
