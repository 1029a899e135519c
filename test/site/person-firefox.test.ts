import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import type { ElementHandle, Page } from 'puppeteer-core';
import en from '../../web/src/i18n/messages/en.json' with { type: 'json' };
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { bytes, writeTemp } from './browser.js';
import { type Firefox, launchFirefox, MISSING, SKIP, shot } from './firefox.js';

/**
 * Issue #24 in Firefox, the parts the Chromium suites check (details.test.ts, true-messages.test.ts):
 * item 5, the home form's counters, its own limit message (no browser bubble) and the focus after
 * Create, and 44 px preview-name buttons; item 6, a 5,000,000-byte file is "5.00 MB" as the CLI
 * says it; item 4, a folder deleted while a visitor's page is open is said there without a reload.
 */
describe('site: the first minute and true messages in Firefox', { skip: SKIP || Boolean(MISSING) }, () => {
  let server: RunningServer;
  let firefox: Firefox;
  let dir: string;
  before(async () => {
    server = await startServer({ CHUNK_SIZE_MIB: '5' });
    dir = await tempDir('webfolder-firefox-person-');
    firefox = await launchFirefox(dir);
  });
  after(async () => {
    await firefox?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const textOf = (page: Page, css: string) => page.$eval(css, (e) => e.textContent ?? '');
  const fill = (page: Page, css: string, value: string) =>
    page.$eval(
      css,
      (e, v) => {
        (e as HTMLInputElement).value = v;
        e.dispatchEvent(new Event('input', { bubbles: true }));
      },
      value,
    );

  test('home: counters, the limit checked by the page, focus on the heading; 44 px names; sizes in MB', async () => {
    const page = await firefox.page();
    page.on('dialog', (d) => void d.accept().catch(() => {}));
    try {
      await page.goto(`${server.baseUrl}/`);
      await page.waitForSelector('#new-title');
      await fill(page, '#new-title', 'x'.repeat(195));
      assert.equal(await textOf(page, '#new-title-count'), '195 of 200 characters');
      // A limit of 0: the page's own words beside the field, nothing made.
      await fill(page, '#new-limit', '0');
      await page.click('button[type=submit]');
      await page.waitForSelector('#new-limit[aria-invalid="true"]');
      assert.equal(await textOf(page, '#limit-error'), en['home.limitInvalid']);
      assert.equal(new URL(page.url()).pathname, '/');
      await fill(page, '#new-limit', '');
      await fill(page, '#new-title', 'Firefox details');
      await page.click('button[type=submit]');
      await page.waitForSelector('#role[data-role="owner"]');
      await page.waitForFunction(() => document.activeElement?.id === 'folder-title');

      const input = (await page.$('#file-input')) as ElementHandle<HTMLInputElement> | null;
      assert.ok(input);
      await input.uploadFile(await writeTemp(dir, 'five.bin', bytes(5_000_000, 81)));
      await page.waitForSelector('#upload-status[data-state="complete"]', { timeout: 60_000 });
      await page.waitForSelector('#files button.open');
      const height = await page.$eval('#files button.open', (e) => e.getBoundingClientRect().height);
      assert.ok(height >= 44, `the preview-name button is 44 px tall (${height})`);
      // Item 6: one size convention, decimal, as the CLI prints it.
      await page.waitForFunction(() => document.getElementById('folder-summary')?.textContent?.includes('5.00 MB'));
      await shot(page, 'details-owner');
    } finally {
      await page.browserContext().close();
    }
  });

  test("a folder deleted while a visitor's page is open is said there, with no Download left", async () => {
    const owner = await firefox.page();
    owner.on('dialog', (d) => void d.accept().catch(() => {}));
    const visitor = await firefox.page();
    try {
      await owner.goto(`${server.baseUrl}/`);
      await owner.waitForSelector('#new-mode');
      await owner.click('button[type=submit]');
      await owner.waitForSelector('#role[data-role="owner"]');
      const input = (await owner.$('#file-input')) as ElementHandle<HTMLInputElement> | null;
      assert.ok(input);
      await input.uploadFile(await writeTemp(dir, 'going.txt', Buffer.from('soon gone')));
      await owner.waitForSelector('#upload-status[data-state="complete"]', { timeout: 60_000 });

      await visitor.goto(owner.url());
      await visitor.waitForSelector('#files li button.download');
      await owner.click('#delete-folder');
      await owner.waitForSelector('#folder-deleted');
      // The visitor's page learns it by its poll: no reload.
      await visitor.waitForFunction(
        () => [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Folder not found'),
        { timeout: 30_000 },
      );
      assert.match(await textOf(visitor, 'main'), /deleted or has expired while this page was open/);
      assert.equal((await visitor.$$('button.download')).length, 0, 'no Download button that can only fail');
    } finally {
      await visitor.browserContext().close();
      await owner.browserContext().close();
    }
  });
});
