import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { hashToken, newId, newToken } from '../../src/domain/ids.js';
import { createEmpty, postJson } from '../support/api.js';
import { MISSING, SKIP, shot, useFirefox } from './firefox.js';

/**
 * The console's audit and accounts tabs (web/src/views/admin-audit.ts, admin-accounts.ts) in Firefox,
 * through the console at /admin with the break-glass token: the audit list filtered by action, and
 * an account's own quota set with the keyboard and read back from the store.
 */
const ADMIN_TOKEN = 'admin-views-firefox-token-0123456789abcdef';

describe('admin views in Firefox', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useFirefox('webfolder-firefox-admin-', {
    ADMIN_TOKEN,
    QUOTA_ACCOUNT_MIB: '10',
    DISK_FREE_MIN_MIB: '0',
  });
  const accountId = 'account-firefox-0001';

  before(async () => {
    const { server } = suite;
    for (let i = 0; i < 2; i++) await createEmpty(server.baseUrl);
    const accounts = server.server.services.store.accounts;
    await accounts.signIn({
      newId: accountId,
      issuer: 'https://idp.example',
      subject: 'fx',
      email: 'fx@example.org',
      name: null,
      admin: false,
      now: Date.now(),
    });
    const key = `wfk_${newToken().padEnd(43, 'A').slice(0, 43)}`;
    await accounts.createApiKey({ id: newId(), accountId, name: 'ci', hash: hashToken(key), createdAt: 1 });
    const made = await postJson(
      `${server.baseUrl}/v2/folders`,
      { encryption: { ske: 's' }, files: [{ filename: 'f', filesize: 1024 * 1024 }] },
      { authorization: `Bearer ${key}` },
    );
    assert.equal(made.status, 200);
  });

  test('the audit tab filters by action; the accounts tab sets an own quota', async () => {
    const { firefox, server } = suite;
    const page = await firefox.page();
    try {
      await page.goto(`${server.baseUrl}/admin`);
      await page.waitForSelector('#admin-token');
      await page.type('#admin-token', ADMIN_TOKEN);
      await page.keyboard.press('Enter');
      await page.waitForSelector('#admin-tab-audit');
      await page.click('#admin-tab-audit');
      await page.waitForSelector('#audit-rows tr');
      assert.equal(await page.$$eval('#audit-rows tr', (rows) => rows.length), 3);
      await page.select('#audit-action', 'folder.create');
      await page.click('#audit-apply');
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLElement>('#audit-rows tr')].every(
          (r) => r.dataset.action === 'folder.create',
        ),
      );
      await shot(page, 'admin-audit');

      await page.click('#admin-tab-accounts');
      const row = `tr[data-account="${accountId}"]`;
      await page.waitForSelector(row);
      await page.type(`${row} input.quota-input`, '3');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() =>
        /fx@example\.org/.test(document.getElementById('accounts-status')?.textContent ?? ''),
      );
      assert.equal((await server.server.services.store.usage.usage(accountId))?.quotaBytes, 3_000_000);
      await shot(page, 'admin-accounts');
    } finally {
      await page.browserContext().close();
    }
  });
});
