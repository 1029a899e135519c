import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { download, upload } from '../../src/client/node/index.js';
import { SITE_BUILD_DIR } from '../../src/http/routes/site.js';
import {
  bytes,
  createFolder,
  downloadBytes,
  SKIP as NO_CHROMIUM,
  newContext,
  useBrowserFixture,
  watch,
  writeTemp,
} from '../site/browser.js';

/**
 * The client and the browser site speak the same format: a link made by the client library opens
 * and decrypts in the site (real Chromium), and a folder filled in the browser downloads with the
 * client. Skips without Chromium or without the built site (npm run build / npm test build it).
 */
const MIB = 1024 * 1024;
const NOT_BUILT = existsSync(join(SITE_BUILD_DIR, 'index.html'))
  ? false
  : 'the site is not built (npx vite build --config web/vite.config.ts)';
const SKIP = NO_CHROMIUM || NOT_BUILT;

describe('client <-> browser site (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('a link made by the client opens in the site, which decrypts names and bytes', async () => {
    const big = bytes(11 * MIB + 333, 11);
    const paths = [
      await writeTemp(fx.dir, 'from-cli.bin', big),
      await writeTemp(fx.dir, 'notes ü.txt', Buffer.from('made by the client\n')),
    ];
    const result = await upload(paths, { server: fx.server.baseUrl, title: 'From the CLI' });
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    const problems = watch(page);
    assert.equal((await page.goto(result.link))?.status(), 200);
    await page.locator('#files li[data-file-id] button.download:not([disabled])').first().waitFor({ timeout: 30_000 });
    const names = await page.locator('#files li .name').allInnerTexts();
    assert.deepEqual(names.sort(), ['from-cli.bin', 'notes ü.txt']);
    const got = await downloadBytes(page, () =>
      page.locator('#files li', { hasText: 'from-cli.bin' }).locator('button.download').click(),
    );
    assert.equal(got.name, 'from-cli.bin');
    assert.ok(got.content.equals(big), 'the browser decrypts what the client encrypted');
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('a folder filled in the browser downloads with the client', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'share', 'From the browser');
    const content = bytes(6 * MIB + 5, 12);
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'from-browser.bin', content)]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await ctx.close();
    const out = join(fx.dir, 'client-download');
    const got = await download(folder.folderUrl, out);
    assert.deepEqual(
      got.files.map((f) => f.name),
      ['from-browser.bin'],
    );
    assert.ok((await readFile(join(out, 'from-browser.bin'))).equals(content));
  });
});
