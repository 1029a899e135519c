import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createSke, encryptText, importSecret } from '../../src/crypto/index.js';
import { createEmpty } from '../support/api.js';
import { eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';

/**
 * A folder with more files than one page of the listing (1,000): the folder page shows the first
 * page and loads the next one when the end of the list scrolls into view.
 */
eachEngine('a folder longer than one page', [chromium], (engine) => {
  const site = useSite(engine, { RATE_LIMIT_CREATE: '1000', RATE_LIMIT_SITE: '1000' });

  test('the page lists the first 1,000 files, then loads the rest as it scrolls', async () => {
    const folder = await createEmpty(site.url, { mode: 'share' });
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
      const res = await fetch(`${site.url}/api/site/folders/${folder.folderId}/files`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-owner-token': owner },
        body: JSON.stringify({ files, ...(start === 0 ? { ske } : {}) }),
      });
      assert.equal(res.status, 200);
    }
    const page = await site.browser.page();
    const names = `[...document.querySelectorAll('#files li[data-file-id] .name')].map((e) => e.textContent)`;
    await page.goto(folder.folderUrl);
    await page.waitFor('#files li[data-file-id]:nth-of-type(1000)', { timeoutMs: 60_000 });
    const first = await page.evaluate<string[]>(names);
    assert.ok(first.length >= 1000);
    assert.equal(first[0], 'file-0000.txt');
    // The end of the list comes into view: the next page is appended.
    await page.evaluate(`(document.querySelector('#files li.more').scrollIntoView(), true)`);
    await page.waitFor(`#files li[data-file-id]:nth-of-type(${total})`, { timeoutMs: 60_000 });
    const all = await page.evaluate<string[]>(names);
    assert.equal(all.length, total);
    assert.equal(await page.count('#files li.more'), 0, 'no more to load');
    assert.equal(all.at(-1), `file-${total - 1}.txt`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
