import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import { predictLength } from 'client-zip';
import { newContext, SKIP, useBrowserFixture, watch } from './browser.js';

/**
 * "Download all" past 4 GiB, end to end: a folder holding a file of 4 GiB + 12345 bytes (uploaded by
 * the `webfolder` CLI from a sparse file, so the disk holds only its encrypted chunks) and a small
 * one is opened in Chromium, and the page's "Download all" button has the service worker fetch,
 * decrypt and zip both into one streamed download. The archive must be valid ZIP64: sizes and offsets
 * beyond 32 bits in ZIP64 extra fields and end records, the length client-zip predicts, and the big
 * entry's CRC equal to that of its 4 GiB of zeros (so every byte was decrypted and passed through).
 * Only the tail of the download is kept in memory.
 */
const GIB = 1024 ** 3;
const ROOT = new URL('../../', import.meta.url).pathname;
const ZEROS = new Uint8Array(4 * 1024 * 1024);

/** CRC-32 of `size` zero bytes. */
function zerosCrc(size: number): number {
  let crc = 0;
  for (let left = size; left > 0; left -= ZEROS.length)
    crc = crc32(left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left), crc);
  return crc;
}

async function cliUpload(server: string, paths: string[]): Promise<{ link: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/webfolder.js'), 'upload', ...paths, '--json', '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, WEBFOLDER_SERVER: server },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0, `webfolder upload failed:\n${stderr}`);
  return JSON.parse(stdout) as { link: string };
}

describe('site: "Download all" of more than 4 GiB is a valid ZIP64 archive (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture({ CHUNK_SIZE_MIB: '64', RATE_LIMIT_CHUNK: '100000' });

  test('the service worker streams a ZIP64 archive with every byte of both files', { timeout: 900_000 }, async () => {
    const big = 4 * GIB + 12345;
    const bigPath = join(fx.dir, 'big.bin');
    const handle = await open(bigPath, 'w');
    await handle.truncate(big); // sparse: reads as zeros, takes no disk
    await handle.close();
    const smallPath = join(fx.dir, 'after.txt');
    await writeFile(smallPath, 'after big\n');
    const { link } = await cliUpload(fx.server.baseUrl, [bigPath, smallPath]);

    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(link);
    await page.locator('#files li[data-file-id] button.download:not([disabled])').nth(1).waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.locator('#download-all').click(),
    ]);
    assert.match(download.suggestedFilename(), /\.zip$/);
    // Chromium writes the archive to a file of its own: its length and its last 64 KiB (the end
    // records and the central directory) are read from there, not streamed back through the driver.
    const saved = await download.path();
    const failure = await download.failure();
    assert.equal(failure, null, `the download failed: ${failure}`);
    const file = await open(saved, 'r');
    const { size: total } = await file.stat();
    const tail = Buffer.alloc(Math.min(total, 65536));
    await file.read(tail, 0, tail.length, total - tail.length);
    await file.close();
    await download.delete();
    await ctx.close();

    const entries = [
      { name: 'big.bin', size: big },
      { name: 'after.txt', size: 10 },
    ];
    assert.equal(BigInt(total), predictLength(entries), 'archive length equals the length client-zip predicts');
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
    // Walk the central directory (inside the kept tail): the big entry's size is in its ZIP64 extra field.
    let p = tail.length - (total - cdOffset);
    const found: { name: string; size: bigint; crc: number }[] = [];
    for (let k = 0; k < 2; k++) {
      assert.equal(view.getUint32(p, true), 0x02014b50);
      const crc = view.getUint32(p + 16, true);
      const nameLen = view.getUint16(p + 28, true);
      const extraLen = view.getUint16(p + 30, true);
      const commentLen = view.getUint16(p + 32, true);
      const name = new TextDecoder().decode(tail.subarray(p + 46, p + 46 + nameLen));
      let size = BigInt(view.getUint32(p + 24, true));
      for (let e = p + 46 + nameLen; e < p + 46 + nameLen + extraLen; ) {
        const id = view.getUint16(e, true);
        const len = view.getUint16(e + 2, true);
        if (id === 0x0001 && size === 0xffffffffn) size = view.getBigUint64(e + 4, true);
        e += 4 + len;
      }
      found.push({ name, size, crc });
      p += 46 + nameLen + extraLen + commentLen;
    }
    assert.deepEqual(
      found.map((f) => [f.name, f.size]),
      [
        ['big.bin', BigInt(big)],
        ['after.txt', 10n],
      ],
    );
    assert.equal(found[0]!.crc, zerosCrc(big), 'the big entry holds its 4 GiB of zeros, decrypted');
    assert.equal(found[1]!.crc, crc32('after big\n'), 'the small entry holds its bytes');
    assert.deepEqual(problems, []);
  });
});
