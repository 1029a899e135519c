import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { until } from '../support/poll.js';
import { SKIP, screenshot, useBrowserFixture, watch } from './browser.js';

/**
 * The admin console as an operator meets it without an identity provider: the sign-in screen asks
 * for the token only; a take-down's reason is the admin's choice (none is preselected); the audit
 * log says "admin token" for what the token did, and writes times and a detail's `expiresAt` as the
 * site writes dates, not epoch milliseconds or the browser's default format; on a phone the folder
 * table's rows stack, so that no column is off the screen.
 */
const ADMIN_TOKEN = 'admin-person-test-token-0123456789abcdefgh';
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, locale: 'en-US' };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.locator('#admin-token').fill(ADMIN_TOKEN);
  await page.locator('#admin-token-submit').click();
  await page.locator('#admin-tab-folders').waitFor();
}

describe('site: the admin console without an identity provider (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture({ ADMIN_TOKEN });
  let folderId = '';

  test('a folder whose owner changed its expiry', async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-title').fill('Quarterly figures');
    await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
    await page.locator('#owner-settings').waitFor();
    await page.locator('#save-expiry').click();
    folderId = new URL(page.url()).pathname.split('/').pop()!;
    // Saved before the page closes: closing first could cancel the request.
    await until('the new expiry in the audit log', async () => {
      const res = await fetch(`${fx.server.baseUrl}/api/admin/audit?action=folder.settings&folder=${folderId}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      return res.ok && ((await res.json()) as { entries: unknown[] }).entries.length > 0;
    });
    await ctx.close();
  });

  test('sign-in asks for the token; the reason must be chosen; the audit log reads as the site writes', async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/admin`);
    const words = await page.locator('#admin-sign-in').innerText();
    assert.match(words, /Enter the admin token \(ADMIN_TOKEN\) set on this server/);
    assert.doesNotMatch(words, /admin account/, 'no account to sign in with where no identity provider is set');
    await screenshot(page, 'admin-sign-in-desktop-light-en');
    await signIn(page, fx.server.baseUrl);

    await page.locator(`tr[data-folder="${folderId}"] button[data-action="take-down"]`).click();
    await page.locator('dialog.admin-dialog[open]').waitFor();
    assert.equal(await page.locator('#take-down-reason-choice').inputValue(), '', 'no reason chosen for the admin');
    await page.locator('#take-down-confirm').click();
    await page.locator('#take-down-reason-error', { hasText: 'Choose the reason' }).waitFor();
    const notYet = await fetch(`${fx.server.baseUrl}/api/site/folders/${folderId}/take-down`);
    assert.equal(notYet.status, 404, 'nothing taken down without a reason');
    await page.locator('#take-down-reason-choice').selectOption('terms');
    await page.locator('#take-down-confirm').click();
    await page.locator(`tr[data-folder="${folderId}"]`, { hasText: 'Taken down' }).waitFor();

    await page.locator('#admin-tab-audit').click();
    const takeDown = page.locator('#audit-rows tr[data-action="folder.take-down"]');
    await takeDown.waitFor();
    const takeDownText = (await takeDown.innerText()).replace(/\s+/g, ' ');
    assert.match(takeDownText, /admin token/);
    assert.doesNotMatch(takeDownText, /anonymous/);
    const settings = (await page.locator('#audit-rows tr[data-action="folder.settings"]').innerText()).replace(
      /\s+/g,
      ' ',
    );
    // "Nov 30, 2026, 7:43 PM", as the rest of the site writes dates.
    const siteDate = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/;
    assert.match(settings, new RegExp(`expiresAt: ${siteDate.source}`));
    assert.doesNotMatch(settings, /\d{13}/, 'no epoch milliseconds');
    assert.match(takeDownText, siteDate);
    assert.doesNotMatch(takeDownText, /\d{1,2}\/\d{1,2}\/\d{4}/, 'no browser-default US date');
    await screenshot(page, 'admin-audit-desktop-light-en');
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test("on a phone every cell of a folder's row is on the screen, the page not wider than it", async () => {
    for (const locale of ['en-US', 'de-DE']) {
      const ctx = await fx.browser.newContext({ ...PHONE, locale });
      const page = await ctx.newPage();
      const problems = watch(page);
      await signIn(page, fx.server.baseUrl);
      await page.locator(`tr[data-folder="${folderId}"]`).waitFor();
      const off = await page.evaluate((id) => {
        const width = document.documentElement.clientWidth;
        const row = document.querySelector(`tr[data-folder="${id}"]`) as HTMLTableRowElement;
        const out: string[] = [];
        for (const c of row.cells) {
          const box = c.getBoundingClientRect();
          const name = c.dataset.label ?? c.textContent ?? '';
          if (box.width === 0 || box.left < 0 || box.right > width + 0.5)
            out.push(`${name} at ${box.left}–${box.right}`);
          else if (c.scrollWidth > c.clientWidth + 1) out.push(`${name} overflows its cell`);
        }
        if (document.documentElement.scrollWidth > width)
          out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
        return out;
      }, folderId);
      assert.deepEqual(off, [], `${locale}: every cell within the ${PHONE.viewport?.width} px screen`);
      // Each value says which column it is.
      const size = page.locator(`tr[data-folder="${folderId}"] td[data-label]`).nth(1);
      assert.equal(
        await size.evaluate((e) => getComputedStyle(e, '::before').content),
        `"${locale === 'en-US' ? 'Size' : 'Größe'}"`,
      );
      assert.deepEqual(problems, []);
      await ctx.close();
    }
  });

  test('screenshots: the console on a desktop and a phone, light and dark, English and German', async () => {
    for (const [device, options] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)
      for (const scheme of ['light', 'dark'] as const)
        for (const locale of ['en-US', 'de-DE']) {
          const ctx = await fx.browser.newContext({ ...options, locale, colorScheme: scheme });
          const page = await ctx.newPage();
          const problems = watch(page);
          await signIn(page, fx.server.baseUrl);
          await page.locator(`tr[data-folder="${folderId}"]`).waitFor();
          await screenshot(page, `admin-console-${device}-${scheme}-${locale.slice(0, 2)}`);
          assert.deepEqual(problems, []);
          await ctx.close();
        }
  });
});
