import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launch, newContext, SCREENSHOTS, SKIP } from '../site/browser.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * The docs site in a real Chromium, under its real Content-Security-Policy: Redoc renders the
 * OpenAPI document (its scripts from 'self', its search worker from a blob), nothing is fetched from
 * another origin, guide pages raise no error and fit a phone's width.
 */
const ROOT = new URL('../../', import.meta.url).pathname;

/** Console errors and page errors, minus the one Redoc is known for (see below). */
function watch(page: Page, origin: string): { problems: string[]; external: string[] } {
  const problems: string[] = [];
  const external: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Redoc's sidebar credit shows a logo from cdn.redoc.ly; the CSP blocks it (no request leaves the
    // origin) and Redoc hides the image. That one blocked load is expected.
    if (m.type() === 'error' && !m.text().includes('https://cdn.redoc.ly/')) problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'blob:' && url.protocol !== 'data:' && url.origin !== origin) external.push(r.url());
  });
  return { problems, external };
}

describe('docs site in Chromium', { skip: SKIP }, () => {
  let srv: RunningServer;
  let browser: Browser;
  before(async () => {
    srv = await startServer();
    browser = await launch();
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
  });

  test('the API reference renders the OpenAPI document under its CSP, search included, with nothing from elsewhere', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const seen = watch(page, new URL(srv.baseUrl).origin);
    await page.goto(`${srv.baseUrl}/docs/api`);
    await page.getByRole('heading', { name: 'Create a share folder' }).first().waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Check direct API upload status' }).first().waitFor();
    assert.ok(
      await page.getByText('X-Amz-Signature').first().isVisible(),
      'the chunk URL rule from the description is shown',
    );
    // Search runs in a worker that Redoc starts from a blob: URL (worker-src blob:). Tagged operations
    // have ids like tag/Folders/operation/<operationId>.
    await page.getByPlaceholder('Search...').fill('upload');
    await page
      .locator('[data-role="search:results"] [data-item-id$="operation/getV2UploadStatus"]')
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-api-reference.png') });
    assert.deepEqual(seen.problems, [], 'no error and no CSP violation');
    assert.deepEqual(seen.external, [], 'no request to another origin');
    await context.close();
  });

  test('every guide page loads without an error, and fits a phone screen', async () => {
    const slugs = (await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
    const context = await newContext(browser, true);
    const page = await context.newPage();
    const seen = watch(page, new URL(srv.baseUrl).origin);
    for (const slug of slugs) {
      await page.goto(`${srv.baseUrl}/docs/${slug === 'index' ? '' : slug}`);
      const css = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
      assert.match(css, /system-ui/, `${slug}: the stylesheet applies under the CSP`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${slug}: no horizontal scrolling on a phone (overflow ${overflow}px)`);
      assert.ok(
        await page.getByRole('navigation', { name: 'Documentation' }).isVisible(),
        `${slug}: navigation visible`,
      );
      if (slug === 'direct-upload')
        await page.screenshot({ path: join(SCREENSHOTS, 'docs-direct-upload-phone.png'), fullPage: false });
    }
    // Keyboard: the first Tab reaches the skip link, which moves focus to the content.
    await page.goto(`${srv.baseUrl}/docs/quick-start`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'content');
    assert.deepEqual(seen.problems, []);
    assert.deepEqual(seen.external, []);
    await context.close();
  });

  test('the desktop layout shows the sidebar beside the article', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${srv.baseUrl}/docs/`);
    const nav = await page.locator('nav.sidebar').boundingBox();
    const main = await page.locator('main').boundingBox();
    assert.ok(nav && main && nav.x + nav.width <= main.x + 1, 'sidebar left of the content');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-index.png') });
    await context.close();
  });
});
