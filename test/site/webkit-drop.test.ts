import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { By, type WebDriver } from 'selenium-webdriver';
import { until as poll } from '../support/poll.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { bytes, writeTemp } from './browser.js';
import { eachEngine, useSite } from './driver.js';
import { webkit } from './driver-webkit.js';
import { emptySendFolderRule } from './scenes.js';
import { clickDownload, MIB, MISSING, SKIP, sha256, shot, startWebKit, type WebKit, waitFor } from './webkit.js';

/**
 * Drop and go in WebKit, as drop-and-go.test.ts checks it in Chromium and Firefox: files picked on
 * the home page make a folder with the settings on screen and upload at once; the owner can change
 * them after; a visitor gets the bytes. The 24-hour rule of an empty folder is told only to someone
 * who can upload.
 *
 * The files are picked, not dropped: W3C WebDriver cannot drag files from the operating system onto
 * a page (its actions move the pointer inside the page only), so the test sends the files' paths to
 * the home page's file input, the picker a person uses when not dragging. Both end in the same
 * handler (pickerZone in web/src/views/upload.ts). A folder is not picked here: WebKitWebDriver
 * sends a directory's path to the `webkitdirectory` input as that one path, not the files under it
 * (tried: the page got no file), so the folder picker is tested in Chromium only
 * (test/site/modes.test.ts). WebKitWebDriver runs one session at a time: the owner, then the
 * visitor, each in a fresh MiniBrowser profile.
 */
describe('site in WebKit: drop and go', { skip: SKIP || Boolean(MISSING) }, () => {
  let server: RunningServer;
  let webkit: WebKit;
  let dir: string;

  before(async () => {
    server = await startServer({ CHUNK_SIZE_MIB: '5' });
    dir = await tempDir('webfolder-webkit-drop-');
    webkit = await startWebKit(join(dir, 'webkit'));
  });
  after(async () => {
    await webkit?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const folderInfo = async (link: string) => {
    const id = /\/f\/([A-Za-z0-9_-]{16})/.exec(link)?.[1];
    assert.ok(id, `a folder link: ${link}`);
    return (await (await fetch(`${server.baseUrl}/api/site/folders/${id}`)).json()) as Record<string, unknown>;
  };
  const value = (driver: WebDriver, css: string) =>
    driver.executeScript('return document.querySelector(arguments[0]).value', css) as Promise<string>;

  test('files picked on the home page upload at once into a new folder with the settings chosen before', async () => {
    const a = bytes(6 * MIB + 17, 124); // two chunks of 5 MiB
    const b = bytes(1234, 125);
    const paths = [await writeTemp(dir, 'wk-go-a.bin', a), await writeTemp(dir, 'wk-go-b.txt', b)];
    const PASSWORD = 'maple harbour quiet nine';
    let link: string;
    const owner = await webkit.session();
    try {
      await owner.manage().window().setRect({ width: 1280, height: 800 });
      await owner.get(`${server.baseUrl}/`);
      await waitFor(owner, '#settings-later');
      await owner.findElement(By.css('#new-mode option[value="send"]')).click();
      await owner.findElement(By.css('#new-title')).sendKeys('WebKit dropped');
      // An expiry other than the one preselected: the longest the server allows.
      const [preselected, hours] = (
        (await owner.executeScript(
          'const s = document.getElementById("new-expiry"); const was = s.value; s.selectedIndex = s.options.length - 1; return [was, s.value];',
        )) as [string, string]
      ).map(Number) as [number, number];
      assert.notEqual(hours, preselected, 'the chosen expiry is not the preselected one');
      await owner.findElement(By.css('#new-limit')).sendKeys('3');
      await owner.findElement(By.css('#new-password')).sendKeys(PASSWORD);
      await owner.findElement(By.css('#new-note')).sendKeys('For you, from WebKit');
      // The pick itself makes the folder: no Create click.
      await owner.findElement(By.css('#file-input')).sendKeys(paths.join('\n'));
      await owner.wait(async () => /\/f\/[A-Za-z0-9_-]{16}#/.test(await owner.getCurrentUrl()), 60_000);
      await waitFor(owner, '#upload-status[data-state="complete"]', 120_000);
      await waitFor(owner, '#role[data-role="owner"]', 60_000);
      assert.equal(await owner.findElement(By.css('#folder-title')).getText(), 'WebKit dropped');
      await owner.wait(
        async () => (await owner.executeScript('return document.activeElement?.id')) === 'share-link',
        30_000,
        'the focus on the share link',
      );
      await waitFor(owner, '#files li[data-file-id]:nth-child(2)', 60_000);
      link = await owner.getCurrentUrl();

      // What the server holds: the form's settings, from the first byte.
      const info = await folderInfo(link);
      assert.equal(info.mode, 'send');
      assert.equal(info.maxDownloads, 3);
      assert.equal(info.fileCount, 2);
      assert.notEqual(info.password, null, 'made with its password');
      const expiresIn = Number(info.expiresAt) - Number(info.createdAt);
      assert.ok(
        Math.abs(expiresIn - hours * 3_600_000) < 10 * 60_000,
        `expires about ${hours} h after it was made (${expiresIn} ms)`,
      );
      // On the owner's page the settings are at hand to change: the limit and the decrypted note.
      assert.equal(await value(owner, '#owner-limit'), '3');
      await owner.wait(
        async () => (await value(owner, '#owner-note')) === 'For you, from WebKit',
        30_000,
        "the note decrypted in the owner's settings",
      );
      await shot(owner, 'drop-and-go-owner-desktop');
      // The note changed after the drop (it is encrypted with the folder key, which the owner has).
      await owner.findElement(By.css('#owner-note')).clear();
      await owner.findElement(By.css('#owner-note')).sendKeys('Changed after the drop');
      await owner.findElement(By.css('#save-note')).click();
      // Saved when the server holds another (encrypted) note than the one made with the folder.
      await poll('the changed note on the server', async () => (await folderInfo(link)).note !== info.note, 30_000);
      assert.equal((await owner.findElements(By.css('#owner-status .error'))).length, 0);
    } finally {
      await owner.quit();
    }

    // A visitor in a fresh browser: the password, the changed note, the limit, the bytes.
    const visitor = await webkit.session();
    try {
      await webkit.clearDownloads();
      await visitor.get(link);
      await waitFor(visitor, '#folder-password', 60_000);
      await visitor.findElement(By.css('#folder-password')).sendKeys(PASSWORD);
      await visitor.findElement(By.css('#unlock')).click();
      await waitFor(visitor, '#files li[data-file-id]:nth-child(2) button.download:not([disabled])', 60_000);
      assert.equal(await visitor.findElement(By.css('#role')).getAttribute('data-role'), 'visitor');
      assert.equal(await visitor.findElement(By.css('#note')).getText(), 'Changed after the drop');
      const rows = await visitor.findElements(By.css('#files li[data-file-id]'));
      const names = await Promise.all(rows.map((r) => r.findElement(By.css('.name')).getText()));
      assert.deepEqual([...names].sort(), ['wk-go-a.bin', 'wk-go-b.txt']);
      const row = rows[names.indexOf('wk-go-a.bin')]!;
      assert.equal(await row.findElement(By.css('.count')).getAttribute('data-left'), '3');
      await clickDownload(visitor, await row.findElement(By.css('button.download')));
      assert.equal(sha256(await webkit.downloaded('wk-go-a.bin', a.length)), sha256(a), 'byte for byte');
      await waitFor(visitor, '#files li .count[data-left="2"]', 60_000);
    } finally {
      await visitor.quit();
    }
  });
});

eachEngine('site in WebKit: the empty folder rule', [webkit], (engine) => {
  const site = useSite(engine);
  test("an empty send folder's 24-hour rule is told to its uploader, not to a visitor", () =>
    emptySendFolderRule(site));
});
