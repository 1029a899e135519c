import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Cooperative time slicing for CPU-bound loops on the main thread (signing thousands of chunk URLs):
 * `await slice.tick()` in the loop yields to the event loop once the current slice has run longer
 * than `budgetMs`, so other requests are served between slices. Checking the clock costs little,
 * but not nothing, so the clock is read only every `every` ticks.
 */
export interface TimeSlice {
  tick(): Promise<void> | undefined;
}

export function timeSlice(budgetMs = 4, every = 64): TimeSlice {
  let start = performance.now();
  let count = 0;
  return {
    tick() {
      if (++count % every !== 0 || performance.now() - start < budgetMs) return undefined;
      return nextTurn().then(() => {
        start = performance.now();
      });
    },
  };
}
