import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { SKIP, useBrowserFixture, watch } from './browser.js';
import { eachEngine, FOLDER_LINK, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';

/**
 * Messages that stay true: a password folder's share box and e-mail say the password is needed too;
 * a recipient whose page was open when the folder was taken down reads the operator's reason; the
 * notifications card of a server without mail offers no "Stop" that does nothing; a request
 * folder's owner is not offered a download limit nor told to upload; the default title is in the
 * person's language and time zone.
 */
const ADMIN_TOKEN = 'messages-stay-true-admin-token-0123456789';
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

async function made(
  ctx: BrowserContext,
  baseUrl: string,
  fill: (page: Page) => Promise<unknown>,
): Promise<{ page: Page; problems: string[] }> {
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(`${baseUrl}/`);
  await fill(page);
  await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
  await page.locator('#role[data-role="owner"]').waitFor();
  return { page, problems };
}

describe('site: messages that stay true, round two (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture({ ADMIN_TOKEN });

  test('a password folder says the password is needed too, in the share box and the e-mail', async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const { page, problems } = await made(ctx, fx.server.baseUrl, async (p) => {
      await p.locator('#new-mode').selectOption('send');
      await p.locator('#new-password').fill('tangerine tuesday');
    });
    assert.equal(
      await page.locator('#share-who').innerText(),
      'Anyone with this link and the password can download the files. Send the password another way than the link.',
    );
    const href = (await page.locator('#email-link').getAttribute('href')) ?? '';
    const body = new URLSearchParams(href.slice(href.indexOf('?') + 1)).get('body') ?? '';
    assert.match(body, /You also need the password/);
    assert.doesNotMatch(body, /anyone who has it can download them/);
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('a recipient whose page is open when the folder is taken down reads the reason', async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const { page: owner } = await made(ctx, fx.server.baseUrl, (p) => p.locator('#new-mode').selectOption('share'));
    const folderId = new URL(owner.url()).pathname.split('/').pop()!;
    const visitorCtx = await fx.browser.newContext(DESKTOP);
    const visitor = await visitorCtx.newPage();
    const problems = watch(visitor);
    await visitor.goto(owner.url());
    await visitor.locator('#role[data-role="visitor"]').waitFor();
    const res = await fetch(`${fx.server.baseUrl}/api/admin/folders/${folderId}/take-down`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'copyright', note: 'Notice 7 from the rights holder' }),
    });
    assert.equal(res.status, 200, await res.text());
    // The open page learns it by its poll, and says what a fresh visitor is told.
    await visitor.locator('#take-down').waitFor({ timeout: 30_000 });
    assert.equal(await visitor.locator('#take-down-reason').innerText(), 'Copyright infringement');
    assert.equal(await visitor.locator('#take-down-note').innerText(), 'Notice 7 from the rights holder');
    assert.doesNotMatch(await visitor.locator('main').innerText(), /deleted or has expired/);
    assert.deepEqual(problems, []);
    await Promise.all([ctx.close(), visitorCtx.close()]);
  });

  test('without mail, the notifications card offers nothing that does nothing', async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const { page, problems } = await made(ctx, fx.server.baseUrl, (p) => p.locator('#new-mode').selectOption('share'));
    await page.locator('#notify-current[data-state="off"]').waitFor({ state: 'attached' });
    assert.match(await page.locator('#notify-no-mail').innerText(), /This server sends no e-mail/);
    assert.equal(await page.locator('#notify-clear').isVisible(), false, 'no "Stop notifications" for nothing');
    assert.equal(await page.locator('#notify-current').isVisible(), false, 'no "Notifications are off" beside it');
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test("a request folder's owner: no download limit, a note to those who upload, no order to upload", async () => {
    const ctx = await fx.browser.newContext(DESKTOP);
    const home = await ctx.newPage();
    await home.goto(`${fx.server.baseUrl}/`);
    await home.locator('#new-mode').selectOption('request');
    assert.equal(await home.locator('label[for="new-note"]').innerText(), 'Note to those who upload (optional)');
    await home.close();
    const { page, problems } = await made(ctx, fx.server.baseUrl, (p) =>
      p.locator('#new-mode').selectOption('request'),
    );
    await page.locator('#owner-settings').waitFor();
    assert.equal(await page.locator('#owner-limit').count(), 0);
    assert.equal(await page.locator('#one-recipient').count(), 0);
    assert.equal(
      await page.locator('label[for="owner-note"]').innerText(),
      'Note to those who upload (encrypted like the file names)',
    );
    const deadline = await page.locator('#deadline').innerText();
    assert.match(deadline, /unless someone uploads to it/);
    assert.doesNotMatch(deadline, /Upload within/);
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});

eachEngine("the default title in the person's language and time zone", [chromium, firefox], (engine) => {
  const site = useSite(engine);

  test('a folder made without a title is named in German, at the time in Tokyo', async () => {
    const browser = await site.launch({ locale: 'de-DE', timeZone: 'Asia/Tokyo' });
    const page = await browser.page({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${site.url}/`);
    await page.waitFor('#new-title');
    const before = Date.now();
    await page.click('button[type=submit]');
    await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#role[data-role="owner"]');
    const after = Date.now();
    const title = await page.renderedText('#folder-title');
    const expected = new Set<string>();
    for (let at = before - 60_000; at <= after + 60_000; at += 30_000)
      expected.add(
        `Ordner ${new Date(at).toLocaleString('de', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' })}`,
      );
    assert.ok(expected.has(title), `"${title}" is one of ${[...expected].join(' | ')}`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
