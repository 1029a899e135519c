import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createEmpty } from '../support/api.js';
import { MISSING, SKIP, shot, useFirefox } from './firefox.js';

/**
 * The admin console (web/src/views/admin*.ts) in the stock Firefox ESR over WebDriver BiDi: the token
 * form, a take-down through the dialog by keyboard, the tabs by arrow keys, and the visitor's notice.
 */
const ADMIN_TOKEN = 'admin-console-firefox-token-0123456789ab';

describe('admin console in Firefox', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useFirefox('webfolder-firefox-admin-', { ADMIN_TOKEN, RATE_LIMIT_SITE: '100000' });
  let folderId = '';

  before(async () => {
    folderId = (await createEmpty(suite.url, { title: 'Firefox folder', mode: 'share' })).folderId;
  });

  test('token, take-down by keyboard, tabs by arrows; the visitor reads why', async () => {
    const { firefox, server } = suite;
    const page = await firefox.page();
    try {
      await page.goto(`${server.baseUrl}/admin`);
      await page.waitForSelector('#admin-token');
      await page.type('#admin-token', ADMIN_TOKEN);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`tr[data-folder="${folderId}"]`);
      await page.focus(`tr[data-folder="${folderId}"] button[data-action="take-down"]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector('dialog.admin-dialog[open]');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'take-down-reason-choice');
      await page.select('#take-down-reason-choice', 'malware');
      await page.focus('#take-down-note-input');
      await page.keyboard.type('Reported by the CERT');
      await shot(page, 'admin-take-down-dialog-firefox');
      await page.focus('#take-down-confirm');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        (id) => document.querySelector(`tr[data-folder="${id}"]`)?.textContent?.includes('Taken down'),
        {},
        folderId,
      );
      await page.focus('#admin-tab-folders');
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('#admin-stats dt');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'admin-tab-stats');
      await shot(page, 'admin-stats-firefox');
    } finally {
      await page.browserContext().close();
    }
    const visitor = await firefox.page();
    try {
      await visitor.goto(`${server.baseUrl}/f/${folderId}#c2VjcmV0`);
      await visitor.waitForSelector('#take-down');
      assert.equal(await visitor.$eval('#take-down-reason', (e) => e.textContent), 'Malware');
      assert.equal(await visitor.$eval('#take-down-note', (e) => e.textContent), 'Reported by the CERT');
      await shot(visitor, 'take-down-visitor-firefox');
    } finally {
      await visitor.browserContext().close();
    }
  });
});
