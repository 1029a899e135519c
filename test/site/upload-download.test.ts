import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../support/server.js';
import { bytes, createFolder, writeTemp } from './browser.js';
import { exhaustCreateBudget } from './budget.js';
import { eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { rowOf } from './scenes.js';

const MIB = 1024 * 1024;

/** The status a browser's request for `url` gets: the page as served. */
const served = async (url: string) => {
  const res = await fetch(url, { headers: { accept: 'text/html' } });
  await res.body?.cancel();
  return res.status;
};

/**
 * The site's main path in Chromium: the first upload claims a send folder, a visitor downloads the
 * same bytes through the service worker, the owner link restores ownership; a registration answered
 * 429 waits and goes on; the site under WEB_URL's path. (Firefox and WebKit: scenes-visit.ts.)
 */
eachEngine('site: upload, claim, download', [chromium], (engine) => {
  const site = useSite(engine);

  test('send folder: first upload claims, visitor downloads the same bytes', async () => {
    const folder = await createFolder(site.url, 'send', 'Holiday photos');
    const big = bytes(12 * MIB + 12345, 1); // three chunks of 5 MiB
    const small = bytes(1000, 2);
    const paths = [await writeTemp(site.dir, 'big.bin', big), await writeTemp(site.dir, 'small é.txt', small)];

    const page = await site.browser.page();
    assert.equal(await served(folder.folderUrl), 200);
    await page.goto(folder.folderUrl);
    await page.waitFor('#deadline');
    assert.match(await page.renderedText('#deadline'), /Upload within 2[34] h/);
    assert.equal(await page.attribute('#role', 'data-role'), 'unclaimed');
    await page.screenshot('folder-empty');
    // Opening the link claimed nothing.
    const before = (await (await fetch(`${site.url}/api/site/folders/${folder.folderId}`)).json()) as {
      owned: boolean;
    };
    assert.equal(before.owned, false);

    await page.pickFiles('#file-input', paths);
    await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    // The page re-renders the role after it re-reads the folder: wait for that, then check it.
    await page.waitFor('#role:not([data-role="unclaimed"])', { state: 'attached' });
    assert.equal(await page.attribute('#role', 'data-role'), 'owner');
    const ownerLink = await page.value('#owner-link');
    assert.ok(ownerLink.startsWith(`${folder.folderUrl}&owner=`), ownerLink);
    await page.waitFor('#files li[data-file-id] button.download:not([disabled])');
    await page.click('details.qr-toggle > summary');
    assert.equal(await page.count('.qr svg'), 1, 'QR code of the link');
    await page.screenshot('folder-owner');
    const names = await page.evaluate<string[]>(
      `[...document.querySelectorAll('#files li .name')].map((e) => e.innerText)`,
    );
    assert.deepEqual(names.sort(), ['big.bin', 'small é.txt']);
    assert.deepEqual(page.problems, []);

    // A second browser: a visitor of a send folder downloads but cannot upload.
    const v = await site.browser.page();
    await v.goto(folder.folderUrl);
    await v.waitFor('#files li[data-file-id] button.download:not([disabled])');
    assert.equal(await v.attribute('#role', 'data-role'), 'visitor');
    assert.equal(await v.count('#file-input'), 0, 'no upload control for visitors of a send folder');
    await v.screenshot('folder-visitor');
    const got = v.download('big.bin', big.length);
    await v.click(`${await rowOf(v, 'big.bin')} button.download`);
    assert.ok((await got).equals(big), 'downloaded bytes equal the uploaded ones');
    assert.match(await v.renderedText('#download-status'), /decrypted as it arrive/, 'streamed by the service worker');
    // "Saving" turns to done once the service worker has handed the browser every byte.
    await v.waitFor('#download-status[data-download-state="done"]');
    assert.match(await v.renderedText('#download-status'), /^Downloaded big\.bin\./);
    const smallGot = v.download('small é.txt', small.length);
    await v.click(`${await rowOf(v, 'small é.txt')} button.download`);
    assert.ok((await smallGot).equals(small));
    assert.deepEqual(v.problems, []);

    // The owner link restores ownership in a fresh browser.
    const r = await site.browser.page();
    await r.goto(ownerLink);
    await r.waitFor('#role[data-role="owner"]');
    assert.ok(!(await r.url()).includes('owner='), 'the owner secret is removed from the address bar');
    await Promise.all([page.close(), v.close(), r.close()]);
  });

  test('a registration answered 429 shows "waiting, retrying in N s", then the upload goes on', async () => {
    const busy = await startServer({ CHUNK_SIZE_MIB: '5', RATE_LIMIT_CREATE: '1', RATE_LIMIT_WINDOW_SECONDS: '6' });
    const page = await site.browser.page();
    try {
      const folder = await createFolder(busy.baseUrl, 'send', 'Busy server');
      await page.goto(folder.folderUrl);
      await page.waitFor('#file-input', { state: 'attached' });
      const content = bytes(3000, 9);
      const path = await writeTemp(site.dir, 'after-wait.bin', content);
      await exhaustCreateBudget(busy.baseUrl);
      await page.pickFiles('#file-input', [path]);
      const status = '#upload-status[data-state="waiting"]';
      await page.waitFor(status);
      assert.match(await page.renderedText(status), /^Waiting: the server asked to slow down; retrying in \d+ s$/);
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
      await page.waitFor('#files li button.download:not([disabled])');
      const got = page.download('after-wait.bin', content.length);
      await page.click('#files li button.download');
      assert.ok((await got).equals(content));
    } finally {
      await page.close();
      await busy.close();
    }
  });

  test('the site follows the path of WEB_URL (here /app)', async () => {
    const prefixed = await startServer({ CHUNK_SIZE_MIB: '5', WEB_URL: 'http://localhost:9/app' });
    const page = await site.browser.page();
    try {
      const folder = await createFolder(prefixed.baseUrl, 'send', 'Under a path');
      assert.ok(folder.folderUrl.startsWith('http://localhost:9/app/f/'));
      const local = folder.folderUrl.replace('http://localhost:9', prefixed.baseUrl);
      assert.equal(await served(local), 200);
      await page.goto(local);
      const content = bytes(5000, 7);
      await page.pickFiles('#file-input', [await writeTemp(site.dir, 'p.bin', content)]);
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
      await page.waitFor('#files li button.download:not([disabled])');
      const got = page.download('p.bin', content.length);
      await page.click('#files li button.download');
      assert.ok((await got).equals(content));
      assert.equal(await page.attribute('#home-link', 'href'), '/app/');
      const home = await fetch(`${prefixed.baseUrl}/app/`);
      assert.equal(home.status, 200);
      const root = await fetch(`${prefixed.baseUrl}/`, { headers: { accept: 'application/json' } });
      assert.match(root.headers.get('content-type') ?? '', /json/, 'the root stays the JSON service index');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
      await prefixed.close();
    }
  });
});
