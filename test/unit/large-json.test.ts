import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SIGNATURE_TEXT, signatureStrings, signatureText } from '../../src/domain/signature-text.js';
import { jsonPieces } from '../../src/http/answers/large-json.js';

async function text(value: unknown): Promise<{ text: string; pieces: number }> {
  let out = '';
  let pieces = 0;
  for await (const piece of jsonPieces(value)) {
    out += piece;
    pieces++;
  }
  return { text: out, pieces };
}

test('the streamed JSON is exactly what JSON.stringify makes, in pieces', async () => {
  const file = (i: number) => ({
    fileId: `f${i}`,
    name: 'a "quoted"\n\u2028 name',
    uploadUrls: { signatures: ['ab', ''] },
  });
  const values: unknown[] = [
    { folderId: 'x', files: [file(1), file(2), file(3)], mode: 'send', skipped: undefined },
    { files: [] },
    { files: [file(1)] },
    {},
    { a: null, files: 'not an array' },
    {
      files: [
        { uploadUrls: { signatures: Array.from({ length: 10_001 }, (_, i) => i.toString(16).padStart(64, '0')) } },
      ],
    },
    [1, undefined, () => 1, { f: () => 1, n: null, d: 1.5, b: false, nested: [[], {}] }],
    'a string',
    null,
  ];
  for (const value of values) {
    const { text: streamed } = await text(value);
    assert.equal(streamed, JSON.stringify(value));
  }
  // 10,001 signatures of 64 characters: about 670 KB, in pieces of 4,000 of them (268 KB).
  const big = await text(values[5]);
  assert.ok(big.pieces >= 3, `${big.pieces} pieces`);
});

test('signatures kept as one text are written exactly as their strings would be, and read as strings', async () => {
  const hexOf = (count: number) =>
    Array.from({ length: count }, (_, i) => (i * 7919).toString(16).padStart(64, 'a')).join('');
  const urls = (count: number, numbers: number[] | null) => {
    const text = signatureText(hexOf(numbers?.length ?? count), count, numbers);
    const made = { head: 'h', path: 'p', tail: 't', signatures: signatureStrings(text), headers: { a: 'b' } };
    Object.defineProperty(made, SIGNATURE_TEXT, { value: text });
    return made;
  };
  for (const value of [
    {
      files: [
        { fileId: 'a', uploadUrls: urls(10_001, null) },
        { fileId: 'b', uploadUrls: urls(3, null) },
      ],
    },
    { files: [{ uploadUrls: urls(9_000, [1, 2, 4_001, 8_999, 9_000]) }] },
    { files: [{ uploadUrls: urls(5, []) }] },
  ]) {
    const expected = JSON.stringify(value);
    assert.equal((await text(value)).text, expected);
    // The strings a reader gets are the same signatures.
    assert.equal(JSON.stringify(JSON.parse(expected)), expected);
  }
  assert.deepEqual(
    urls(3, null).signatures,
    [0, 1, 2].map((i) => hexOf(3).slice(i * 64, (i + 1) * 64)),
  );
  const partial = urls(4, [2, 4]).signatures;
  assert.deepEqual(partial, ['', hexOf(2).slice(0, 64), '', hexOf(2).slice(64)]);
});
