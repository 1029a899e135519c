/**
 * When a file still arriving counts as stopped by its sender. The browser that uploads a file says
 * so while it sends it: a heartbeat every SENDING_BEAT_MS, each keeping the file "being sent" for
 * SENDING_WINDOW_MS (several beats, so one late or lost beat changes nothing), and a last word when
 * it stops (Cancel, a failed file, the tab closed or reloaded). The window decides, not the chunks:
 * on a slow uplink no chunk may land for many minutes while the sender is still at work.
 *
 * A file no browser ever spoke for (uploaded with the API, the library or the CLI, or registered
 * moments ago) is never called stopped: nothing says so.
 */

/** How often a sending browser says it still sends. */
export const SENDING_BEAT_MS = 30_000;

/** How long one beat keeps a file "being sent": four beats, so a stopped tab shows within two minutes. */
export const SENDING_WINDOW_MS = 4 * SENDING_BEAT_MS;

/** Files one heartbeat may name (the page sends more in several). */
export const MAX_SENDING_FILES = 500;

/** Until when a beat at `now` keeps the files being sent, or (`sending` false) that they stopped now. */
export function sendingUntil(now: number, sending: boolean): number {
  return sending ? now + SENDING_WINDOW_MS : now;
}

/**
 * Whether a file has stopped arriving: not complete, and its sender's last beat (`sendingUntil`, null
 * when no browser ever sent one) has run out at `now`.
 */
export function uploadStopped(
  file: { readonly complete: boolean; readonly sendingUntil: number | null },
  now: number,
): boolean {
  return !file.complete && file.sendingUntil !== null && file.sendingUntil <= now;
}
