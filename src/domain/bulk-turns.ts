/**
 * The one way bulk work stays off the event loop's critical path: it runs on the main thread in
 * steps, and each step after the first waits for a turn. Turns of the event loop for bulk work that one request may bring (signing 100,000 chunk URLs,
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

/**
 * How long one step of bulk work may run before it waits for its next turn: a ms, so that four
 * large requests in flight keep a small request's p99 near its idle figure (bench/abuse.ts).
 */
const STEP_MS = 1;

/**
 * The steps of one piece of bulk work whose items differ in cost (chunk signatures, SDK calls):
 * `await steps.next()` before each item waits for a turn once the current step has run STEP_MS, so
 * a step is about a ms whatever an item costs on this machine. The clock read is cheap beside an item.
 */
export interface BulkSteps {
  next(): Promise<void> | undefined;
}

export function bulkSteps(): BulkSteps {
  let start = performance.now();
  return {
    next() {
      if (performance.now() - start < STEP_MS) return undefined;
      return bulkTurn().then(() => {
        start = performance.now();
      });
    },
  };
}
