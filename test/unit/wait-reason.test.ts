import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import en from '../../web/src/i18n/messages/en.json' with { type: 'json' };
import { DOWNLOAD_WAIT, UPLOAD_WAIT, waitReason } from '../../web/src/views/wait-reason.js';

/**
 * The one rule for why the upload and download lines say a transfer waits (web/src/views/wait-reason.ts):
 * the status that caused the retry decides, and only a request with no answer at all is "did not answer".
 */
describe('why a transfer waits', () => {
  test('429 is the server asking to slow down; 408 and 5xx are the server unavailable', () => {
    assert.equal(waitReason(429), 'slow');
    for (const status of [408, 500, 502, 503, 504]) assert.equal(waitReason(status), 'unavailable', String(status));
  });

  test('no answer at all is "did not answer", or "offline" when the browser knows it is', () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    try {
      for (const [onLine, reason] of [
        [true, 'no-answer'],
        [false, 'offline'],
      ] as const) {
        Object.defineProperty(globalThis, 'navigator', { value: { onLine }, configurable: true });
        assert.equal(waitReason(null), reason);
      }
    } finally {
      if (had) Object.defineProperty(globalThis, 'navigator', had);
      else Reflect.deleteProperty(globalThis, 'navigator');
    }
  });

  test('every reason has its words on both lines, with the placeholders the lines fill', () => {
    const messages: Record<string, string> = en;
    for (const key of Object.values(UPLOAD_WAIT)) assert.match(messages[key] ?? '', /\{seconds\}/, key);
    for (const key of Object.values(DOWNLOAD_WAIT)) assert.match(messages[key] ?? '', /\{seconds\}.*\{attempt\}/, key);
  });
});
