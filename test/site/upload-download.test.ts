import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../support/server.js';
import {
  bytes,
  createFolder,
  downloadBytes,
  newContext,
  SKIP,
  screenshot,
  useBrowserFixture,
  watch,
  writeTemp,
} from './browser.js';
import { exhaustCreateBudget } from './budget.js';

const MIB = 1024 * 1024;

describe('site: upload, claim, download (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('send folder: first upload claims, visitor downloads the same bytes', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Holiday photos');
    const big = bytes(12 * MIB + 12345, 1); // three chunks of 5 MiB
    const small = bytes(1000, 2);
    const paths = [await writeTemp(fx.dir, 'big.bin', big), await writeTemp(fx.dir, 'small é.txt', small)];

    const ownerCtx = await newContext(fx.browser);
    const page = await ownerCtx.newPage();
    const problems = watch(page);
    const res = await page.goto(folder.folderUrl);
    assert.equal(res?.status(), 200);
    await page.locator('#deadline').waitFor();
    assert.match(await page.locator('#deadline').innerText(), /Upload within 2[34] h/);
    assert.equal(await page.locator('#role').getAttribute('data-role'), 'unclaimed');
    await screenshot(page, 'folder-empty');
    // Opening the link claimed nothing.
    const before = (await (await fetch(`${fx.server.baseUrl}/api/site/folders/${folder.folderId}`)).json()) as {
      owned: boolean;
    };
    assert.equal(before.owned, false);

    await page.setInputFiles('#file-input', paths);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    // The page re-renders the role after it re-reads the folder: wait for that, then check it.
    await page.locator('#role:not([data-role="unclaimed"])').waitFor();
    assert.equal(await page.locator('#role').getAttribute('data-role'), 'owner');
    const ownerLink = await page.locator('#owner-link').inputValue();
    assert.ok(ownerLink.startsWith(`${folder.folderUrl}&owner=`), ownerLink);
    await page.locator('#files li[data-file-id] button.download:not([disabled])').first().waitFor();
    await page.locator('summary', { hasText: 'QR code' }).click();
    assert.equal(await page.locator('.qr svg').count(), 1, 'QR code of the link');
    await screenshot(page, 'folder-owner');
    const names = await page.locator('#files li .name').allInnerTexts();
    assert.deepEqual(names.sort(), ['big.bin', 'small é.txt']);
    assert.deepEqual(problems, []);

    // A second browser: a visitor of a send folder downloads but cannot upload.
    const visitorCtx = await newContext(fx.browser);
    const v = await visitorCtx.newPage();
    const vProblems = watch(v);
    await v.goto(folder.folderUrl);
    await v.locator('#files li[data-file-id] button.download:not([disabled])').first().waitFor();
    assert.equal(await v.locator('#role').getAttribute('data-role'), 'visitor');
    assert.equal(await v.locator('#file-input').count(), 0, 'no upload control for visitors of a send folder');
    await screenshot(v, 'folder-visitor');
    const bigRow = v.locator('#files li', { hasText: 'big.bin' });
    const got = await downloadBytes(v, () => bigRow.locator('button.download').click());
    assert.equal(got.name, 'big.bin');
    assert.match(
      await v.locator('#download-status').innerText(),
      /decrypted as it arrive/,
      'streamed by the service worker',
    );
    // "Saving" turns to done once the service worker has handed the browser every byte.
    await v.locator('#download-status[data-download-state="done"]').waitFor();
    assert.match(await v.locator('#download-status').innerText(), /^Downloaded big\.bin\./);
    assert.ok(got.content.equals(big), 'downloaded bytes equal the uploaded ones');
    const smallGot = await downloadBytes(v, () =>
      v.locator('#files li', { hasText: 'small' }).locator('button.download').click(),
    );
    assert.ok(smallGot.content.equals(small));
    assert.equal(smallGot.name, 'small é.txt');
    assert.deepEqual(vProblems, []);

    // The owner link restores ownership in a fresh browser.
    const restoreCtx = await newContext(fx.browser);
    const r = await restoreCtx.newPage();
    await r.goto(ownerLink);
    await r.locator('#role[data-role="owner"]').waitFor();
    assert.ok(!r.url().includes('owner='), 'the owner secret is removed from the address bar');
    await Promise.all([ownerCtx.close(), visitorCtx.close(), restoreCtx.close()]);
  });

  test('a registration answered 429 shows "waiting, retrying in N s", then the upload goes on', async () => {
    const busy = await startServer({ CHUNK_SIZE_MIB: '5', RATE_LIMIT_CREATE: '1', RATE_LIMIT_WINDOW_SECONDS: '6' });
    try {
      const folder = await createFolder(busy.baseUrl, 'send', 'Busy server');
      const ctx = await newContext(fx.browser);
      const page = await ctx.newPage();
      await page.goto(folder.folderUrl);
      await page.locator('#file-input').waitFor({ state: 'attached' });
      const content = bytes(3000, 9);
      const path = await writeTemp(fx.dir, 'after-wait.bin', content);
      await exhaustCreateBudget(busy.baseUrl);
      await page.setInputFiles('#file-input', [path]);
      const status = page.locator('#upload-status[data-state="waiting"]');
      await status.waitFor({ timeout: 30_000 });
      assert.match(await status.innerText(), /^Waiting: the server asked to slow down; retrying in \d+ s$/);
      await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
      const got = await downloadBytes(page, () => page.locator('#files li button.download').first().click());
      assert.ok(got.content.equals(content));
      await ctx.close();
    } finally {
      await busy.close();
    }
  });

  test('the site follows the path of WEB_URL (here /app)', async () => {
    const prefixed = await startServer({ CHUNK_SIZE_MIB: '5', WEB_URL: 'http://localhost:9/app' });
    try {
      const folder = await createFolder(prefixed.baseUrl, 'send', 'Under a path');
      assert.ok(folder.folderUrl.startsWith('http://localhost:9/app/f/'));
      const local = folder.folderUrl.replace('http://localhost:9', prefixed.baseUrl);
      const ctx = await newContext(fx.browser);
      const page = await ctx.newPage();
      const problems = watch(page);
      assert.equal((await page.goto(local))?.status(), 200);
      const content = bytes(5000, 7);
      await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'p.bin', content)]);
      await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
      const got = await downloadBytes(page, () => page.locator('#files li button.download').first().click());
      assert.ok(got.content.equals(content));
      assert.equal(await page.locator('#home-link').getAttribute('href'), '/app/');
      const home = await fetch(`${prefixed.baseUrl}/app/`);
      assert.equal(home.status, 200);
      const root = await fetch(`${prefixed.baseUrl}/`, { headers: { accept: 'application/json' } });
      assert.match(root.headers.get('content-type') ?? '', /json/, 'the root stays the JSON service index');
      assert.deepEqual(problems, []);
      await ctx.close();
    } finally {
      await prefixed.close();
    }
  });
});
