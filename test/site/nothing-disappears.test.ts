import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Dialog, ElementHandle } from 'puppeteer-core';
import { until } from '../support/poll.js';
import { downloadBytes, SKIP, useBrowserFixture, watch, writeTemp } from './browser.js';
import { firefox } from './driver-firefox.js';
import { launchFirefox } from './firefox.js';
import { useGatedServer } from './gated.js';

/**
 * Nothing disappears without a word: empty files (the service takes files of at least one byte) are
 * named in a notice that stays, and dropped alone they make no folder; "Download all" says which
 * files its zip leaves out and why; the browser asks before a running upload is left.
 */
const DESKTOP = { viewport: { width: 1280, height: 800 }, acceptDownloads: true };
const file = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

describe('site: nothing disappears without a word (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('an empty file dropped alone makes no folder; beside another it is named after the upload', async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.setInputFiles('#file-input', [file('empty.txt', '')]);
    await page.locator('#empty-skipped', { hasText: 'empty.txt' }).waitFor();
    assert.match(await page.locator('#empty-skipped').innerText(), /empty files cannot be uploaded/);
    assert.equal(new URL(page.url()).pathname, '/', 'no folder was made for nothing');

    await Promise.all([
      page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/),
      page.setInputFiles('#file-input', [file('blank.txt', ''), file('words.txt', 'some words\n')]),
    ]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    assert.match(await page.locator('#upload-status').innerText(), /Upload complete: 1 file/);
    // Still there once the upload is done and the page redrawn, naming the file.
    await page.locator('#files li[data-file-id]', { hasText: 'words.txt' }).waitFor();
    assert.match(await page.locator('#empty-skipped').innerText(), /An empty file was skipped[\s\S]*blank\.txt/);
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('"Download all" names the used-up file its zip leaves out, and why', async () => {
    const ownerCtx = await fx.browser.newContext(DESKTOP);
    const owner = await ownerCtx.newPage();
    await owner.goto(`${fx.server.baseUrl}/`);
    await owner.locator('#new-mode').selectOption('send');
    await owner.locator('#new-limit').fill('1');
    await Promise.all([
      owner.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/),
      owner.setInputFiles('#file-input', [file('once.txt', 'one download\n'), file('twice.txt', 'another\n')]),
    ]);
    await owner.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    const link = await owner.locator('#share-link').inputValue();

    const ctx = await fx.browser.newContext(DESKTOP);
    const visitor = await ctx.newPage();
    const problems = watch(visitor);
    await visitor.goto(link);
    const row = visitor.locator('#files li[data-file-id]', { hasText: 'once.txt' });
    await downloadBytes(visitor, () => row.locator('button.download').click());
    await row.locator('button.download:disabled').waitFor();
    const zip = await downloadBytes(visitor, () => visitor.locator('#download-all').click());
    assert.ok(zip.content.includes('twice.txt') && !zip.content.includes('once.txt'));
    await visitor.locator('#download-status', { hasText: 'Left out' }).waitFor();
    assert.match(
      await visitor.locator('#download-status').innerText(),
      /Left out: once\.txt \(download limit reached\)/,
    );
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), ctx.close()]);
  });

  test('leaving the page while an upload runs asks first', async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${fx.server.baseUrl}/`);
    // A chunk that is never answered: the upload runs until the page goes.
    await page.route('**/chunks/**', () => {});
    await page.route('**/v2/uploads/**', () => {});
    await page.locator('h1').click(); // the person has used the page (browsers ask only then)
    await Promise.all([
      page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/),
      page.setInputFiles('#file-input', [file('slow.txt', 'x'.repeat(1000))]),
    ]);
    await page.locator('#overall-progress').waitFor();
    const asked = page.waitForEvent('dialog', { timeout: 10_000 });
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    assert.equal(dialog.type(), 'beforeunload');
    await dialog.accept();
    await ctx.close();
  });
});

describe('site: nothing disappears without a word (Firefox)', { skip: firefox.skip }, () => {
  const fx = useGatedServer({}, { prefix: 'webfolder-leave-firefox-', open: (dir) => launchFirefox(dir) });

  test('closing the tab while an upload runs asks first, and the upload goes on when the person stays', async () => {
    const page = await fx.browser.page();
    await page.setViewport({ width: 1280, height: 800 });
    const dialogs: Dialog[] = [];
    page.on('dialog', (d) => void dialogs.push(d));
    await page.goto(`${fx.gate.url}/`);
    await page.waitForSelector('#file-input');
    // The person has used the page (Firefox asks only then).
    await page.click('h1');
    // Every chunk the page sends is held: the upload runs until the test lets it go.
    fx.gate.hold((req) => req.method === 'PUT');
    const input = (await page.waitForSelector('#file-input')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(await writeTemp(fx.dir, 'slow.txt', Buffer.from('x'.repeat(1000))));
    await until('a chunk on its way', () => fx.gate.held().length > 0, 60_000);
    // Closing the tab as a person does: the page's beforeunload handler runs and Firefox asks.
    const closing = page.close({ runBeforeUnload: true }).catch((e: unknown) => e);
    const asked = await until('Firefox to ask before leaving', () => dialogs[0] ?? false, 30_000);
    assert.equal(asked.type(), 'beforeunload');
    // Staying: the page is still there and its upload completes once the chunk goes through.
    await asked.dismiss();
    await closing;
    assert.equal(await page.evaluate('location.pathname.startsWith("/f/")'), true, 'the page stayed');
    fx.gate.release();
    await page.waitForSelector('#upload-status[data-state="complete"]', { timeout: 60_000 });
    await page.close();
  });
});
