import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { shownName } from '../../src/domain/shown-names.js';
import { nameSegments, saveName, savePath, uniqueNames, uploadName } from '../../src/transfer/names.js';

/**
 * Names are shown, not applied (src/domain/shown-names.ts): every bidirectional control in a name
 * becomes a visible mark, on every surface; the saved names (src/transfer/names.ts) follow the same
 * rule, so a file is saved under the name the page shows.
 */
const CONTROLS = [
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const ANY_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Names built from ordinary text, right-to-left letters, separators and the controls. */
const names = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom(...CONTROLS),
      fc.constantFrom('.', '/', '\\', 'שלום', 'مرحبا', '12', ' '),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** The inverse of the marks: `[U+202E]` back to its control (for names without a literal "[U+"). */
function unmarked(shown: string): string {
  return shown.replace(/\[U\+([0-9A-F]{4})\]/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));
}

describe('bidirectional controls in names', () => {
  test('a right-to-left override is shown: the name cannot pass for another type', () => {
    assert.equal(shownName('invoice\u202Egpj.exe'), 'invoice[U+202E]gpj.exe');
    assert.equal(shownName('a\u2067b\u2069\u200Fc\u061C'), 'a[U+2067]b[U+2069][U+200F]c[U+061C]');
    // Right-to-left names without controls are left as they are.
    assert.equal(shownName('שלום.txt'), 'שלום.txt');
    assert.equal(shownName('مرحبا 2024.pdf'), 'مرحبا 2024.pdf');
  });

  test('no control survives, the rule is idempotent, and nothing else changes', () => {
    fc.assert(
      fc.property(names, (name) => {
        const shown = shownName(name);
        assert.doesNotMatch(shown, ANY_CONTROL);
        assert.equal(shownName(shown), shown);
        if (!ANY_CONTROL.test(name)) assert.equal(shown, name);
        if (!name.includes('[U+')) assert.equal(unmarked(shown), name);
      }),
      { numRuns: 2000 },
    );
  });

  test('saved names (a download, a zip entry, a file the CLI writes, a stored CLI name) carry no control', () => {
    fc.assert(
      fc.property(names, fc.array(names, { maxLength: 5 }), (name, others) => {
        for (const saved of [saveName(name, 'f'), savePath(name, 'f'), uploadName(name), ...uniqueNames(others)])
          assert.doesNotMatch(saved, ANY_CONTROL);
        // The same marks as the page shows: saving a shown name or the raw one gives the same path.
        assert.deepEqual(nameSegments(shownName(name)), nameSegments(name));
      }),
      { numRuns: 1000 },
    );
    assert.equal(saveName('docs/invoice\u202Egpj.exe', 'f'), 'invoice[U+202E]gpj.exe');
    assert.deepEqual(uniqueNames(['a\u202Eb.txt', 'a[U+202E]b.txt']), ['a[U+202E]b.txt', 'a[U+202E]b (2).txt']);
  });
});
