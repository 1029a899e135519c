import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { upload } from '../../src/client/node/index.js';
import {
  bytes,
  createFolder,
  downloadBytes,
  newContext,
  SKIP,
  useBrowserFixture,
  watch,
  writeTemp,
} from './browser.js';

/**
 * The page's crypto workers (web/src/workers/crypto-pool.ts): uploads are encrypted and service-worker
 * downloads decrypted in dedicated workers the page starts, and both still work, byte for byte,
 * when the workers cannot start, and a download goes on when the page that lent its workers closes.
 */
const MIB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('site: crypto workers (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('an upload is encrypted in the workers, and a download decrypted in them, with the same bytes', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Workers');
    const content = bytes(12 * MIB + 7, 71); // three chunks of 5 MiB
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(folder.folderUrl);
    await page.locator('#file-input').waitFor({ state: 'attached' });
    assert.equal(page.workers().length, 0, 'no worker before there is work');
    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'w.bin', content)]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    const started = page.workers().filter((w) => w.url().endsWith('/crypto-worker.js'));
    assert.ok(started.length >= 1, `crypto workers of the page: ${page.workers().map((w) => w.url())}`);

    const visitorCtx = await newContext(fx.browser);
    const v = await visitorCtx.newPage();
    const vProblems = watch(v);
    await v.goto(folder.folderUrl);
    await v.locator('#files li button.download:not([disabled])').waitFor();
    const got = await downloadBytes(v, () => v.locator('#files li button.download').click());
    assert.match(await v.locator('#download-status').innerText(), /decrypted as it arrive/);
    assert.ok(
      v.workers().some((w) => w.url().endsWith('/crypto-worker.js')),
      'the visitor page started workers to lend',
    );
    assert.equal(sha256(got.content), sha256(content));
    assert.deepEqual([...problems, ...vProblems], []);
    await Promise.all([ctx.close(), visitorCtx.close()]);
  });

  test('without workers (their script blocked) upload and download run on the page and the service worker', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'No workers');
    const content = bytes(11 * MIB + 3, 72);
    const ctx = await newContext(fx.browser);
    let blocked = 0;
    await ctx.route('**/crypto-worker.js', (route) => {
      blocked++;
      return route.fulfill({ status: 404, body: 'not here' });
    });
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'nw.bin', content)]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await page.locator('#files li button.download:not([disabled])').waitFor();
    const got = await downloadBytes(page, () => page.locator('#files li button.download').click());
    assert.ok(blocked >= 1, 'the page asked for its workers');
    assert.equal(sha256(got.content), sha256(content));
    await ctx.close();
  });

  test('a download goes on after the page that started it (and lent its workers) closes', async () => {
    const content = bytes(60 * MIB + 11, 73);
    const path = await writeTemp(fx.dir, 'long.bin', content);
    const { link } = await upload([path], { server: fx.server.baseUrl });
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(link);
    await page.locator('#files li button.download:not([disabled])').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.locator('#files li button.download').click(),
    ]);
    await page.close();
    assert.equal(await download.failure(), null);
    assert.equal(sha256(await readFile(await download.path())), sha256(content));
    await ctx.close();
  });
});
