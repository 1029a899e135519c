import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { until } from '../support/poll.js';
import { freePort } from '../support/server.js';
import { type DriverPage, eachEngine, FOLDER_LINK, folderIdOf, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';

/**
 * "My folders", signed in through a real OpenID provider on loopback (test/support/oidc.ts): a folder
 * made on the home page in one browser context is listed at /me in another context of the same
 * person (a phone), and controlled there (limit, expiry, delete) with effect on the server; another
 * person's list does not show it; signed out, the page offers sign-in. Keyboard, a 390×844 phone, and
 * English and German in Chromium and Firefox; light and dark in Chromium (screenshots me-*), where a
 * colour scheme can be set for one context.
 */
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

eachEngine('My folders', [chromium, firefox], (engine) => {
  let oidc: OidcFixture | undefined;
  const site = useSite(engine, async () => {
    const port = await freePort();
    oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
    return { env: { ...oidc.serverEnv(), MAX_EXPIRES_HOURS: '720' }, port };
  });
  after(async () => {
    await oidc?.stop();
  });
  const dark = engine.name === 'chromium';

  async function context(options: { phone?: boolean; dark?: boolean; language?: string }): Promise<DriverPage> {
    const page = await site.browser.page({
      ...(options.phone ? { phone: true } : { viewport: { width: 1280, height: 800 } }),
      ...(dark ? { colorScheme: options.dark ? 'dark' : 'light' } : {}),
    });
    if (options.language) {
      await page.goto(`${site.url}/`);
      await page.evaluate(`localStorage.setItem('webfolder:language', ${JSON.stringify(options.language)})`);
    }
    return page;
  }

  /** Signs `login` in through the provider's own form. */
  async function providerLogin(page: DriverPage, login: string): Promise<void> {
    await page.waitFor('input[name="login"]', { timeoutMs: 30_000 });
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', 'any password');
    await page.click('button[type="submit"]');
  }

  /** Signs `login` in and comes back to `path`. */
  async function signIn(page: DriverPage, login: string, path: string): Promise<void> {
    await page.goto(`${site.url}/auth/login?return=${encodeURIComponent(path)}`);
    await providerLogin(page, login);
    await page.waitForUrl(new RegExp(`^${escapeRegExp(`${site.url}${path}`)}$`));
  }

  /** The folder's info as the server answers it to anyone. */
  async function info(folderId: string): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${site.url}/api/site/folders/${folderId}`);
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  test('My folders across two browser contexts: made in one, listed and controlled in the other', async () => {
    const base = site.url;
    // Desktop: Alice signs in and makes a folder on the home page.
    const desk = await context({});
    await signIn(desk, 'alice', '/');
    await desk.select('#new-mode', 'send');
    await desk.fill('#new-title', 'Across two browsers');
    await desk.click('button[type=submit]');
    const link = await desk.waitForUrl(FOLDER_LINK);
    await desk.waitFor('#role[data-role="owner"]');
    const folderId = folderIdOf(link);

    // Phone: signed out, /me says what it is for and offers sign-in, which comes back here.
    const phone = await context({ phone: true });
    await phone.goto(`${base}/me`);
    await phone.waitFor('#me-signed-out');
    await phone.screenshot('me-signed-out-phone');
    await phone.click('#me-sign-in');
    await providerLogin(phone, 'alice');
    await phone.waitForUrl(new RegExp(`^${escapeRegExp(`${base}/me`)}$`));
    const row = `li[data-folder="${folderId}"]`;
    await phone.waitFor(row);
    assert.equal(await phone.renderedText(`${row} h2`), 'Across two browsers');
    assert.equal(await phone.attribute(`${row} [data-state]`, 'data-state'), 'empty');
    // The page says that opening needs the link; it offers no link of its own (the key is not here).
    assert.match(await phone.renderedText('#me-key-note'), /link/);
    assert.equal(await phone.count(`a[href*="${folderId}"]`), 0);
    const html = await phone.evaluate<string>('document.documentElement.outerHTML');
    assert.ok(!html.includes(link.split('#')[1]!), 'no key anywhere on the page');
    // Fits the phone: no horizontal scrolling.
    assert.ok(await phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth'));

    // Keyboard: from the order select, Tab reaches the folder's Manage, Enter opens it.
    await phone.focus('#me-sort');
    await phone.press('Tab');
    assert.equal(await phone.evaluate('document.activeElement?.tagName'), 'SUMMARY');
    await phone.press('Enter');
    assert.equal(await phone.evaluate(`document.getElementById('me-${folderId}-manage').open`), true);
    await phone.press('Tab');
    assert.equal(await phone.evaluate('document.activeElement?.id'), `me-${folderId}-expiry`);

    // The limit, set on the phone, is the folder's on the server and on the desktop's page.
    await phone.fill(`#me-${folderId}-limit`, '2');
    await phone.click(`#me-${folderId}-set-limit`);
    await phone.waitFor(`#me-${folderId}-status .notice.ok`);
    assert.equal((await info(folderId)).json.maxDownloads, 2);
    await desk.reload();
    await desk.waitFor('#role[data-role="owner"]');
    assert.equal(await desk.value('#owner-limit'), '2');
    // The expiry: 7 days from now.
    const before = Date.now();
    await phone.select(`#me-${folderId}-expiry`, '168');
    await phone.click(`#me-${folderId}-set-expiry`);
    // The limit's "saved" notice may still be on screen: wait for the server to hold the new expiry.
    const expiresAt = await until('the new expiry on the server', async () => {
      const at = (await info(folderId)).json.expiresAt as number;
      return at >= before + 168 * 3_600_000 ? at : undefined;
    });
    assert.ok(expiresAt <= Date.now() + 168 * 3_600_000);
    await phone.waitFor(`#me-${folderId}-status .notice.ok`);
    // Notifications: the folder page's own control, read for this folder (its line is hidden while
    // off on a server that sends no e-mail, as this one).
    await phone.waitFor(`#me-${folderId}-notify-current[data-state="off"]`, { state: 'attached' });
    // The API-keys panel below the list: a key made here lists the same folders to a program.
    await phone.fill('#me-keys #key-name', 'laptop script');
    await phone.click('#me-keys #key-create');
    await phone.waitFor('#key-value');
    const key = await phone.value('#key-value');
    const byKey = await fetch(`${base}/api/account/folders`, { headers: { authorization: `Bearer ${key}` } });
    const listed = (await byKey.json()) as { folders: { folderId: string }[] };
    assert.deepEqual(
      listed.folders.map((f) => f.folderId),
      [folderId],
    );
    await phone.screenshot('me-list-phone-light-en');

    // Bob, signed in elsewhere, has his own (empty) list.
    const bob = await context({ dark: true, language: 'de' });
    await signIn(bob, 'bob', '/me');
    await bob.waitFor('#me-empty');
    assert.equal(await bob.count(`li[data-folder="${folderId}"]`), 0);
    await bob.screenshot(dark ? 'me-empty-desktop-dark-de' : 'me-empty-desktop-light-de');

    // Screenshots of the list: desktop light/dark in English and German, phone dark.
    for (const [name, options] of [
      ['me-list-desktop-light-en', {}],
      ['me-list-desktop-dark-de', { dark: true, language: 'de' }],
      ['me-list-phone-dark-de', { phone: true, dark: true, language: 'de' }],
      ['me-list-desktop-dark-en', { dark: true }],
    ] as const) {
      if (!dark && 'dark' in options) continue;
      const view = await context(options);
      await signIn(view, 'alice', '/me');
      await view.waitFor(`li[data-folder="${folderId}"]`);
      await view.click(`#me-${folderId}-manage summary`);
      await view.waitFor(`#me-${folderId}-notify-current[data-state="off"]`, { state: 'attached' });
      await view.screenshot(name);
      assert.deepEqual(view.problems, []);
      await view.close();
    }

    // Deleted on the phone: gone from the list, the server and the desktop's open page.
    phone.onDialog('accept');
    await phone.click(`#me-${folderId}-delete`);
    await phone.waitFor(row, { state: 'detached' });
    assert.equal(await phone.evaluate('document.activeElement?.id'), 'me-title');
    await phone.waitFor('#me-empty');
    assert.equal((await info(folderId)).status, 404);
    await desk.show();
    await desk.waitFor('#error', { timeoutMs: 30_000 });

    for (const c of [desk, phone, bob]) {
      assert.deepEqual(c.problems, []);
      await c.close();
    }
  });
});
