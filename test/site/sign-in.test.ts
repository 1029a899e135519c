import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { fillProviderLogin, type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';
import { launch, newContext, SKIP, screenshot, watch } from './browser.js';
import { eachEngine, useSite } from './driver.js';
import { firefox } from './driver-firefox.js';
import { signInAtProvider } from './scenes.js';

/**
 * Sign-in on the site through the real OpenID provider (test/support/oidc.ts), in Chromium and in
 * Firefox: "Sign in" in the header, the provider's login form, back with the account menu; the API
 * keys page (a key shown once, listed, revoked); sign-out; a person the claim rule refuses is told so.
 */
let provider: OidcFixture;
let server: RunningServer;

before(async () => {
  const port = await freePort();
  provider = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
  server = await startServer(provider.serverEnv(), { port });
});
after(async () => {
  await server?.close();
  await provider?.stop();
});

describe('sign-in in Chromium', { skip: SKIP }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  test('sign in, make and revoke an API key, sign out', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.baseUrl}/`);
    await page.click('#account-menu');
    await fillProviderLogin(page, 'alice');
    await page.waitForSelector('details#account-menu summary');
    assert.equal((await page.textContent('details#account-menu summary'))?.trim(), 'Alice Example');
    const session = (await context.cookies()).find((c) => c.name === 'wf_session');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(session?.sameSite, 'Lax');
    await screenshot(page, 'signin-home-signed-in');

    await page.click('details#account-menu summary');
    await page.click('#account-keys-link');
    await page.waitForSelector('#key-name');
    await page.fill('#key-name', 'laptop');
    await page.click('#key-create');
    await page.waitForSelector('#key-value');
    const key = await page.inputValue('#key-value');
    assert.match(key, /^wfk_[A-Za-z0-9_-]{43}$/);
    await page.waitForSelector('.key-row strong');
    assert.equal(await page.textContent('.key-row strong'), 'laptop');
    await screenshot(page, 'signin-api-keys');
    // The key works, then is revoked from the page.
    const who = await fetch(`${server.baseUrl}/api/account`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(((await who.json()) as { account: { email: string } }).account.email, 'alice@example.com');
    await page.click('.key-row button');
    await page.waitForSelector('#keys-list li.muted');
    const after = await fetch(`${server.baseUrl}/api/account`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(after.status, 401);

    await page.click('details#account-menu summary');
    await page.click('#sign-out');
    await page.waitForSelector('a#account-menu');
    assert.equal((await page.textContent('a#account-menu'))?.trim(), 'Sign in');
    assert.equal(
      (await context.cookies()).find((c) => c.name === 'wf_session'),
      undefined,
    );
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a person the claim rule refuses is told so, in their language, and stays signed out', async () => {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.click('#account-menu');
    await fillProviderLogin(page, 'eve');
    await page.waitForSelector('#signin-outcome');
    assert.match((await page.textContent('#signin-outcome')) ?? '', /Anmeldung Ihrer Organisation/);
    assert.equal(new URL(page.url()).search, '', 'the outcome leaves the address bar');
    assert.ok(await page.$('a#account-menu'), 'still signed out');
    await screenshot(page, 'signin-refused-de-phone');
    await context.close();
  });
});

eachEngine('sign-in', [firefox], (engine) => {
  let ffProvider: OidcFixture | undefined;
  const site = useSite(engine, async () => {
    const port = await freePort();
    ffProvider = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
    return { env: ffProvider.serverEnv(), port };
  });
  after(() => ffProvider?.stop());

  test('sign in and sign out', async () => {
    const page = await site.browser.page();
    try {
      await page.goto(`${site.url}/`);
      await page.click('a#account-menu');
      await signInAtProvider(page, 'root');
      await page.waitFor('details#account-menu summary');
      assert.equal((await page.text('details#account-menu summary')).trim(), 'Root Admin');
      await page.screenshot('signin-signed-in');
      await page.click('details#account-menu summary');
      await page.click('#sign-out');
      await page.waitFor('a#account-menu');
      const who = await page.evaluate<{ account: unknown }>(`fetch('/api/account').then((r) => r.json())`);
      assert.equal(who.account, null);
    } finally {
      await page.close();
    }
  });
});
