/**
 * Turns of the event loop for bulk work that one request may bring (signing 100,000 chunk URLs,
 * writing out their JSON, reading a listing page), shared by every request of the process: each
 * step of such work first waits for a turn, and the turns are handed out in arrival order, one per
 * iteration of the event loop. So however many large requests are in flight, one iteration runs one
 * step of one of them (a few ms) beside everything else that is ready, and a small request waits for
 * at most one step, not one of each large request.
 */
const waiting: Array<() => void> = [];
let scheduled = false;

export function bulkTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(handOut);
    }
  });
}

/** Hands the next turn out (its step runs right after, before the loop moves on), and schedules one more. */
function handOut(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(handOut);
  else scheduled = false;
}
