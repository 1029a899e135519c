import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import en from '../../web/src/i18n/messages/en.json' with { type: 'json' };
import { bytes, downloadBytes, SKIP, useBrowserFixture, watch, writeTemp } from './browser.js';

/**
 * The owner's page of a folder made on the home page in `mode`: with `files`, dropped there (drop
 * and go) and uploaded; without, by Create. `limit` fills the download limit first.
 */
async function ownerFolder(
  ctx: BrowserContext,
  baseUrl: string,
  mode: 'send' | 'share',
  options: { limit?: string; files?: string[] } = {},
): Promise<{ page: Page; problems: string[] }> {
  const page = await ctx.newPage();
  const problems = watch(page);
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${baseUrl}/`);
  await page.locator('#new-mode').selectOption(mode);
  if (options.limit) await page.locator('#new-limit').fill(options.limit);
  const folderOpened = page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/);
  if (options.files) {
    await Promise.all([folderOpened, page.setInputFiles('#file-input', options.files)]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
  } else {
    await Promise.all([folderOpened, page.locator('button[type=submit]').click()]);
    await page.locator('#role[data-role="owner"]').waitFor();
  }
  return { page, problems };
}

/** A visitor's page of the owner's folder, in a context of its own, with its problems watched. */
async function visitorOf(browser: Browser, owner: Page, options: BrowserContextOptions = {}) {
  const ctx = await browser.newContext(options);
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(owner.url());
  return { ctx, page, problems };
}

/**
 * Messages that stay true on an open page. The empty folder's 24-hour notice goes
 * when someone else's file arrives by live update, and a page whose folder was deleted says so
 * (before: an uncaught 404 in the console and Download buttons that could only fail). And the
 * viewer's Download and "Download all" agree with a file's limit, as the list's button does.
 */
describe('site: messages that stay true (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test("the empty-folder notice goes when a visitor's file arrives; a deleted folder is said", async () => {
    const ownerCtx = await fx.browser.newContext();
    const { page: owner } = await ownerFolder(ownerCtx, fx.server.baseUrl, 'share');
    await owner.locator('#deadline').waitFor();

    const { ctx: visitorCtx, page: visitor, problems } = await visitorOf(fx.browser, owner);
    await visitor.locator('#role[data-role="visitor"]').waitFor();
    const path = await writeTemp(fx.dir, 'arrives.txt', Buffer.from('from a visitor'));
    await visitor.setInputFiles('#file-input', [path]);
    await visitor.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });

    // The owner's page learns of the file by its poll, and the "upload within" rule no longer holds.
    await owner.locator('#files li[data-file-id]').first().waitFor({ timeout: 30_000 });
    await owner.locator('#deadline').waitFor({ state: 'detached', timeout: 30_000 });

    // The owner deletes the folder: the visitor's open page says it is gone, without a reload.
    await owner.locator('#delete-folder').click();
    await owner.locator('#folder-deleted').waitFor();
    await visitor.locator('h1', { hasText: 'Folder not found' }).waitFor({ timeout: 30_000 });
    assert.match(await visitor.locator('main').innerText(), /deleted or has expired while this page was open/);
    assert.equal(await visitor.locator('button.download').count(), 0, 'no Download button that can only fail');
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });

  test('the "did not finish" note goes while that upload resumes', async () => {
    const ctx = await fx.browser.newContext();
    const { page, problems } = await ownerFolder(ctx, fx.server.baseUrl, 'share');
    // An upload that sends nothing, cancelled: after a reload the page says it did not finish.
    await page.route('**/v2/uploads/**', (route) => route.abort('connectionreset'));
    const path = await writeTemp(fx.dir, 'resumes.bin', bytes(2 * 5 * 1024 * 1024, 91));
    await page.setInputFiles('#file-input', path);
    await page.locator('#cancel-upload').click();
    await page.locator('#upload-status[data-state="cancelled"]').waitFor();
    await page.reload();
    await page.unroute('**/v2/uploads/**');
    await page.locator('#resume-note', { hasText: 'resumes.bin' }).waitFor();

    // The same file again: while its first chunk is held on its way, the note is gone.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent = () => {};
    const sending = new Promise<void>((resolve) => {
      sent = resolve;
    });
    await page.route('**/v2/uploads/**', async (route) => {
      sent();
      await held;
      await route.continue();
    });
    await page.setInputFiles('#file-input', path);
    await sending;
    assert.equal(await page.locator('#resume-note').count(), 0, 'no "did not finish" while it resumes');
    release();
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#resume-note').count(), 0, 'nothing left unfinished');
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test("a used-up file: the viewer's Download and Download all are disabled, as the row's is", async () => {
    const content = Buffer.from('only once');
    const path = await writeTemp(fx.dir, 'once.bin', content);
    const ownerCtx = await fx.browser.newContext();
    const { page: owner } = await ownerFolder(ownerCtx, fx.server.baseUrl, 'send', { limit: '1', files: [path] });
    const { ctx: visitorCtx, page: visitor, problems } = await visitorOf(fx.browser, owner, { acceptDownloads: true });
    await visitor.locator('#download-all:enabled').waitFor();
    const got = await downloadBytes(visitor, () => visitor.locator('#files li[data-file-id] button.download').click());
    assert.ok(got.content.equals(content));
    await visitor.locator('#files li[data-file-id] button.download:disabled').waitFor({ timeout: 30_000 });
    await visitor.locator('#download-all:disabled').waitFor({ timeout: 30_000 });
    await visitor.locator('#files button.open', { hasText: 'once.bin' }).click();
    await visitor.locator('#viewer').waitFor();
    assert.equal(await visitor.locator('#viewer-download').isDisabled(), true, 'no enabled Download in the viewer');
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });

  test('a chunk the server refuses: its code in the page\'s words, not "GET chunk 1/1 … answered 400"', async () => {
    const path = await writeTemp(fx.dir, 'refused.bin', Buffer.from('refused on the way'));
    const ownerCtx = await fx.browser.newContext();
    const { page: owner } = await ownerFolder(ownerCtx, fx.server.baseUrl, 'send', { files: [path] });
    const { ctx: visitorCtx, page: visitor, problems } = await visitorOf(fx.browser, owner, { acceptDownloads: true });
    await visitor.locator('#files li[data-file-id] button.download:enabled').waitFor();
    // Every chunk GET (the page's, its workers', its service worker's) is refused as a server would.
    await visitorCtx.route('**/chunks/**', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'this chunk cannot be read now', code: 'invalid_request' }),
      }),
    );
    await visitor.locator('#files li[data-file-id] button.download').click();
    await visitor.locator('#download-status .notice.error').waitFor({ timeout: 60_000 });
    const said = await visitor.locator('#download-status').innerText();
    // The refusal is told by its code, in the page's language (the server's English is the last resort).
    assert.equal(said, `Download failed: ${en['serverError.invalid_request']}`);
    assert.doesNotMatch(said, /GET chunk|answered/);
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });

  test('opening a limited file in the viewer asks first, and only the explicit Open counts', async () => {
    const path = await writeTemp(fx.dir, 'twice.txt', Buffer.from('read me twice'));
    const ownerCtx = await fx.browser.newContext();
    const { page: owner } = await ownerFolder(ownerCtx, fx.server.baseUrl, 'send', { limit: '2', files: [path] });
    const { ctx: visitorCtx, page: visitor, problems } = await visitorOf(fx.browser, owner);
    await visitor.locator('#files li .count[data-left="2"]').waitFor();
    const open = () => visitor.locator('#files button.open', { hasText: 'twice.txt' }).click();
    await open();
    await visitor.locator('#viewer-counted').waitFor();
    assert.match(await visitor.locator('#viewer-counted').innerText(), /Downloads left: 2/);
    assert.equal(await visitor.locator('#viewer-open').innerText(), 'Open (uses 1 download)');
    assert.equal(await visitor.locator('#viewer-text').count(), 0, 'nothing shown (nor fetched) before Open');
    // Closed without opening: nothing was counted.
    await visitor.locator('#viewer-close').click();
    await visitor.reload();
    await visitor.locator('#files li .count[data-left="2"]').waitFor();
    await open();
    await visitor.locator('#viewer-open').click();
    assert.equal(await visitor.locator('#viewer-text').innerText(), 'read me twice');
    await visitor.locator('#viewer-close').click();
    await visitor.reload();
    await visitor.locator('#files li .count[data-left="1"]').waitFor();
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });

  test("a deleted file's activity lines keep its name: on this page, after a reload, in another browser", async () => {
    const ctx = await fx.browser.newContext();
    const { page, problems } = await ownerFolder(ctx, fx.server.baseUrl, 'share');
    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'kept-name.txt', Buffer.from('soon gone'))]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await page.locator('#activity li[data-kind="upload"]', { hasText: 'kept-name.txt' }).waitFor({ timeout: 30_000 });
    await page.locator('#files li[data-file-id] details.file-manage summary').click();
    await page.locator('#files li[data-file-id] .delete-file').click();
    await page.locator('#activity li[data-kind="delete"]').waitFor({ timeout: 30_000 });
    const named = async (p: Page, where: string) => {
      await p.locator('#activity li[data-kind="delete"]').waitFor({ timeout: 30_000 });
      const lines = await p.locator('#activity').innerText();
      assert.match(lines, /Deleted kept-name\.txt/, where);
      assert.match(lines, /Uploaded kept-name\.txt/, where);
      assert.doesNotMatch(lines, /a file no longer here/, where);
    };
    await named(page, 'the page that deleted it');
    // The name comes from the deletion's activity line (encrypted; decrypted with the folder key),
    // not from this page's memory: a reload, and the owner's link in another browser, still name it.
    await page.reload();
    await named(page, 'after a reload');
    const ownerLink = await page.locator('#owner-link').inputValue();
    const otherCtx = await fx.browser.newContext();
    const other = await otherCtx.newPage();
    const otherProblems = watch(other);
    await other.goto(ownerLink);
    await other.locator('#role[data-role="owner"]').waitFor();
    await named(other, 'another browser');
    assert.deepEqual(problems, []);
    assert.deepEqual(otherProblems, []);
    await Promise.all([ctx.close(), otherCtx.close()]);
  });
});
