import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  bytes,
  createFolder,
  downloadBytes,
  SKIP,
  screenshot,
  useBrowserFixture,
  watch,
  writeTemp,
} from './browser.js';

/**
 * Issue 24, item 1: drop and go. Files picked (or dropped) on the home page make a folder with the
 * settings on screen and upload at once, in the same document (the files are not lost to a reload);
 * the owner lands on the folder's page with the focus on its heading. The 24-hour rule of an empty
 * folder is told only to someone who can upload.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('site: drop and go (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('files picked on the home page upload at once into a new folder with the chosen settings', async () => {
    const a = bytes(6 * 1024 * 1024 + 17, 24);
    const b = bytes(1234, 25);
    const paths = [await writeTemp(fx.dir, 'go-a.bin', a), await writeTemp(fx.dir, 'go-b.txt', b)];
    const context = await fx.browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-mode').selectOption('send');
    await page.locator('#new-title').fill('Dropped');
    await page.locator('#new-limit').fill('3');
    await page.locator('#new-note').fill('For you');
    await page.locator('#settings-later').waitFor();
    await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.setInputFiles('#file-input', paths)]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await page.locator('#role[data-role="owner"]').waitFor();
    assert.equal(await page.locator('#folder-title').textContent(), 'Dropped');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'folder-title');
    await page.locator('#files li[data-file-id]').nth(1).waitFor();
    const link = page.url();
    const id = /\/f\/([A-Za-z0-9_-]{16})/.exec(link)![1]!;
    const info = (await (await fetch(`${fx.server.baseUrl}/api/site/folders/${id}`)).json()) as Record<string, unknown>;
    assert.equal(info.mode, 'send');
    assert.equal(info.maxDownloads, 3);
    assert.equal(info.fileCount, 2);
    await screenshot(page, 'drop-and-go-owner');

    // A visitor gets both files, byte for byte, and the note; Back on the owner's tab returns home.
    const visitorCtx = await fx.browser.newContext({ acceptDownloads: true });
    const visitor = await visitorCtx.newPage();
    await visitor.goto(link);
    await visitor.locator('#files li[data-file-id]').nth(1).waitFor();
    assert.equal(await visitor.locator('#note').textContent(), 'For you');
    const got = await downloadBytes(visitor, () =>
      visitor.locator('#files li[data-file-id]:has-text("go-a.bin") button.download').click(),
    );
    assert.equal(sha(got.content), sha(a));
    await page.goBack();
    await page.locator('#new-title').waitFor();
    assert.deepEqual(problems, []);
    await context.close();
    await visitorCtx.close();
  });

  test('with a password: the files are sealed under it from the first byte; a visitor needs it', async () => {
    const path = await writeTemp(fx.dir, 'secret.txt', Buffer.from('behind a password'));
    const context = await fx.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-password').fill('correct horse battery staple');
    await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.setInputFiles('#file-input', [path])]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    const visitorCtx = await fx.browser.newContext();
    const visitor = await visitorCtx.newPage();
    await visitor.goto(page.url());
    await visitor.locator('input[type=password]').fill('correct horse battery staple');
    await visitor.locator('input[type=password]').press('Enter');
    await visitor.locator('#files li[data-file-id]:has-text("secret.txt")').waitFor();
    await context.close();
    await visitorCtx.close();
  });

  test('an invalid limit stops the drop: nothing is made, the page says why', async () => {
    const path = await writeTemp(fx.dir, 'stopped.txt', Buffer.from('not yet'));
    const context = await fx.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-limit').fill('0');
    await page.setInputFiles('#file-input', [path]);
    await page.locator('#limit-error:not([hidden])').waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await context.close();
  });

  test('request mode has no limit field (visitors cannot download there), and no limit is sent', async () => {
    const context = await fx.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-mode').selectOption('send');
    // Typed before switching: once hidden it neither stops the form nor reaches the server.
    await page.locator('#new-limit').fill('0');
    await page.locator('#new-mode').selectOption('request');
    await page.locator('#limit-row').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#new-limit').isVisible(), false);
    await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
    await page.locator('#role[data-role="owner"]').waitFor();
    const id = /\/f\/([A-Za-z0-9_-]{16})/.exec(page.url())![1]!;
    const info = (await (await fetch(`${fx.server.baseUrl}/api/site/folders/${id}`)).json()) as Record<string, unknown>;
    assert.equal(info.mode, 'request');
    assert.equal(info.maxDownloads ?? null, null);
    // Back on the home page, another mode shows the field again.
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-mode').selectOption('request');
    await page.locator('#new-mode').selectOption('share');
    await page.locator('#new-limit').waitFor({ state: 'visible' });
    await context.close();
  });

  test("an empty send folder's 24-hour rule is told to its uploader, not to a visitor", async () => {
    const context = await fx.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-mode').selectOption('send');
    await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
    await page.locator('#role[data-role="owner"]').waitFor();
    await page.locator('#deadline').waitFor();
    const visitorCtx = await fx.browser.newContext();
    const visitor = await visitorCtx.newPage();
    await visitor.goto(page.url());
    await visitor.locator('#role[data-role="visitor"]').waitFor();
    assert.equal(await visitor.locator('#deadline').count(), 0, 'a send-mode visitor is not told to upload');
    // The API's empty-folder flow is unchanged: its first visitor may upload and is told the rule.
    const api = await createFolder(fx.server.baseUrl, 'share');
    await visitor.goto(api.folderUrl);
    await visitor.locator('#deadline').waitFor();
    await context.close();
    await visitorCtx.close();
  });
});
