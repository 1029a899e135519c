import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fillProviderLogin, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { until } from '../support/poll.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';
import { launch, SKIP, screenshot, watch } from './browser.js';

/**
 * "My folders" (issue 26) in Chromium, signed in through a real OpenID provider on loopback
 * (test/support/oidc.ts): a folder made on the home page in one browser context is listed at /me in
 * another context of the same person (a phone), and controlled there (limit, expiry, delete) with
 * effect on the server; another person's list does not show it; signed out, the page offers sign-in.
 * Keyboard, a 390×844 phone, light and dark, English and German (screenshots me-*).
 */
let oidc: OidcFixture;
let server: RunningServer;
let browser: Browser;
let base: string;

before(async () => {
  if (SKIP) return;
  const port = await freePort();
  oidc = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
  server = await startServer({ ...oidc.serverEnv(), MAX_EXPIRES_HOURS: '720' }, { port });
  base = server.baseUrl;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await oidc?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

async function context(options: {
  phone?: boolean;
  dark?: boolean;
  language?: string;
}): Promise<{ ctx: BrowserContext; page: Page; problems: string[] }> {
  const ctx = await browser.newContext({
    ...(options.phone ? PHONE : { viewport: { width: 1280, height: 800 } }),
    colorScheme: options.dark ? 'dark' : 'light',
  });
  if (options.language) await ctx.addInitScript((l) => localStorage.setItem('webfolder:language', l), options.language);
  const page = await ctx.newPage();
  return { ctx, page, problems: watch(page) };
}

/** Signs `login` in through the provider's own form and comes back to `path`. */
async function signIn(page: Page, login: string, path: string): Promise<void> {
  await page.goto(`${base}/auth/login?return=${encodeURIComponent(path)}`);
  await fillProviderLogin(page, login);
  await page.waitForURL(`${base}${path}`);
}

/** The folder's info as the server answers it to anyone. */
async function info(folderId: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/site/folders/${folderId}`);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('My folders', { skip: SKIP }, () => {
  test('My folders across two browser contexts: made in one, listed and controlled in the other', async () => {
    // Desktop: Alice signs in and makes a folder on the home page.
    const desk = await context({});
    await signIn(desk.page, 'alice', '/');
    await desk.page.locator('#new-mode').selectOption('send');
    await desk.page.locator('#new-title').fill('Across two browsers');
    await Promise.all([
      desk.page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/),
      desk.page.locator('button[type=submit]').click(),
    ]);
    await desk.page.locator('#role[data-role="owner"]').waitFor();
    const folderId = /\/f\/([A-Za-z0-9_-]{16})/.exec(desk.page.url())![1]!;
    const link = desk.page.url();

    // Phone: signed out, /me says what it is for and offers sign-in, which comes back here.
    const phone = await context({ phone: true });
    await phone.page.goto(`${base}/me`);
    await phone.page.locator('#me-signed-out').waitFor();
    await screenshot(phone.page, 'me-signed-out-phone');
    await phone.page.locator('#me-sign-in').click();
    await fillProviderLogin(phone.page, 'alice');
    await phone.page.waitForURL(`${base}/me`);
    const row = phone.page.locator(`li[data-folder="${folderId}"]`);
    await row.waitFor();
    assert.equal(await row.locator('h2').innerText(), 'Across two browsers');
    assert.equal(await row.locator('[data-state]').getAttribute('data-state'), 'empty');
    // The page says that opening needs the link; it offers no link of its own (the key is not here).
    assert.match(await phone.page.locator('#me-key-note').innerText(), /link/);
    assert.equal(await phone.page.locator(`a[href*="${folderId}"]`).count(), 0);
    assert.ok(!(await phone.page.content()).includes(link.split('#')[1]!), 'no key anywhere on the page');
    // Fits the phone: no horizontal scrolling.
    assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));

    // Keyboard: from the order select, Tab reaches the folder's Manage, Enter opens it.
    await phone.page.locator('#me-sort').focus();
    await phone.page.keyboard.press('Tab');
    assert.equal(await phone.page.evaluate(() => document.activeElement?.tagName), 'SUMMARY');
    await phone.page.keyboard.press('Enter');
    const manage = phone.page.locator(`#me-${folderId}-manage`);
    assert.equal(await manage.evaluate((d) => (d as HTMLDetailsElement).open), true);
    await phone.page.keyboard.press('Tab');
    assert.equal(await phone.page.evaluate(() => document.activeElement?.id), `me-${folderId}-expiry`);

    // The limit, set on the phone, is the folder's on the server and on the desktop's page.
    await phone.page.locator(`#me-${folderId}-limit`).fill('2');
    await phone.page.locator(`#me-${folderId}-set-limit`).click();
    await phone.page.locator(`#me-${folderId}-status .notice.ok`).waitFor();
    assert.equal((await info(folderId)).json.maxDownloads, 2);
    await desk.page.reload();
    await desk.page.locator('#role[data-role="owner"]').waitFor();
    assert.equal(await desk.page.locator('#owner-limit').inputValue(), '2');
    // The expiry: 7 days from now.
    const before = Date.now();
    await phone.page.locator(`#me-${folderId}-expiry`).selectOption('168');
    await phone.page.locator(`#me-${folderId}-set-expiry`).click();
    // The limit's "saved" notice may still be on screen: wait for the server to hold the new expiry.
    const expiresAt = await until('the new expiry on the server', async () => {
      const at = (await info(folderId)).json.expiresAt as number;
      return at >= before + 168 * 3_600_000 ? at : undefined;
    });
    assert.ok(expiresAt <= Date.now() + 168 * 3_600_000);
    await phone.page.locator(`#me-${folderId}-status .notice.ok`).waitFor();
    // Notifications: the folder page's own control, read for this folder.
    await phone.page.locator(`#me-${folderId}-notify-current[data-state="off"]`).waitFor();
    // The API-keys panel below the list: a key made here lists the same folders to a program.
    await phone.page.locator('#me-keys #key-name').fill('laptop script');
    await phone.page.locator('#me-keys #key-create').click();
    const key = await phone.page.locator('#key-value').inputValue();
    const byKey = await fetch(`${base}/api/account/folders`, { headers: { authorization: `Bearer ${key}` } });
    const listed = (await byKey.json()) as { folders: { folderId: string }[] };
    assert.deepEqual(
      listed.folders.map((f) => f.folderId),
      [folderId],
    );
    await screenshot(phone.page, 'me-list-phone-light-en');

    // Bob, signed in elsewhere, has his own (empty) list.
    const bob = await context({ dark: true, language: 'de' });
    await signIn(bob.page, 'bob', '/me');
    await bob.page.locator('#me-empty').waitFor();
    assert.equal(await bob.page.locator(`li[data-folder="${folderId}"]`).count(), 0);
    await screenshot(bob.page, 'me-empty-desktop-dark-de');

    // Screenshots of the list: desktop light/dark in English and German, phone dark.
    for (const [name, options] of [
      ['me-list-desktop-light-en', {}],
      ['me-list-desktop-dark-de', { dark: true, language: 'de' }],
      ['me-list-phone-dark-de', { phone: true, dark: true, language: 'de' }],
      ['me-list-desktop-dark-en', { dark: true }],
    ] as const) {
      const view = await context(options);
      await signIn(view.page, 'alice', '/me');
      await view.page.locator(`li[data-folder="${folderId}"]`).waitFor();
      await view.page.locator(`#me-${folderId}-manage summary`).click();
      await view.page.locator(`#me-${folderId}-notify-current[data-state="off"]`).waitFor();
      await screenshot(view.page, name);
      assert.deepEqual(view.problems, []);
      await view.ctx.close();
    }

    // Deleted on the phone: gone from the list, the server and the desktop's open page.
    phone.page.once('dialog', (dialog) => void dialog.accept());
    await phone.page.locator(`#me-${folderId}-delete`).click();
    await row.waitFor({ state: 'detached' });
    assert.equal(await phone.page.evaluate(() => document.activeElement?.id), 'me-title');
    await phone.page.locator('#me-empty').waitFor();
    assert.equal((await info(folderId)).status, 404);
    await desk.page.locator('#error').waitFor({ timeout: 30_000 });

    for (const c of [desk, phone, bob]) {
      assert.deepEqual(c.problems, []);
      await c.ctx.close();
    }
  });
});
