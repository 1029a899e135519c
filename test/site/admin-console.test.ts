import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createDirect, createEmpty } from '../support/api.js';
import { type DriverPage, eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';

/**
 * The admin console at /admin (web/src/views/admin*.ts) against a real server: the break-glass token
 * form, the folder table's search and sort, a take-down through its dialog by keyboard alone, a
 * delete, the statistics and audit tabs, and the visitor of the taken-down folder reading why in
 * their own language. Desktop and phone (390x844), English and German, in Chromium and Firefox; light
 * and dark in Chromium, where a colour scheme can be set for one context. Chromium reads German from
 * the browser's locale; Firefox, which sets no locale for one context, from the language a person
 * picked on the site (local storage), the same catalogue.
 */
const ADMIN_TOKEN = 'admin-console-test-token-0123456789abcdef';

eachEngine('admin console', [chromium, firefox], (engine) => {
  const site = useSite(engine, { ADMIN_TOKEN, RATE_LIMIT_SITE: '100000' });
  const schemes = engine.name === 'chromium';
  let holiday = '';
  let report = '';
  before(async () => {
    report = (await createDirect(site.url, [2000], { title: 'Quarterly report' })).folderId;
    holiday = (await createEmpty(site.url, { title: 'Holiday photos', mode: 'share' })).folderId;
    await createEmpty(site.url, { title: 'Contract drafts' });
  });

  async function open(options: { phone?: boolean; dark?: boolean; locale?: string } = {}): Promise<DriverPage> {
    const locale = options.locale ?? 'en-US';
    const page = await site.browser.page({
      ...(options.phone ? { phone: true } : { viewport: { width: 1280, height: 800 } }),
      ...(schemes ? { colorScheme: options.dark ? 'dark' : 'light', locale } : {}),
    });
    if (!schemes && !locale.startsWith('en')) {
      await page.goto(`${site.url}/`);
      await page.evaluate(`localStorage.setItem('webfolder:language', ${JSON.stringify(locale.slice(0, 2))})`);
    }
    return page;
  }

  async function signIn(page: DriverPage): Promise<void> {
    await page.goto(`${site.url}/admin`);
    await page.fill('#admin-token', ADMIN_TOKEN);
    await page.press('Enter');
    await page.waitFor('#admin-folders tr');
  }

  test('the token form refuses a wrong token; the right one opens the console, kept for the tab only', async () => {
    const page = await open();
    await page.goto(`${site.url}/admin`);
    await page.waitFor('#admin-token');
    assert.match(await page.renderedText('#admin-encrypted'), /encrypted.*cannot be shown/);
    await page.screenshot('admin-sign-in-desktop-light-en');
    await page.fill('#admin-token', `${ADMIN_TOKEN}-wrong`);
    await page.press('Enter');
    await page.waitUntil(`document.getElementById('admin-token-error')?.textContent.includes('refused')`);
    await page.fill('#admin-token', ADMIN_TOKEN);
    await page.press('Enter');
    await page.waitFor('#admin-folders tr');
    assert.equal(await page.count('#admin-folders tr'), 3);
    const stored = await page.evaluate<{ session: string | null; local: string }>(
      `({ session: sessionStorage.getItem('webfolder:admin-token'), local: JSON.stringify(localStorage) })`,
    );
    assert.equal(stored.session, ADMIN_TOKEN);
    assert.ok(!stored.local.includes(ADMIN_TOKEN), 'never in localStorage');
    // A reload keeps the console open (same tab); a new tab of the same browser asks again.
    await page.reload();
    await page.waitFor('#admin-folders tr');
    const other = await page.newTab();
    await other.goto(`${site.url}/admin`);
    await other.waitFor('#admin-token');
    assert.deepEqual(page.problems, []);
    assert.deepEqual(other.problems, []);
    await other.close();
    await page.close();
  });

  test('search, sort and a take-down by keyboard; the visitor reads why in German', async () => {
    const page = await open();
    await signIn(page);
    await page.screenshot('admin-folders-desktop-light-en');
    // Search by title with the keyboard.
    await page.focus('#admin-search');
    await page.type('holiday');
    await page.press('Enter');
    await page.waitUntil(`document.getElementById('admin-status')?.textContent.includes('1–1 of 1')`);
    assert.equal(await page.attribute('#admin-folders tr', 'data-folder'), holiday);
    // Sort by size (largest first): the direct upload's 2000 bytes lead.
    await page.fill('#admin-search', '');
    await page.select('#admin-sort', 'size');
    await page.waitFor(`#admin-folders tr:first-child[data-folder="${report}"]`);

    // Take down "Holiday photos" without the mouse: Tab to its button, Enter, choose, type, Enter.
    const button = `tr[data-folder="${holiday}"] button[data-action="take-down"]`;
    await page.focus(button);
    await page.press('Enter');
    await page.waitFor('dialog.admin-dialog[open]');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'take-down-reason-choice');
    await page.select('#take-down-reason-choice', 'copyright');
    await page.press('Tab');
    await page.type('Notice 42 from the rights holder');
    await page.screenshot('admin-take-down-dialog-desktop-light-en');
    await page.press('Tab');
    await page.press('Enter');
    await page.waitFor('dialog.admin-dialog', { state: 'detached' });
    await page.waitUntil(`document.querySelector('tr[data-folder="${holiday}"]')?.textContent.includes('Taken down')`);
    assert.notEqual(await page.attribute(button, 'disabled'), null, 'a taken-down folder has no take-down left');
    assert.deepEqual(page.problems, []);

    // A visitor in German opens the link.
    const visitor = await open({ locale: 'de-DE' });
    await visitor.goto(`${site.url}/f/${holiday}#c2VjcmV0LXNlY3JldC1zZWNyZXQ`);
    await visitor.waitFor('#take-down');
    assert.equal(await visitor.renderedText('h1'), 'Dieser Ordner wurde gesperrt');
    assert.equal(await visitor.renderedText('#take-down-reason'), 'Urheberrechtsverletzung');
    assert.equal(await visitor.renderedText('#take-down-note'), 'Notice 42 from the rights holder');
    await visitor.screenshot('take-down-visitor-desktop-light-de');
    assert.deepEqual(visitor.problems, []);
    await visitor.close();
    for (const [phone, dark] of [
      [true, false],
      [true, true],
      [false, true],
    ] as const) {
      if (dark && !schemes) continue;
      const v = await open({ phone, dark, locale: 'en-US' });
      await v.goto(`${site.url}/f/${holiday}#c2VjcmV0`);
      await v.waitFor('#take-down');
      assert.equal(await v.renderedText('#take-down-reason'), 'Copyright infringement');
      await v.screenshot(`take-down-visitor-${phone ? 'phone' : 'desktop'}-${dark ? 'dark' : 'light'}-en`);
      await v.close();
    }
    await page.close();
  });

  test('tabs by arrow keys: statistics and the audit log; delete through its dialog', async () => {
    const page = await open({ dark: true, locale: 'de-DE' });
    const look = schemes ? 'dark' : 'light';
    await signIn(page);
    await page.screenshot(`admin-folders-desktop-${look}-de`);
    await page.focus('#admin-tab-folders');
    await page.press('ArrowRight');
    await page.waitFor('#admin-stats dt');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'admin-tab-stats');
    assert.match(await page.renderedText('#admin-stats'), /Ordner/);
    await page.screenshot(`admin-stats-desktop-${look}-de`);
    await page.press('ArrowRight');
    await page.waitFor('#admin-audit');
    await page.waitFor('#audit-table tbody tr');
    await page.press('End');
    await page.waitFor('#accounts-status', { state: 'attached' });
    assert.equal(await page.evaluate('document.activeElement?.id'), 'admin-tab-accounts');
    await page.press('Home');
    await page.waitFor('#admin-folders tr');

    await page.focus(`tr[data-folder="${report}"] button[data-action="delete"]`);
    await page.press('Enter');
    await page.waitFor('dialog.admin-dialog[open]');
    // Escape closes it and nothing is deleted; the focus returns to the button.
    await page.press('Escape');
    await page.waitFor('dialog.admin-dialog', { state: 'detached' });
    assert.equal(await page.evaluate(`document.activeElement?.getAttribute('data-action')`), 'delete');
    await page.press('Enter');
    await page.click('#admin-confirm');
    await page.waitFor(`tr[data-folder="${report}"]`, { state: 'detached' });
    assert.equal(await site.server.server.services.store.getFolder(report), null);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('on a phone (390x844): the page does not scroll sideways', async () => {
    for (const dark of schemes ? [false, true] : [false]) {
      const page = await open({ phone: true, dark, locale: dark ? 'de-DE' : 'en-US' });
      await signIn(page);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
      await page.screenshot(`admin-folders-phone-${dark ? 'dark-de' : 'light-en'}`);
      await page.click('#admin-tab-stats');
      await page.waitFor('#admin-stats dt');
      await page.screenshot(`admin-stats-phone-${dark ? 'dark-de' : 'light-en'}`);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });
});
