import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downloadZip, predictLength } from 'client-zip';

/**
 * "Download all" streams a ZIP made by client-zip in the service worker (web/src/sw.ts). This checks,
 * without a browser, that the same call produces a valid ZIP64 archive past 4 GiB: sizes and offsets
 * beyond 32 bits recorded in ZIP64 extra fields and the ZIP64 end records, the archive length equal
 * to the predicted Content-Length. Only the tail of the stream is kept: memory stays flat.
 */
const GIB = 1024 ** 3;
const PIECE = new Uint8Array(4 * 1024 * 1024).fill(0x5a);

function stream(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    pull(controller) {
      if (left === 0) return controller.close();
      const n = Math.min(left, PIECE.length);
      controller.enqueue(n === PIECE.length ? PIECE : PIECE.subarray(0, n));
      left -= n;
    },
  });
}

test('the zip of "download all" is a valid ZIP64 archive past 4 GiB', { timeout: 300_000 }, async () => {
  const big = 4 * GIB + 12345;
  const entries = [
    { name: 'big.bin', size: big, lastModified: new Date() },
    { name: 'dir/after.txt', size: 10, lastModified: new Date() },
  ];
  const response = downloadZip(
    entries.map((e) => ({ ...e, input: stream(e.size) })),
    { metadata: entries },
  );
  const predicted = Number(response.headers.get('content-length'));
  assert.equal(BigInt(predicted), predictLength(entries));
  let total = 0;
  let tail = new Uint8Array(0);
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    const joined = new Uint8Array(Math.min(65536, tail.length + value.length));
    const all = value.length >= 65536 ? value.subarray(value.length - 65536) : value;
    const keep = joined.length - all.length;
    joined.set(tail.subarray(tail.length - keep), 0);
    joined.set(all, keep);
    tail = joined;
  }
  assert.equal(total, predicted, 'archive length equals the predicted Content-Length');
  assert.ok(total > big);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const find = (sig: number) => {
    for (let i = tail.length - 4; i >= 0; i--) if (view.getUint32(i, true) === sig) return i;
    return -1;
  };
  const eocd = find(0x06054b50);
  const locator = find(0x07064b50);
  const eocd64 = find(0x06064b50);
  assert.ok(eocd > 0 && locator > 0 && eocd64 > 0, 'ZIP64 end of central directory record and locator present');
  const entriesTotal = view.getBigUint64(eocd64 + 32, true);
  const cdSize = Number(view.getBigUint64(eocd64 + 40, true));
  const cdOffset = Number(view.getBigUint64(eocd64 + 48, true));
  assert.equal(entriesTotal, 2n);
  assert.ok(cdOffset > 2 ** 32, 'central directory starts past 4 GiB');
  assert.equal(
    cdOffset + cdSize,
    total - (tail.length - eocd64),
    'central directory ends where the ZIP64 end record starts',
  );
  // Walk the central directory (it is inside the kept tail): the big entry's size lives in its ZIP64 extra field.
  let p = tail.length - (total - cdOffset);
  const names: string[] = [];
  const sizes: bigint[] = [];
  for (let k = 0; k < 2; k++) {
    assert.equal(view.getUint32(p, true), 0x02014b50);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    names.push(new TextDecoder().decode(tail.subarray(p + 46, p + 46 + nameLen)));
    let size = BigInt(view.getUint32(p + 24, true));
    for (let e = p + 46 + nameLen; e < p + 46 + nameLen + extraLen; ) {
      const id = view.getUint16(e, true);
      const len = view.getUint16(e + 2, true);
      if (id === 0x0001 && size === 0xffffffffn) size = view.getBigUint64(e + 4, true);
      e += 4 + len;
    }
    sizes.push(size);
    p += 46 + nameLen + extraLen + commentLen;
  }
  assert.deepEqual(names, ['big.bin', 'dir/after.txt']);
  assert.deepEqual(sizes, [BigInt(big), 10n]);
});
