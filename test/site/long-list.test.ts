import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createSke, encryptText, importSecret } from '../../src/crypto/index.js';
import { createEmpty } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';
import { launch, newContext, SKIP, watch } from './browser.js';

/**
 * A folder with more files than one page of the listing (1,000): the folder page shows the first
 * page and loads the next one when the end of the list scrolls into view.
 */
describe('a folder longer than one page', { skip: SKIP }, () => {
  let server: RunningServer;
  let browser: Browser;
  before(async () => {
    server = await startServer({ RATE_LIMIT_CREATE: '1000', RATE_LIMIT_SITE: '1000' });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the page lists the first 1,000 files, then loads the rest as it scrolls', async () => {
    const folder = await createEmpty(server.baseUrl, { mode: 'share' });
    const secret = new URL(folder.folderUrl).hash.slice(1);
    const key = await importSecret(secret);
    const ske = await createSke(key);
    const owner = randomBytes(32).toString('base64url');
    const total = 1050;
    for (let start = 0; start < total; start += 100) {
      const files = await Promise.all(
        Array.from({ length: Math.min(100, total - start) }, async (_, i) => ({
          filename: await encryptText(key, `file-${String(start + i).padStart(4, '0')}.txt`),
          filesize: 10,
        })),
      );
      const res = await fetch(`${server.baseUrl}/api/site/folders/${folder.folderId}/files`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-owner-token': owner },
        body: JSON.stringify({ files, ...(start === 0 ? { ske } : {}) }),
      });
      assert.equal(res.status, 200);
    }
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(folder.folderUrl);
    const rows = page.locator('#files li[data-file-id]');
    await page.locator('#files li[data-file-id]').nth(999).waitFor();
    assert.ok((await rows.count()) >= 1000);
    assert.equal(await page.locator('#files li[data-file-id] .name').first().textContent(), 'file-0000.txt');
    // The end of the list comes into view: the next page is appended.
    await page.locator('#files li.more').scrollIntoViewIfNeeded();
    await page
      .locator('#files li[data-file-id]')
      .nth(total - 1)
      .waitFor();
    assert.equal(await rows.count(), total);
    assert.equal(await page.locator('#files li.more').count(), 0, 'no more to load');
    assert.equal(await page.locator('#files li[data-file-id] .name').last().textContent(), `file-${total - 1}.txt`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
