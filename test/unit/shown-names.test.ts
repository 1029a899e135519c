import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { shownName } from '../../src/domain/shown-names.js';
import { type DownloadFile, zipEntries } from '../../src/transfer/download.js';
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
  // Invisible: zero-width space, non-joiner, joiner, word joiner, byte-order mark.
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
];
const ANY_CONTROL = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

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
    // Invisible characters too: "pass\u200Bword.txt" is not "password.txt".
    assert.equal(shownName('pass\u200Bword.txt'), 'pass[U+200B]word.txt');
    assert.equal(shownName('\uFEFFa\u200Cb\u200Dc\u2060.txt'), '[U+FEFF]a[U+200C]b[U+200D]c[U+2060].txt');
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

describe('saved names every system can create (a download, a zip entry, a file the CLI writes)', () => {
  test("Windows' forbidden characters, device names and trailing dots or spaces are made safe", () => {
    assert.equal(saveName('a:b*c?d"e<f>g|h.txt', 'f'), 'a_b_c_d_e_f_g_h.txt');
    assert.equal(saveName('CON.txt', 'f'), '_CON.txt');
    assert.equal(saveName('nul', 'f'), '_nul');
    assert.equal(saveName('com1.tar.gz', 'f'), '_com1.tar.gz');
    assert.equal(saveName('console.txt', 'f'), 'console.txt', 'only the device names themselves');
    assert.equal(saveName('trailing dot.', 'f'), 'trailing dot');
    assert.equal(saveName('  leading and trailing  . ', 'f'), 'leading and trailing');
    assert.equal(savePath('dir./AUX/x?.txt', 'f'), 'dir/_AUX/x_.txt');
    assert.equal(saveName('...', 'fallback'), 'fallback');
    // The zip's entries follow the same rule, unique after it.
    assert.deepEqual(uniqueNames(['a?.txt', 'a*.txt', 'CON.txt']), ['a_.txt', 'a_ (2).txt', '_CON.txt']);
    // The stored name keeps what its uploader chose: only saving makes it portable.
    assert.equal(uploadName('a:b/CON.txt'), 'a:b/CON.txt');
  });

  test('every saved name is portable', () => {
    const hostile = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 4 }),
          fc.constantFrom('<', '>', ':', '"', '|', '?', '*', '.', ' ', '/', '\\'),
          fc.constantFrom('CON', 'lpt9'),
        ),
        {
          maxLength: 10,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(hostile, (name) => {
        for (const segment of savePath(name, 'f').split('/')) {
          assert.doesNotMatch(segment, /[<>:"|?*]/);
          assert.doesNotMatch(segment, /[. ]$/);
          assert.doesNotMatch(segment, /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("a zip entry carries its file's upload time, else the download's", () => {
    const file = (name: string, uploadedAt?: number) =>
      ({ name, size: 3, ...(uploadedAt === undefined ? {} : { uploadedAt }) }) as DownloadFile;
    const uploaded = Date.UTC(2026, 0, 2, 3, 4, 6);
    const now = Date.UTC(2026, 5, 1);
    assert.deepEqual(zipEntries([file('a:b.txt', uploaded), file('a?b.txt')], now), [
      { name: 'a_b.txt', size: 3, lastModified: new Date(uploaded) },
      { name: 'a_b (2).txt', size: 3, lastModified: new Date(now) },
    ]);
  });
});
