import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonPieces } from '../../src/http/large-json.js';

async function text(value: Record<string, unknown>): Promise<{ text: string; pieces: number }> {
  let out = '';
  let pieces = 0;
  for await (const piece of jsonPieces(value)) {
    out += piece;
    pieces++;
  }
  return { text: out, pieces };
}

test('the streamed JSON is exactly what JSON.stringify makes, one piece per file', async () => {
  const file = (i: number) => ({
    fileId: `f${i}`,
    name: 'a "quoted"\n\u2028 name',
    uploadUrls: { signatures: ['ab', ''] },
  });
  const values: Record<string, unknown>[] = [
    { folderId: 'x', files: [file(1), file(2), file(3)], mode: 'send', skipped: undefined },
    { files: [] },
    { files: [file(1)] },
    {},
    { a: null, files: 'not an array' },
  ];
  for (const value of values) {
    const { text: streamed } = await text(value);
    assert.equal(streamed, JSON.stringify(value));
  }
  assert.ok((await text(values[0]!)).pieces >= 3 + 2);
});
