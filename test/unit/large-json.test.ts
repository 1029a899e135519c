import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonPieces } from '../../src/http/large-json.js';

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
