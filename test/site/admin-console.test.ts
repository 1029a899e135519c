import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createDirect, createEmpty } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';
import { launch, SKIP, screenshot, watch } from './browser.js';

/**
 * The admin console at /admin (web/src/views/admin*.ts) in a real Chromium against a real server:
 * the break-glass token form, the folder table's search and sort, a take-down through its dialog by
 * keyboard alone, a delete, the statistics and audit tabs, and the visitor of the taken-down folder
 * reading why in their own language. Desktop and phone (390x844), light and dark, English and German.
 */
const ADMIN_TOKEN = 'admin-console-test-token-0123456789abcdef';

describe('admin console in Chromium', { skip: SKIP }, () => {
  let srv: RunningServer;
  let browser: Browser;
  let holiday = '';
  let report = '';
  before(async () => {
    srv = await startServer({ ADMIN_TOKEN, RATE_LIMIT_SITE: '100000' });
    browser = await launch();
    report = (await createDirect(srv.baseUrl, [2000], { title: 'Quarterly report' })).folderId;
    holiday = (await createEmpty(srv.baseUrl, { title: 'Holiday photos', mode: 'share' })).folderId;
    await createEmpty(srv.baseUrl, { title: 'Contract drafts' });
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
  });

  async function open(options: { phone?: boolean; dark?: boolean; locale?: string } = {}) {
    const context: BrowserContext = await browser.newContext({
      viewport: options.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
      ...(options.phone ? { isMobile: true, hasTouch: true } : {}),
      colorScheme: options.dark ? 'dark' : 'light',
      locale: options.locale ?? 'en-US',
    });
    const page = await context.newPage();
    return { context, page, problems: watch(page) };
  }

  async function signIn(page: Page): Promise<void> {
    await page.goto(`${srv.baseUrl}/admin`);
    await page.locator('#admin-token').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.locator('#admin-folders tr').first().waitFor();
  }

  test('the token form refuses a wrong token; the right one opens the console, kept for the tab only', async () => {
    const { context, page, problems } = await open();
    await page.goto(`${srv.baseUrl}/admin`);
    await page.locator('#admin-token').waitFor();
    assert.match(await page.locator('#admin-encrypted').innerText(), /encrypted.*cannot be shown/);
    await screenshot(page, 'admin-sign-in-desktop-light-en');
    await page.locator('#admin-token').fill(`${ADMIN_TOKEN}-wrong`);
    await page.keyboard.press('Enter');
    await page.locator('#admin-token-error', { hasText: 'refused' }).waitFor();
    await page.locator('#admin-token').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.locator('#admin-folders tr').first().waitFor();
    assert.equal(await page.locator('#admin-folders tr').count(), 3);
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('webfolder:admin-token'),
      local: JSON.stringify(localStorage),
    }));
    assert.equal(stored.session, ADMIN_TOKEN);
    assert.ok(!stored.local.includes(ADMIN_TOKEN), 'never in localStorage');
    // A reload keeps the console open (same tab); a new tab (context) asks again.
    await page.reload();
    await page.locator('#admin-folders tr').first().waitFor();
    const other = await context.newPage();
    await other.goto(`${srv.baseUrl}/admin`);
    await other.locator('#admin-token').waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('search, sort and a take-down by keyboard; the visitor reads why in German', async () => {
    const { context, page, problems } = await open();
    await signIn(page);
    await screenshot(page, 'admin-folders-desktop-light-en');
    // Search by title with the keyboard.
    await page.locator('#admin-search').focus();
    await page.keyboard.type('holiday');
    await page.keyboard.press('Enter');
    await page.locator('#admin-status', { hasText: '1–1 of 1' }).waitFor();
    assert.equal(await page.locator('#admin-folders tr').getAttribute('data-folder'), holiday);
    // Sort by size (largest first): the direct upload's 2000 bytes lead.
    await page.locator('#admin-search').fill('');
    await page.locator('#admin-sort').selectOption('size');
    await page.locator(`#admin-folders tr:first-child[data-folder="${report}"]`).waitFor();

    // Take down "Holiday photos" without the mouse: Tab to its button, Enter, choose, type, Enter.
    const button = page.locator(`tr[data-folder="${holiday}"] button[data-action="take-down"]`);
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog.admin-dialog[open]');
    await dialog.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'take-down-reason-choice');
    await page.locator('#take-down-reason-choice').selectOption('copyright');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Notice 42 from the rights holder');
    await screenshot(page, 'admin-take-down-dialog-desktop-light-en');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.locator(`tr[data-folder="${holiday}"]`, { hasText: 'Taken down' }).waitFor();
    assert.equal(await button.isDisabled(), true);
    assert.deepEqual(problems, []);

    // A visitor in German opens the link.
    const visitor = await open({ locale: 'de-DE' });
    await visitor.page.goto(`${srv.baseUrl}/f/${holiday}#c2VjcmV0LXNlY3JldC1zZWNyZXQ`);
    await visitor.page.locator('#take-down').waitFor();
    assert.equal(await visitor.page.locator('h1').innerText(), 'Dieser Ordner wurde gesperrt');
    assert.equal(await visitor.page.locator('#take-down-reason').innerText(), 'Urheberrechtsverletzung');
    assert.equal(await visitor.page.locator('#take-down-note').innerText(), 'Notice 42 from the rights holder');
    await screenshot(visitor.page, 'take-down-visitor-desktop-light-de');
    assert.deepEqual(visitor.problems, []);
    await visitor.context.close();
    for (const [phone, dark] of [
      [true, false],
      [true, true],
      [false, true],
    ] as const) {
      const v = await open({ phone, dark, locale: 'en-US' });
      await v.page.goto(`${srv.baseUrl}/f/${holiday}#c2VjcmV0`);
      await v.page.locator('#take-down').waitFor();
      assert.equal(await v.page.locator('#take-down-reason').innerText(), 'Copyright infringement');
      await screenshot(v.page, `take-down-visitor-${phone ? 'phone' : 'desktop'}-${dark ? 'dark' : 'light'}-en`);
      await v.context.close();
    }
    await context.close();
  });

  test('tabs by arrow keys: statistics and the audit log; delete through its dialog', async () => {
    const { context, page, problems } = await open({ dark: true, locale: 'de-DE' });
    await signIn(page);
    await screenshot(page, 'admin-folders-desktop-dark-de');
    await page.locator('#admin-tab-folders').focus();
    await page.keyboard.press('ArrowRight');
    await page.locator('#admin-stats dt').first().waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'admin-tab-stats');
    assert.match(await page.locator('#admin-stats').innerText(), /Ordner/);
    await screenshot(page, 'admin-stats-desktop-dark-de');
    await page.keyboard.press('ArrowRight');
    await page.locator('#admin-audit').waitFor();
    await page.locator('#audit-table tbody tr').first().waitFor();
    await page.keyboard.press('End');
    await page.locator('#accounts-status').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'admin-tab-accounts');
    await page.keyboard.press('Home');
    await page.locator('#admin-folders tr').first().waitFor();

    const remove = page.locator(`tr[data-folder="${report}"] button[data-action="delete"]`);
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog.admin-dialog[open]').waitFor();
    // Escape closes it and nothing is deleted; the focus returns to the button.
    await page.keyboard.press('Escape');
    await page.locator('dialog.admin-dialog').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-action')), 'delete');
    await page.keyboard.press('Enter');
    await page.locator('#admin-confirm').click();
    await page.locator(`tr[data-folder="${report}"]`).waitFor({ state: 'detached' });
    assert.equal(await srv.server.services.store.getFolder(report), null);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('on a phone (390x844), light and dark: the page does not scroll sideways', async () => {
    for (const dark of [false, true]) {
      const { context, page, problems } = await open({ phone: true, dark, locale: dark ? 'de-DE' : 'en-US' });
      await signIn(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
      await screenshot(page, `admin-folders-phone-${dark ? 'dark-de' : 'light-en'}`);
      await page.locator('#admin-tab-stats').click();
      await page.locator('#admin-stats dt').first().waitFor();
      await screenshot(page, `admin-stats-phone-${dark ? 'dark-de' : 'light-en'}`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  });
});
