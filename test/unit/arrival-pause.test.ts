import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextPause, type PauseRule } from '../../src/transfer/arriving.js';

const rule: PauseRule = { followPauseMs: 250, followMs: 10_000, maxPauseMs: 1000 };

/** The pauses a recipient makes from `first`, each `sinceArrival(i)` ms after the last chunk came. */
function pauses(first: number, count: number, sinceArrival: (i: number) => number): number[] {
  const made = [first];
  for (let i = 1; i < count; i++) made.push(nextPause(made[i - 1] as number, sinceArrival(i), rule));
  return made;
}

test('while chunks keep coming the pause doubles only up to the follow pause', () => {
  assert.deepEqual(
    pauses(100, 6, () => 2_000),
    [100, 200, 250, 250, 250, 250],
  );
});

test('once nothing came for the follow time the pause grows to its maximum', () => {
  assert.deepEqual(
    pauses(100, 7, () => 12_000),
    [100, 200, 400, 800, 1000, 1000, 1000],
  );
  // Following, then idle: the pause leaves the follow cap when the follow time has passed.
  assert.deepEqual(
    pauses(100, 6, (i) => (i < 4 ? 9_000 : 10_000)),
    [100, 200, 250, 250, 500, 1000],
  );
});

test('a maximum below the follow pause bounds the follow pause too', () => {
  assert.equal(nextPause(40, 0, { ...rule, maxPauseMs: 50 }), 50);
  assert.equal(nextPause(20, 0, { ...rule, maxPauseMs: 50 }), 40);
});
