import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { hashToken, newId, newToken } from '../../src/domain/ids.js';
import { call, token } from '../site-api/owner-support.js';
import { createEmpty, postJson } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';
import { launch, SKIP, screenshot, watch } from './browser.js';
import { eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';

/**
 * The console's audit and accounts tabs (web/src/views/admin-audit.ts, admin-accounts.ts) in a real
 * Chromium against a real server, before the console's frame mounts them: the views are bundled
 * (esbuild, as the site's build would) into a page served at the server's own origin, so their
 * requests reach the real admin API with the break-glass token, as the console's `request` does.
 */
const ADMIN_TOKEN = 'admin-views-test-token-0123456789abcdef';
const ROOT = new URL('../../', import.meta.url).pathname;
const PAGE = '/__admin-views-test/';

async function bundle(): Promise<string> {
  const entry = `
    import { setLanguage } from './web/src/i18n/index.js';
    import { adminAuditView } from './web/src/views/admin-audit.js';
    import { adminAccountsView } from './web/src/views/admin-accounts.js';
    const params = new URLSearchParams(location.search);
    const request = (path, init = {}) =>
      fetch(path, { ...init, headers: { ...(init.headers ?? {}), authorization: 'Bearer ${ADMIN_TOKEN}' } });
    await setLanguage(params.get('lang') ?? 'en');
    document.documentElement.lang = params.get('lang') ?? 'en';
    const main = document.getElementById('main');
    main.append(params.get('tab') === 'accounts' ? adminAccountsView(request) : adminAuditView(request));
  `;
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts', sourcefile: 'admin-views-entry.ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // As Vite's build does: a Node built-in reached through shared modules (domain/ids.ts, by the
    // contract's id pattern) is an empty module in the page; nothing the views run calls it.
    plugins: [
      {
        name: 'node-builtins-empty',
        setup(b) {
          b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-empty' }));
          b.onLoad({ filter: /.*/, namespace: 'node-empty' }, () => ({
            contents: 'module.exports = {};',
            loader: 'js',
          }));
        },
      },
    ],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const ENV = {
  ADMIN_TOKEN,
  AUDIT_CLIENT_ADDRESS: 'hashed',
  QUOTA_ACCOUNT_MIB: '10',
  DISK_FREE_MIN_MIB: '0',
};

/**
 * What the console shows: three empty folders, a site folder made, limited and deleted by its owner
 * (seven audit entries with ana's, below), and two accounts, ana having stored 3 MiB through her API
 * key and bo nothing. Answers the site folder's id.
 */
async function seed(srv: RunningServer): Promise<string> {
  for (let i = 0; i < 3; i++) await createEmpty(srv.baseUrl, { title: `made ${i}` });
  const api = `${srv.baseUrl}/api/site`;
  const owner = token();
  const made = await call(api, 'POST', '/folders', { owner, body: { mode: 'share', ske: 'ske-value' } });
  const siteFolder = made.json.folderId;
  await call(api, 'PATCH', `/folders/${siteFolder}`, { owner, body: { maxDownloads: 5 } });
  await call(api, 'DELETE', `/folders/${siteFolder}`, { owner });
  const accounts = srv.server.services.store.accounts;
  for (const who of ['ana', 'bo']) {
    const account = await accounts.signIn({
      newId: `account-${who}-00000001`,
      issuer: 'https://idp.example',
      subject: who,
      email: `${who}@example.org`,
      name: null,
      admin: false,
      now: Date.now(),
    });
    if (who !== 'ana') continue;
    const key = `wfk_${newToken().padEnd(43, 'A').slice(0, 43)}`;
    await accounts.createApiKey({
      id: newId(),
      accountId: account.id,
      name: 'ci',
      hash: hashToken(key),
      createdAt: 1,
    });
    const made = await postJson(
      `${srv.baseUrl}/v2/folders`,
      { encryption: { ske: 's' }, files: [{ filename: 'f', filesize: 3 * 1024 * 1024 }] },
      { authorization: `Bearer ${key}` },
    );
    assert.equal(made.status, 200);
  }
  return siteFolder;
}

async function servePage(page: Page, baseUrl: string, script: string, css: string): Promise<void> {
  await page.route(`${baseUrl}${PAGE}**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.endsWith('.js'))
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: script });
    if (url.pathname.endsWith('.css')) return route.fulfill({ status: 200, contentType: 'text/css', body: css });
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <link rel="stylesheet" href="${PAGE}style.css"><title>admin</title></head>
        <body><main id="main" class="card"></main><div id="live" class="visually-hidden" aria-live="polite"></div>
        <script type="module" src="${PAGE}views.js"></script></body></html>`,
    });
  });
}

describe('admin views bundled on their own (Chromium)', { skip: SKIP }, () => {
  let srv: RunningServer;
  let browser: Browser;
  let script: string;
  let css: string;
  let siteFolder: string;
  before(async () => {
    [script, css] = await Promise.all([bundle(), readFile(`${ROOT}web/src/style.css`, 'utf8')]);
    srv = await startServer(ENV);
    browser = await launch();
    siteFolder = await seed(srv);
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
  });

  test('the audit tab lists entries newest first, filters by action and folder, and exports JSON lines', async () => {
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watch(page);
    await servePage(page, srv.baseUrl, script, css);
    await page.goto(`${srv.baseUrl}${PAGE}?tab=audit`);
    const rows = page.locator('#audit-rows tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 7);
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.action)), [
      'folder.create',
      'folder.delete',
      'folder.settings',
      'folder.create',
      'folder.create',
      'folder.create',
      'folder.create',
    ]);
    assert.match((await rows.nth(0).innerText()).replace(/\s+/g, ' '), /ana@example\.org \(api-key\)/);
    assert.match(
      (await rows.nth(2).innerText()).replace(/\s+/g, ' '),
      /Settings changed .*anonymous.* maxDownloads: 5/,
    );

    // By action, with the keyboard: choose, then Enter in a field submits the filter.
    await page.selectOption('#audit-action', 'folder.create');
    await page.locator('#audit-folder').press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#audit-rows tr').length === 5);
    await page.selectOption('#audit-action', '');
    await page.fill('#audit-folder', siteFolder);
    await page.click('#audit-apply');
    await page.waitForFunction(() => document.querySelectorAll('#audit-rows tr').length === 3);

    // The export saves what the filter selects, one JSON line per entry.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#audit-export')]);
    assert.equal(download.suggestedFilename(), 'audit.jsonl');
    const text = await readFile((await download.path())!, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { folderId: string });
    assert.equal(lines.length, 3);
    assert.ok(lines.every((l) => l.folderId === siteFolder));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the accounts tab shows usage against the default quota, and an admin sets and clears an own quota', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watch(page);
    await servePage(page, srv.baseUrl, script, css);
    await page.goto(`${srv.baseUrl}${PAGE}?tab=accounts`);
    const ana = page.locator('tr[data-account="account-ana-00000001"]');
    await ana.waitFor();
    assert.equal(await page.locator('#accounts-rows tr').count(), 2);
    assert.match(await page.locator('#accounts-default').innerText(), /^Default quota per account: /);
    const used = await ana.locator('td.used').innerText();
    assert.notEqual(used, await page.locator('tr[data-account="account-bo-00000001"] td.used').innerText());
    assert.match(await ana.locator('td.quota').innerText(), /\(default\)/);
    // With the keyboard: type a figure in MB (the unit sizes are shown in), Enter saves it.
    await ana.locator('input.quota-input').fill('4');
    await ana.locator('input.quota-input').press('Enter');
    await page.waitForFunction(() =>
      /ana@example\.org/.test(document.getElementById('accounts-status')?.textContent ?? ''),
    );
    assert.doesNotMatch(await ana.locator('td.quota').innerText(), /default/);
    // The figure typed is the figure shown: 4 MB, not 4.19 MB.
    assert.match(await ana.locator('td.quota').innerText(), /^4(\.00)? MB$/);
    const stored = await srv.server.services.store.usage.usage('account-ana-00000001');
    assert.equal(stored?.quotaBytes, 4_000_000);
    assert.equal(stored?.usedBytes, 3 * 1024 * 1024);
    await ana.getByRole('button', { name: 'Use default' }).click();
    await page.waitForFunction(() =>
      /default/.test(document.querySelector('tr[data-account="account-ana-00000001"] td.quota')?.textContent ?? ''),
    );
    assert.equal((await srv.server.services.store.usage.usage('account-ana-00000001'))?.quotaBytes, null);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('screenshots: desktop and phone, light and dark, English and German', async () => {
    for (const lang of ['en', 'de'])
      for (const colorScheme of ['light', 'dark'] as const)
        for (const phone of [false, true]) {
          const context = await browser.newContext({
            colorScheme,
            locale: lang,
            ...(phone
              ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
              : { viewport: { width: 1280, height: 800 } }),
          });
          const page = await context.newPage();
          await servePage(page, srv.baseUrl, script, css);
          for (const tab of ['audit', 'accounts']) {
            await page.goto(`${srv.baseUrl}${PAGE}?tab=${tab}&lang=${lang}`);
            await page.locator(`#${tab}-rows tr`).first().waitFor();
            // A phone scrolls the table in its own box: the page itself never gets wider than the screen.
            // (innerWidth is no measure: a phone widens its layout viewport to fit what overflows.)
            const width = phone ? 390 : 1280;
            const overflow = (await page.evaluate(() => document.documentElement.scrollWidth)) - width;
            assert.ok(overflow <= 0, `${tab}: the page is ${overflow}px wider than the ${phone ? 'phone' : 'desktop'}`);
            await screenshot(page, `admin-${tab}-${phone ? 'phone' : 'desktop'}-${colorScheme}-${lang}`);
          }
          await context.close();
        }
  });
});

/**
 * The same tabs inside the console at /admin, with the break-glass token, in Chromium and Firefox:
 * End reaches the accounts tab (mounted last) from the keyboard, the audit list is filtered by action,
 * and an account's own quota is set with the keyboard and read back from the store.
 */
eachEngine('admin views in the console', [chromium, firefox], (engine) => {
  const site = useSite(engine, ENV);
  before(async () => {
    await seed(site.server);
  });

  test('End reaches the accounts tab; the audit tab filters by action; an own quota is set by keyboard', async () => {
    const page = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${site.url}/admin`);
    await page.fill('#admin-token', ADMIN_TOKEN);
    await page.press('Enter');
    await page.focus('#admin-tab-folders');
    await page.press('End');
    await page.waitFor('tr[data-account="account-ana-00000001"]');
    assert.equal(await page.attribute('#admin-tab-accounts', 'aria-selected'), 'true');
    await page.screenshot('admin-console-accounts-desktop-light-en');

    await page.click('#admin-tab-audit');
    await page.waitFor('#audit-rows tr');
    assert.equal(await page.count('#audit-rows tr'), 7);
    await page.select('#audit-action', 'folder.create');
    await page.click('#audit-apply');
    await page.waitUntil(
      `(() => { const rows = [...document.querySelectorAll('#audit-rows tr')];
        return rows.length === 5 && rows.every((r) => r.dataset.action === 'folder.create'); })()`,
    );
    await page.screenshot('admin-audit');

    await page.click('#admin-tab-accounts');
    const row = 'tr[data-account="account-bo-00000001"]';
    await page.waitFor(row);
    await page.fill(`${row} input.quota-input`, '3');
    await page.press('Enter');
    await page.waitUntil(`/bo@example\\.org/.test(document.getElementById('accounts-status')?.textContent ?? '')`);
    assert.equal((await site.server.server.services.store.usage.usage('account-bo-00000001'))?.quotaBytes, 3_000_000);
    await page.screenshot('admin-accounts');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
