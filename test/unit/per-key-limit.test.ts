import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PerKeyLimit } from '../../src/http/connections/per-key-limit.js';

test('at most cap holders per key; a release frees one slot, once however often it is called', () => {
  const limit = new PerKeyLimit(2);
  const a1 = limit.take('a');
  const a2 = limit.take('a');
  assert.ok(a1 && a2);
  assert.equal(limit.take('a'), null, 'a third holder of the same key is refused');
  const b = limit.take('b');
  assert.ok(b, 'another key has its own slots');
  a1();
  a1();
  const a3 = limit.take('a');
  assert.ok(a3, 'a released slot is free again');
  assert.equal(limit.take('a'), null, 'a double release freed one slot, not two');
  a2();
  a3();
  assert.ok(limit.take('a') && limit.take('a'), 'all slots back once every holder released');
});
