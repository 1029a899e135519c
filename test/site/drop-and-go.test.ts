import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { bytes, writeTemp } from './browser.js';
import { eachEngine, FOLDER_LINK, folderIdOf, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { emptySendFolderRule } from './scenes.js';

/**
 * Drop and go. Files picked (or dropped) on the home page make a folder with the settings on screen
 * and upload at once, in the same document (the files are not lost to a reload); the owner lands on
 * the folder's page with the focus on its heading. The 24-hour rule of an empty folder is told only
 * to someone who can upload. In Chromium and Firefox (WebKit: webkit-drop.test.ts).
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

eachEngine('site: drop and go', [chromium, firefox], (engine) => {
  const site = useSite(engine);

  const info = async (link: string) =>
    (await (await fetch(`${site.url}/api/site/folders/${folderIdOf(link)}`)).json()) as Record<string, unknown>;

  test('files picked on the home page upload at once into a new folder with the chosen settings', async () => {
    const a = bytes(6 * 1024 * 1024 + 17, 24);
    const b = bytes(1234, 25);
    const paths = [await writeTemp(site.dir, 'go-a.bin', a), await writeTemp(site.dir, 'go-b.txt', b)];
    const page = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${site.url}/`);
    await page.select('#new-mode', 'send');
    await page.fill('#new-title', 'Dropped');
    await page.fill('#new-limit', '3');
    await page.fill('#new-note', 'For you');
    await page.waitFor('#settings-later');
    await page.pickFiles('#file-input', paths);
    const link = await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    await page.waitFor('#role[data-role="owner"]');
    assert.equal(await page.text('#folder-title'), 'Dropped');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'share-link');
    await page.waitFor('#files li[data-file-id]:nth-of-type(2)');
    const made = await info(link);
    assert.equal(made.mode, 'send');
    assert.equal(made.maxDownloads, 3);
    assert.equal(made.fileCount, 2);
    await page.screenshot('drop-and-go-owner');

    // A visitor gets both files, byte for byte, and the note; Back on the owner's tab returns home.
    const visitor = await site.browser.page();
    await visitor.goto(link);
    await visitor.waitFor('#files li[data-file-id]:nth-of-type(2)');
    assert.equal(await visitor.text('#note'), 'For you');
    const row = await visitor.evaluate<number>(
      `[...document.querySelectorAll('#files li[data-file-id]')].findIndex((li) => li.textContent.includes('go-a.bin')) + 1`,
    );
    assert.ok(row > 0, 'go-a.bin is listed');
    const got = visitor.download('go-a.bin', a.length);
    await visitor.click(`#files li[data-file-id]:nth-of-type(${row}) button.download`);
    assert.equal(sha(await got), sha(a));
    await page.back();
    await page.waitFor('#new-title');
    assert.deepEqual(page.problems, []);
    assert.deepEqual(visitor.problems, []);
    await page.close();
    await visitor.close();
  });

  test('with a password: the files are sealed under it from the first byte; a visitor needs it', async () => {
    const path = await writeTemp(site.dir, 'secret.txt', Buffer.from('behind a password'));
    const page = await site.browser.page();
    await page.goto(`${site.url}/`);
    await page.fill('#new-password', 'correct horse battery staple');
    await page.pickFiles('#file-input', [path]);
    const link = await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    const visitor = await site.browser.page();
    await visitor.goto(link);
    await visitor.fill('input[type=password]', 'correct horse battery staple');
    await visitor.press('Enter');
    await visitor.waitUntil(
      `[...document.querySelectorAll('#files li[data-file-id]')].some((li) => li.textContent.includes('secret.txt'))`,
    );
    await page.close();
    await visitor.close();
  });

  test('an invalid limit stops the drop: nothing is made, the page says why', async () => {
    const path = await writeTemp(site.dir, 'stopped.txt', Buffer.from('not yet'));
    const page = await site.browser.page();
    await page.goto(`${site.url}/`);
    await page.fill('#new-limit', '0');
    await page.pickFiles('#file-input', [path]);
    await page.waitFor('#limit-error:not([hidden])');
    assert.equal(new URL(await page.url()).pathname, '/');
    await page.close();
  });

  test('request mode has no limit field (visitors cannot download there), and no limit is sent', async () => {
    const page = await site.browser.page();
    await page.goto(`${site.url}/`);
    await page.select('#new-mode', 'send');
    // Typed before switching: once hidden it neither stops the form nor reaches the server.
    await page.fill('#new-limit', '0');
    await page.select('#new-mode', 'request');
    await page.waitFor('#limit-row', { state: 'hidden' });
    assert.equal(await page.evaluate(`document.getElementById('new-limit').checkVisibility()`), false);
    await page.click('button[type=submit]');
    const link = await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#role[data-role="owner"]');
    const made = await info(link);
    assert.equal(made.mode, 'request');
    assert.equal(made.maxDownloads ?? null, null);
    // Back on the home page, another mode shows the field again.
    await page.goto(`${site.url}/`);
    await page.select('#new-mode', 'request');
    await page.select('#new-mode', 'share');
    await page.waitFor('#new-limit', { state: 'visible' });
    await page.close();
  });

  test("an empty send folder's 24-hour rule is told to its uploader, not to a visitor", () =>
    emptySendFolderRule(site));
});
