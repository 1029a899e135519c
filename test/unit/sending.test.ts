import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SENDING_BEAT_MS, SENDING_WINDOW_MS, sendingUntil, uploadStopped } from '../../src/domain/sending.js';

describe('a stopped upload (src/domain/sending.ts)', () => {
  const T = 1_800_000_000_000;

  it('a beat keeps a file arriving for several beats; a last word stops it at once', () => {
    assert.ok(SENDING_WINDOW_MS >= 3 * SENDING_BEAT_MS, 'one late or lost beat must not stop a file');
    const beat = sendingUntil(T, true);
    assert.equal(uploadStopped({ complete: false, sendingUntil: beat }, T + SENDING_BEAT_MS), false);
    assert.equal(uploadStopped({ complete: false, sendingUntil: beat }, T + SENDING_WINDOW_MS - 1), false);
    assert.equal(uploadStopped({ complete: false, sendingUntil: beat }, T + SENDING_WINDOW_MS), true);
    assert.equal(uploadStopped({ complete: false, sendingUntil: sendingUntil(T, false) }, T), true);
  });

  it('a complete file, or one no browser spoke for (API, CLI), is never stopped', () => {
    assert.equal(uploadStopped({ complete: true, sendingUntil: T }, T + 10 * SENDING_WINDOW_MS), false);
    assert.equal(uploadStopped({ complete: false, sendingUntil: null }, T + 10 * SENDING_WINDOW_MS), false);
  });
});
