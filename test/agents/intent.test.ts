import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataIntent, parseTextIntent } from '../../src/agents/folder-intent.js';

/** How the A2A skill reads title and mode from plain text and from a data part. */
test('plain text: title and mode', () => {
  const cases: [string, { title?: string; mode?: string }][] = [
    ['create a share folder called Holiday photos', { mode: 'share', title: 'Holiday photos' }],
    ['Create a folder called Wedding pictures in share mode', { mode: 'share', title: 'Wedding pictures' }],
    ['make a folder named "Q3 reports", in send mode.', { mode: 'send', title: 'Q3 reports' }],
    ["please create a folder titled 'Tax 2026'", { title: 'Tax 2026' }],
    ['create a folder with mode: share', { mode: 'share' }],
    ['create a folder for sending the Q3 reports', {}],
    ['create a request folder called Inbox', { mode: 'request', title: 'Inbox' }],
    ['create a folder', {}],
    ['', {}],
  ];
  for (const [text, expected] of cases) assert.deepEqual(parseTextIntent(text), expected, text);
});

test('plain text: never throws on odd input', () => {
  for (const text of [
    'called',
    'named   ',
    '"'.repeat(1000),
    'mode',
    `${'x'.repeat(100_000)} called y`,
    '\u0000 called \u0000',
  ]) {
    assert.doesNotThrow(() => parseTextIntent(text));
  }
});

test('data part: only title and mode, with reasons', () => {
  assert.deepEqual(dataIntent({ title: 'A', mode: 'share' }), { title: 'A', mode: 'share' });
  assert.deepEqual(dataIntent({}), {});
  assert.deepEqual(dataIntent({ title: null }), { title: null });
  assert.throws(() => dataIntent({ files: [] }), /files are not accepted/);
  assert.throws(() => dataIntent({ owner: 'x' }), /not an accepted field/);
  assert.throws(() => dataIntent([1]), /JSON object/);
  assert.throws(() => dataIntent('share'), /JSON object/);
  assert.throws(() => dataIntent({ title: 5 }), /title must be a string/);
  assert.throws(() => dataIntent({ mode: 1 }), /mode must be a string/);
});

test('plain text: only mode names count as a mode', () => {
  assert.deepEqual(parseTextIntent('create a folder, whichever mode is best'), {});
  assert.deepEqual(parseTextIntent('create a folder in the "share" mode'), { mode: 'share' });
});
