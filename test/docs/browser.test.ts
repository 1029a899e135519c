import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { OPERATIONS } from '../../src/discovery/surfaces.js';
import { newContext, SCREENSHOTS, SKIP, useBrowserFixture } from '../site/browser.js';

/**
 * The docs site in a real Chromium, under its real Content-Security-Policy: Redoc renders the
 * OpenAPI document (its scripts from 'self', its search worker from a blob), nothing is fetched from
 * another origin, guide pages raise no error and fit a phone's width.
 */
const ROOT = new URL('../../', import.meta.url).pathname;

/** Console errors and page errors (Redoc's credit logo from cdn.redoc.ly is removed at build: no exception). */
function watch(page: Page, origin: string): { problems: string[]; external: string[] } {
  const problems: string[] = [];
  const external: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'blob:' && url.protocol !== 'data:' && url.origin !== origin) external.push(r.url());
  });
  return { problems, external };
}

describe('docs site in Chromium', { skip: SKIP }, () => {
  const fx = useBrowserFixture();
  before(() => mkdir(SCREENSHOTS, { recursive: true }));

  test('the API reference renders the OpenAPI document under its CSP, search included, with nothing from elsewhere', async () => {
    const context = await newContext(fx.browser);
    const page = await context.newPage();
    const seen = watch(page, new URL(fx.server.baseUrl).origin);
    await page.goto(`${fx.server.baseUrl}/docs/api`);
    await page.getByRole('heading', { name: OPERATIONS.createV2Folder.summary }).first().waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: OPERATIONS.getV2UploadStatus.summary }).first().waitFor();
    assert.ok(
      await page.getByText('X-Amz-Signature').first().isVisible(),
      'the chunk URL rule from the description is shown',
    );
    // Search runs in a worker that Redoc starts from a blob: URL (worker-src blob:). Tagged operations
    // have ids like tag/Folders/operation/<operationId>.
    await page.getByPlaceholder('Search...').fill('upload');
    await page
      .locator('[data-role="search:results"] [data-item-id$="operation/getV2UploadStatus"]')
      .waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-api-reference.png') });
    assert.deepEqual(seen.problems, [], 'no error and no CSP violation');
    assert.deepEqual(seen.external, [], 'no request to another origin');
    await context.close();
  });

  test('every guide page loads without an error, and fits a phone screen', async () => {
    const slugs = (await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
    const context = await newContext(fx.browser, true);
    const page = await context.newPage();
    const seen = watch(page, new URL(fx.server.baseUrl).origin);
    for (const slug of slugs) {
      await page.goto(`${fx.server.baseUrl}/docs/${slug === 'index' ? '' : slug}`);
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
    await page.goto(`${fx.server.baseUrl}/docs/quick-start`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'content');
    assert.deepEqual(seen.problems, []);
    assert.deepEqual(seen.external, []);
    await context.close();
  });

  test('the API reference sits in the same navigation as every page, without an image from elsewhere', async () => {
    const context = await newContext(fx.browser);
    const page = await context.newPage();
    const seen = watch(page, new URL(fx.server.baseUrl).origin);
    await page.goto(`${fx.server.baseUrl}/docs/api`);
    await page.getByRole('heading', { name: OPERATIONS.createV2Folder.summary }).first().waitFor({ timeout: 20_000 });
    // The guide pages' sidebar, with the API reference marked as the current page.
    const sidebar = page.locator('nav.sidebar');
    assert.ok(await sidebar.isVisible());
    assert.equal(await sidebar.locator('[aria-current="page"]').innerText(), 'API reference');
    assert.ok(await sidebar.getByRole('link', { name: 'Quick start' }).isVisible());
    const nav = await sidebar.boundingBox();
    const redoc = await page.locator('#redoc').boundingBox();
    assert.ok(nav && redoc && nav.x + nav.width <= redoc.x + 1, 'the reference is beside the sidebar');
    // Redoc's credit is there, without its logo from cdn.redoc.ly.
    await page.getByText('API docs by Redocly').waitFor();
    assert.equal(await page.locator('img[src*="redoc.ly"]').count(), 0);
    assert.deepEqual(
      await page.evaluate(() => [...document.images].map((i) => i.src).filter((u) => !u.startsWith(location.origin))),
      [],
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-api-reference-nav.png') });
    assert.deepEqual(seen.problems, []);
    assert.deepEqual(seen.external, []);
    await context.close();
  });

  test('on a phone the navigation is one "Menu" line that opens the page list', async () => {
    const context = await newContext(fx.browser, true);
    const page = await context.newPage();
    await page.goto(`${fx.server.baseUrl}/docs/cli`);
    assert.equal(await page.locator('nav.sidebar').isVisible(), false, 'no sidebar on a phone');
    const menu = page.getByRole('navigation', { name: 'Documentation' });
    const summary = menu.locator('summary');
    assert.match(await summary.innerText(), /^Menu/);
    const box = (await menu.boundingBox())!;
    assert.ok(box.height >= 44 && box.height < 80, `one line, a 44 px target (${box.height}px)`);
    // The article's heading is on the first screen.
    const h1 = (await page.locator('article h1').boundingBox())!;
    assert.ok(h1.y + h1.height < 740, 'the page text starts on the first screen');
    assert.equal(await menu.getByRole('link', { name: 'API reference' }).isVisible(), false);
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-phone-menu-closed.png') });
    await summary.click();
    assert.ok(await menu.getByRole('link', { name: 'API reference' }).isVisible());
    const links = await menu.getByRole('link').count();
    assert.ok(links >= 10, `the whole page list (${links})`);
    const current = menu.locator('[aria-current="page"]');
    assert.ok(await current.isVisible());
    const target = (await menu.getByRole('link', { name: 'Quick start' }).boundingBox())!;
    assert.ok(target.height >= 44, 'links are 44 px targets');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-phone-menu-open.png') });
    await menu.getByRole('link', { name: 'Quick start' }).click();
    await page.waitForURL(/\/docs\/quick-start$/);
    await context.close();
  });

  test('the desktop layout shows the sidebar beside the article', async () => {
    const context = await newContext(fx.browser);
    const page = await context.newPage();
    await page.goto(`${fx.server.baseUrl}/docs/`);
    const nav = await page.locator('nav.sidebar').boundingBox();
    const main = await page.locator('main').boundingBox();
    assert.ok(nav && main && nav.x + nav.width <= main.x + 1, 'sidebar left of the content');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-index.png') });
    await context.close();
  });
});
