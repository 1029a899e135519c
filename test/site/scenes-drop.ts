import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { until } from '../support/poll.js';
import { bytes, writeTemp } from './browser.js';
import { type Engine, FOLDER_LINK, folderIdOf, useSite } from './driver.js';
import { emptySendFolderRule } from './scenes.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Drop and go, written once for every engine (registered by drop-and-go.test.ts for Chromium and
 * Firefox and by webkit-drop.test.ts for WebKit, which runs on its own). Files picked (or dropped) on
 * the home page make a folder with the settings on screen and upload at once, in the same document
 * (the files are not lost to a reload); the owner lands on the folder's page with the focus on its
 * share link and the settings at hand to change. The 24-hour rule of an empty folder is told only to
 * someone who can upload. One person's page at a time (WebKitWebDriver runs one session at a time):
 * the owner's page is closed before the visitor's opens. Call inside `eachEngine`.
 */
export function dropAndGoScenario(engine: Engine): void {
  const site = useSite(engine);

  const info = async (link: string) =>
    (await (await fetch(`${site.url}/api/site/folders/${folderIdOf(link)}`)).json()) as Record<string, unknown>;

  test('files picked on the home page upload at once into a new folder with the chosen settings', async () => {
    const a = bytes(6 * 1024 * 1024 + 17, 24); // two chunks of 5 MiB
    const b = bytes(1234, 25);
    const paths = [await writeTemp(site.dir, 'go-a.bin', a), await writeTemp(site.dir, 'go-b.txt', b)];
    const PASSWORD = 'maple harbour quiet nine';
    const page = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    let link: string;
    try {
      await page.goto(`${site.url}/`);
      await page.waitFor('#settings-later');
      await page.select('#new-mode', 'send');
      await page.fill('#new-title', 'Dropped');
      // An expiry other than the one preselected: the longest the server allows.
      const [preselected, longest] = await page.evaluate<[string, string]>(
        `(() => { const s = document.getElementById('new-expiry'); return [s.value, s.options[s.options.length - 1].value]; })()`,
      );
      assert.notEqual(longest, preselected, 'the chosen expiry is not the preselected one');
      await page.select('#new-expiry', longest);
      await page.fill('#new-limit', '3');
      await page.fill('#new-password', PASSWORD);
      await page.fill('#new-note', 'For you');
      // The pick itself makes the folder: no Create click.
      await page.pickFiles('#file-input', paths);
      link = await page.waitForUrl(FOLDER_LINK, 60_000);
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 120_000 });
      await page.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });
      assert.equal(await page.text('#folder-title'), 'Dropped');
      await page.waitUntil(`document.activeElement?.id === 'share-link'`);
      await page.waitFor('#files li[data-file-id]:nth-of-type(2)', { timeoutMs: 60_000 });

      // What the server holds: the form's settings, from the first byte.
      const made = await info(link);
      assert.equal(made.mode, 'send');
      assert.equal(made.maxDownloads, 3);
      assert.equal(made.fileCount, 2);
      assert.notEqual(made.password, null, 'made with its password');
      const expiresIn = Number(made.expiresAt) - Number(made.createdAt);
      assert.ok(
        Math.abs(expiresIn - Number(longest) * 3_600_000) < 10 * 60_000,
        `expires about ${longest} h after it was made (${expiresIn} ms)`,
      );
      // On the owner's page the settings are at hand to change: the limit and the decrypted note.
      assert.equal(await page.value('#owner-limit'), '3');
      await page.waitUntil(`document.getElementById('owner-note')?.value === 'For you'`);
      await page.screenshot('drop-and-go-owner');
      // The note changed after the drop (it is encrypted with the folder key, which the owner has).
      await page.fill('#owner-note', 'Changed after the drop');
      await page.click('#save-note');
      // Saved when the server holds another (encrypted) note than the one made with the folder.
      await until('the changed note on the server', async () => (await info(link)).note !== made.note, 30_000);
      assert.equal(await page.count('#owner-status .error'), 0);
      // Back on the owner's tab returns home.
      await page.back();
      await page.waitFor('#new-title');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }

    // A visitor in a fresh page: the password, the changed note, the limit, the bytes.
    const visitor = await site.browser.page();
    try {
      await visitor.goto(link);
      await visitor.fill('#folder-password', PASSWORD);
      await visitor.click('#unlock');
      await visitor.waitFor('#files li[data-file-id]:nth-of-type(2) button.download:not([disabled])', {
        timeoutMs: 60_000,
      });
      assert.equal(await visitor.attribute('#role', 'data-role'), 'visitor');
      assert.equal(await visitor.text('#note'), 'Changed after the drop');
      const names = await visitor.evaluate<string[]>(
        `[...document.querySelectorAll('#files li[data-file-id] .name')].map((e) => e.textContent)`,
      );
      assert.deepEqual([...names].sort(), ['go-a.bin', 'go-b.txt']);
      const row = `#files li[data-file-id]:nth-of-type(${names.indexOf('go-a.bin') + 1})`;
      assert.equal(await visitor.attribute(`${row} .count`, 'data-left'), '3');
      const got = visitor.download('go-a.bin', a.length);
      await visitor.click(`${row} button.download`);
      assert.equal(sha(await got), sha(a), 'byte for byte');
      await visitor.waitFor('#download-status[data-download-path]', { state: 'attached', timeoutMs: 60_000 });
      assert.equal(await visitor.count('#download-status .error'), 0, 'the page reports no error');
      await visitor.waitFor(`${row} .count[data-left="2"]`, { state: 'attached', timeoutMs: 60_000 });
      assert.deepEqual(visitor.problems, []);
    } finally {
      await visitor.close();
    }
  });

  test('with a password: the files are sealed under it from the first byte; a visitor needs it', async () => {
    const path = await writeTemp(site.dir, 'secret.txt', Buffer.from('behind a password'));
    const page = await site.browser.page();
    let link: string;
    try {
      await page.goto(`${site.url}/`);
      await page.fill('#new-password', 'correct horse battery staple');
      await page.pickFiles('#file-input', [path]);
      link = await page.waitForUrl(FOLDER_LINK, 60_000);
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    } finally {
      await page.close();
    }
    const visitor = await site.browser.page();
    try {
      await visitor.goto(link);
      await visitor.fill('input[type=password]', 'correct horse battery staple');
      await visitor.press('Enter');
      await visitor.waitUntil(
        `[...document.querySelectorAll('#files li[data-file-id]')].some((li) => li.textContent.includes('secret.txt'))`,
        60_000,
      );
    } finally {
      await visitor.close();
    }
  });

  test('an invalid limit stops the drop: nothing is made, the page says why', async () => {
    const path = await writeTemp(site.dir, 'stopped.txt', Buffer.from('not yet'));
    const page = await site.browser.page();
    try {
      await page.goto(`${site.url}/`);
      await page.fill('#new-limit', '0');
      await page.pickFiles('#file-input', [path]);
      await page.waitFor('#limit-error:not([hidden])');
      assert.equal(new URL(await page.url()).pathname, '/');
    } finally {
      await page.close();
    }
  });

  test('request mode has no limit field (visitors cannot download there), and no limit is sent', async () => {
    const page = await site.browser.page();
    try {
      await page.goto(`${site.url}/`);
      await page.select('#new-mode', 'send');
      // Typed before switching: once hidden it neither stops the form nor reaches the server.
      await page.fill('#new-limit', '0');
      await page.select('#new-mode', 'request');
      await page.waitFor('#limit-row', { state: 'hidden' });
      assert.equal(await page.evaluate(`document.getElementById('new-limit').getClientRects().length`), 0);
      await page.click('button[type=submit]');
      const link = await page.waitForUrl(FOLDER_LINK, 60_000);
      await page.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });
      const made = await info(link);
      assert.equal(made.mode, 'request');
      assert.equal(made.maxDownloads ?? null, null);
      // Back on the home page, another mode shows the field again.
      await page.goto(`${site.url}/`);
      await page.select('#new-mode', 'request');
      await page.select('#new-mode', 'share');
      await page.waitFor('#new-limit', { state: 'visible' });
    } finally {
      await page.close();
    }
  });

  test("an empty send folder's 24-hour rule is told to its uploader, not to a visitor", () =>
    emptySendFolderRule(site));
}
