import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  bytes,
  createFolder,
  downloadBytes,
  newContext,
  SCREENSHOTS,
  SKIP,
  screenshot,
  useBrowserFixture,
  watch,
  writeTemp,
} from './browser.js';

/**
 * The owner's page in Chromium: the home page's options (create and claim in one step), the owner's
 * controls and the visitors' view of them, each visitor in a browser context of its own.
 */
const MIB = 1024 * 1024;

async function upload(page: Page, paths: string[]): Promise<void> {
  await page.setInputFiles('#file-input', paths);
  await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
}

interface NewFolder {
  mode: 'send' | 'share' | 'request';
  title?: string;
  expiry?: string;
  limit?: string;
  password?: string;
  note?: string;
}

/** Creates a folder from the home page as a person does; resolves on its page, owned. */
async function createFromHome(page: Page, baseUrl: string, options: NewFolder): Promise<string> {
  await page.goto(`${baseUrl}/`);
  await page.locator('#new-mode').selectOption(options.mode);
  if (options.title) await page.locator('#new-title').fill(options.title);
  if (options.expiry) await page.locator('#new-expiry').selectOption(options.expiry);
  if (options.limit) await page.locator('#new-limit').fill(options.limit);
  if (options.password) await page.locator('#new-password').fill(options.password);
  if (options.note) await page.locator('#new-note').fill(options.note);
  await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
  await page.locator('#role[data-role="owner"]').waitFor();
  return page.url();
}

/** The folder's info as the server answers it to anyone (no credentials). */
async function info(baseUrl: string, link: string): Promise<Record<string, unknown>> {
  const id = /\/f\/([A-Za-z0-9_-]{16})/.exec(link)![1]!;
  const res = await fetch(`${baseUrl}/api/site/folders/${id}`);
  return (await res.json()) as Record<string, unknown>;
}

async function visitor(browser: Browser, link: string, phone = false): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = phone
    ? await browser.newContext({
        acceptDownloads: true,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      })
    : await newContext(browser);
  const page = await ctx.newPage();
  await page.goto(link);
  return { ctx, page };
}

describe('site: owner controls and what visitors see (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('home page: a one-download send folder with a note; the second visitor is refused; counts and activity', async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    const problems = watch(owner);
    await owner.goto(`${fx.server.baseUrl}/`);
    // The title field says titles are not encrypted, next to it.
    assert.match(await owner.locator('#title-help').innerText(), /not encrypted/);
    await owner.locator('#new-limit').fill('1');
    await owner.locator('#new-note').fill('The contract, signed.\nDelete after reading.');
    await screenshot(owner, 'home-options');
    const link = await createFromHome(owner, fx.server.baseUrl, {
      mode: 'send',
      title: 'One-time contract',
      limit: '1',
      expiry: '24',
      note: 'The contract, signed.\nDelete after reading.',
    });
    // Created and claimed in one step: owned before anything is uploaded, by this browser.
    const before = await info(fx.server.baseUrl, link);
    assert.equal(before.owned, true);
    assert.equal(before.maxDownloads, 1);
    assert.equal(before.createdBy, 'site');
    assert.notEqual(before.note, null);
    assert.ok(!String(before.note).includes('contract'), 'the note reaches the server encrypted');
    assert.equal(await owner.locator('#first-upload-owner').count(), 0);

    const content = bytes(2 * MIB + 7, 31);
    await upload(owner, [await writeTemp(fx.dir, 'contract.pdf', content)]);
    await owner.locator('#files li[data-file-id] button.download:not([disabled])').waitFor();
    // The share link leads the owner's page, the owner key's card (collapsed) right under it.
    assert.equal(await owner.locator('#owner-key details').getAttribute('open'), null);
    const order = await owner.evaluate(() => [...document.querySelectorAll('#main > *')].map((e) => e.id));
    assert.equal(order.indexOf('owner-key'), 2, `the owner key follows the share card (${order.join(', ')})`);

    // Visitor 1 sees the note and downloads; the file then has no download left.
    const v1 = await visitor(fx.browser, link);
    const v1Problems = watch(v1.page);
    await v1.page.locator('#note').waitFor();
    assert.equal(await v1.page.locator('#note').innerText(), 'The contract, signed.\nDelete after reading.');
    assert.match(await v1.page.locator('#folder-summary').innerText(), /1 file · 2\.10 MB · available until /);
    await v1.page.locator('#files li .count[data-left="1"]').waitFor();
    const got = await downloadBytes(v1.page, () => v1.page.locator('#files li button.download').click());
    assert.ok(got.content.equals(content), 'the first visitor gets the file');
    await v1.page.locator('#files li .count[data-left="0"]').waitFor();
    assert.deepEqual(v1Problems, []);

    // Visitor 2: the server refuses, and the page says so in the server's words.
    const v2 = await visitor(fx.browser, link);
    await v2.page.locator('#files li .count[data-left="0"]').waitFor();
    assert.equal(await v2.page.locator('#files li button.download').isDisabled(), true);
    // The summary says it once for the folder: nothing more can be downloaded.
    await v2.page.locator('#all-used-up').waitFor();
    assert.match(await v2.page.locator('#all-used-up').innerText(), /reached its download limit/);
    await screenshot(v2.page, 'folder-visitor-limit-reached');
    for (const lang of ['en', 'de'])
      for (const [size, viewport] of [
        ['desktop', { width: 1366, height: 768 }],
        ['phone', { width: 390, height: 844 }],
      ] as const)
        for (const colorScheme of ['light', 'dark'] as const) {
          await v2.page.locator('#language').selectOption(lang);
          await v2.page.setViewportSize(viewport);
          await v2.page.emulateMedia({ colorScheme });
          await v2.page.locator('#all-used-up').waitFor();
          await v2.page.screenshot({ path: join(SCREENSHOTS, `used-up-${size}-${colorScheme}-${lang}.png`) });
        }
    await v2.page.locator('#language').selectOption('en');
    // Even a page that still offers the button (loaded before the limit was used) gets the refusal.
    const stale = await visitor(fx.browser, link);
    await stale.page.locator('#files li .count').waitFor();
    await stale.page.evaluate(() => {
      const b = document.querySelector<HTMLButtonElement>('#files li button.download')!;
      b.disabled = false;
    });
    await stale.page.locator('#files li button.download').click();
    await stale.page.locator('#download-status .notice.error').waitFor();
    assert.match(await stale.page.locator('#download-status').innerText(), /Download failed: .*limit/i);

    // The owner's page counts it (live, without a reload) and lists the activity.
    await owner.locator('#files li .count[data-downloads="1"]').waitFor({ timeout: 20_000 });
    await owner.locator('#activity li[data-kind="download"]').first().waitFor({ timeout: 20_000 });
    assert.match(await owner.locator('#activity').innerText(), /Downloaded contract\.pdf/);
    assert.match(await owner.locator('#activity').innerText(), /Uploaded contract\.pdf/);
    // The owner's own downloads are not counted and not refused.
    const mine = await downloadBytes(owner, () => owner.locator('#files li button.download').click());
    assert.ok(mine.content.equals(content));
    await owner.locator('#owner-key summary').click();
    await screenshot(owner, 'folder-owner-controls');
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), v1.ctx.close(), v2.ctx.close(), stale.ctx.close()]);
  });

  test('password: the owner opens the new folder at once; a visitor is asked, a wrong one is refused', async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    const link = await createFromHome(owner, fx.server.baseUrl, {
      mode: 'share',
      title: 'Locked',
      password: 'correct horse battery staple',
      note: 'Hello there',
    });
    assert.ok((await info(fx.server.baseUrl, link)).password, 'the folder has password parameters');
    const content = bytes(5000, 41);
    await upload(owner, [await writeTemp(fx.dir, 'locked.txt', content)]);
    await owner.locator('#files li button.download:not([disabled])').waitFor();

    const v = await visitor(fx.browser, link);
    const problems = watch(v.page);
    await v.page.locator('#folder-password').waitFor();
    assert.equal(await v.page.locator('#files').count(), 0, 'nothing shown before the password');
    await screenshot(v.page, 'folder-password');
    await v.page.locator('#folder-password').fill('wrong horse');
    await v.page.locator('#unlock').click();
    await v.page.locator('#password-status .notice.error').waitFor({ timeout: 30_000 });
    assert.match(await v.page.locator('#password-status').innerText(), /Wrong password/);
    await v.page.locator('#folder-password').fill('correct horse battery staple');
    await v.page.locator('#unlock').click();
    await v.page.locator('#files li button.download:not([disabled])').waitFor({ timeout: 30_000 });
    assert.equal(await v.page.locator('#note').innerText(), 'Hello there');
    const got = await downloadBytes(v.page, () => v.page.locator('#files li button.download').click());
    assert.ok(got.content.equals(content));
    // A visitor in a share folder uploads under the same password-derived key: the owner reads it.
    await upload(v.page, [await writeTemp(fx.dir, 'reply.txt', bytes(300, 42))]);
    await owner.locator('#files li', { hasText: 'reply.txt' }).waitFor({ timeout: 20_000 });
    assert.deepEqual(problems, []);
    // After a reload the owner types the password too (the derived key is never stored).
    await owner.reload();
    await owner.locator('#folder-password').waitFor();
    await Promise.all([ownerCtx.close(), v.ctx.close()]);
  });

  test('delete a file, change the expiry (visitors see it), delete the folder', async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    owner.on('dialog', (d) => void d.accept());
    const link = await createFromHome(owner, fx.server.baseUrl, { mode: 'send', title: 'Short-lived' });
    await upload(owner, [
      await writeTemp(fx.dir, 'keep.txt', bytes(400, 51)),
      await writeTemp(fx.dir, 'drop.txt', bytes(500, 52)),
    ]);
    await owner.locator('#files li[data-file-id]').nth(1).waitFor();
    const v = await visitor(fx.browser, link);
    await v.page.locator('#files li', { hasText: 'drop.txt' }).waitFor();

    // Delete one file: gone for the owner at once, for the visitor with the next poll.
    const row = owner.locator('#files li', { hasText: 'drop.txt' });
    await row.locator('details.file-manage summary').click();
    await row.locator('button.delete-file').click();
    await owner.locator('#files li', { hasText: 'drop.txt' }).waitFor({ state: 'detached' });
    await v.page.locator('#files li', { hasText: 'drop.txt' }).waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal(await v.page.locator('#files li[data-file-id]').count(), 1);

    // Shorten the expiry to one hour: the visitor's summary shows the new date.
    await owner.locator('#owner-expiry').selectOption('1');
    // The summary line already says "available until" before the save: wait for the save itself.
    await Promise.all([
      owner.waitForResponse((r) => r.request().method() === 'PATCH' && r.ok()),
      owner.locator('#save-expiry').click(),
    ]);
    const expiresAt = (await info(fx.server.baseUrl, link)).expiresAt as number;
    assert.ok(Math.abs(expiresAt - (Date.now() + 3_600_000)) < 120_000, `expiry one hour from now: ${expiresAt}`);
    const shown = await v.page.evaluate(
      (at) => new Date(at).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }),
      expiresAt,
    );
    await v.page.locator('#folder-summary', { hasText: shown }).waitFor({ timeout: 20_000 });

    // Delete the folder: the owner's page says so, the link is dead for everyone.
    await owner.locator('#delete-folder').click();
    await owner.locator('#folder-deleted').waitFor();
    const gone = await fetch(`${fx.server.baseUrl}/api/site/folders/${/\/f\/([^#]+)/.exec(link)![1]}`);
    assert.equal(gone.status, 404);
    await v.page.reload();
    await v.page.locator('h1', { hasText: 'Folder not found' }).waitFor();
    await Promise.all([ownerCtx.close(), v.ctx.close()]);
  });

  test("the folder limit, a file's own limit and the note, changed by the owner, reach an open visitor page", async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    const problems = watch(owner);
    const link = await createFromHome(owner, fx.server.baseUrl, { mode: 'send', title: 'Limits', note: 'First note' });
    await upload(owner, [
      await writeTemp(fx.dir, 'one.txt', bytes(100, 91)),
      await writeTemp(fx.dir, 'two.txt', bytes(200, 92)),
    ]);
    const v = await visitor(fx.browser, link);
    await v.page.locator('#note', { hasText: 'First note' }).waitFor();
    await v.page.locator('#files li .count[data-left="none"]').nth(1).waitFor();

    // The folder's limit: every file of the folder gets it.
    await owner.locator('#owner-limit').fill('2');
    await owner.locator('#save-limit').click();
    await owner.locator('#owner-limit[value="2"]').waitFor();
    assert.equal((await info(fx.server.baseUrl, link)).maxDownloads, 2);
    await v.page.locator('#files li .count[data-left="2"]').nth(1).waitFor({ timeout: 20_000 });

    // A file's own limit wins over the folder's.
    const row = owner.locator('#files li', { hasText: 'two.txt' });
    await row.locator('details.file-manage summary').click();
    await row.locator('input.file-limit').fill('5');
    await row.locator('button.save-limit').click();
    await v.page
      .locator('#files li', { hasText: 'two.txt' })
      .locator('.count[data-left="5"]')
      .waitFor({ timeout: 20_000 });
    assert.equal(
      await v.page.locator('#files li', { hasText: 'one.txt' }).locator('.count').getAttribute('data-left'),
      '2',
    );
    // The field has a visible label, and its placeholder fits: desktop and phone, light and dark, en and de.
    assert.equal(await row.locator('label.file-limit-label').innerText(), 'Download limit of two.txt');
    for (const lang of ['en', 'de']) {
      await owner.locator('#language').selectOption(lang);
      for (const [size, viewport] of [
        ['desktop', { width: 1366, height: 768 }],
        ['phone', { width: 390, height: 844 }],
      ] as const)
        for (const colorScheme of ['light', 'dark'] as const) {
          await owner.setViewportSize(viewport);
          await owner.emulateMedia({ colorScheme });
          const manage = owner.locator('#files li', { hasText: 'one.txt' }).locator('details.file-manage');
          if (!(await manage.evaluate((d) => (d as HTMLDetailsElement).open))) await manage.locator('summary').click();
          const field = manage.locator('input.file-limit');
          const fits = await field.evaluate((e) => {
            const input = e as HTMLInputElement;
            const probe = document.createElement('span');
            probe.style.font = getComputedStyle(input).font;
            probe.textContent = input.placeholder;
            document.body.append(probe);
            const width = probe.getBoundingClientRect().width;
            probe.remove();
            return width <= input.clientWidth;
          });
          assert.ok(fits, `the placeholder fits the field (${lang} ${size})`);
          await manage.scrollIntoViewIfNeeded();
          await owner.screenshot({ path: join(SCREENSHOTS, `file-limit-${size}-${colorScheme}-${lang}.png`) });
        }
    }
    await owner.locator('#language').selectOption('en');
    await owner.setViewportSize({ width: 1280, height: 800 });
    await owner.emulateMedia({ colorScheme: 'light' });

    // The note, edited: saved encrypted, shown decrypted to the visitor without a reload.
    await owner.locator('#owner-note').fill('Second note, edited');
    await owner.locator('#save-note').click();
    await v.page.locator('#note', { hasText: 'Second note, edited' }).waitFor({ timeout: 20_000 });
    assert.ok(!String((await info(fx.server.baseUrl, link)).note).includes('Second'));
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), v.ctx.close()]);
  });

  test('an empty folder with a note shows the note alone: no "0 files", no greyed Download all', async () => {
    const ctx = await newContext(fx.browser);
    const owner = await ctx.newPage();
    const problems = watch(owner);
    await createFromHome(owner, fx.server.baseUrl, {
      mode: 'request',
      title: 'Send me',
      note: 'Your tax papers, please',
    });
    await owner.locator('#note', { hasText: 'Your tax papers, please' }).waitFor();
    assert.equal(await owner.locator('#folder-summary').isVisible(), false, 'no "0 files · 0 bytes"');
    assert.equal(await owner.locator('#download-all').isVisible(), false, 'no Download all with nothing in it');
    for (const lang of ['en', 'de'])
      for (const [size, viewport] of [
        ['desktop', { width: 1366, height: 768 }],
        ['phone', { width: 390, height: 844 }],
      ] as const)
        for (const colorScheme of ['light', 'dark'] as const) {
          await owner.locator('#language').selectOption(lang);
          await owner.setViewportSize(viewport);
          await owner.emulateMedia({ colorScheme });
          await owner.locator('#note').waitFor();
          await owner.screenshot({ path: join(SCREENSHOTS, `empty-note-${size}-${colorScheme}-${lang}.png`) });
        }
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('request mode from the home page: the first visitor uploads sealed, keeps a receipt; the owner sees it live', async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    const link = await createFromHome(owner, fx.server.baseUrl, { mode: 'request', title: 'Send me your reports' });
    assert.equal(await owner.locator('#new-password').count(), 0);
    const published = await info(fx.server.baseUrl, link);
    assert.equal(typeof published.ownerPublicKey, 'string', 'the owner key is published at creation');

    const v = await visitor(fx.browser, link);
    const problems = watch(v.page);
    await v.page.locator('#role[data-role="visitor"]').waitFor();
    const report = bytes(3 * MIB, 61);
    await upload(v.page, [await writeTemp(fx.dir, 'report.csv', report)]);
    await v.page.locator('#receipt li', { hasText: 'report.csv' }).waitFor();
    await v.page.reload();
    await v.page.locator('#receipt li', { hasText: 'report.csv' }).waitFor();
    assert.match(await v.page.locator('#receipt').innerText(), /3\.15 MB/);
    await screenshot(v.page, 'folder-request-receipt');
    assert.deepEqual(problems, []);

    // The owner's open page shows the visitor's file without a reload, and opens it.
    const row = owner.locator('#files li', { hasText: 'report.csv' });
    await row.locator('button.download:not([disabled])').waitFor({ timeout: 20_000 });
    const got = await downloadBytes(owner, () => row.locator('button.download').click());
    assert.ok(got.content.equals(report));
    await Promise.all([ownerCtx.close(), v.ctx.close()]);
  });

  test('an API-made folder: "whoever uploads first becomes the owner", no share card until owned', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'share', 'Made by a script');
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await page.locator('#first-upload-owner').waitFor();
    assert.match(await page.locator('#first-upload-owner').innerText(), /Whoever uploads first becomes the owner/);
    assert.equal(await page.locator('#share-link').count(), 0, 'no share card before the folder is owned');
    await screenshot(page, 'folder-api-unclaimed');
    await upload(page, [await writeTemp(fx.dir, 'first.txt', bytes(100, 71))]);
    await page.locator('#role[data-role="owner"]').waitFor();
    assert.equal(await page.locator('#first-upload-owner').count(), 0);
    await page.locator('#share-link').waitFor();
    await ctx.close();
  });

  test('the share card sends the share link by e-mail (mailto:) and through the share sheet where there is one', async () => {
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    const problems = watch(page);
    await createFromHome(page, fx.server.baseUrl, { mode: 'send', title: 'Board pack' });
    const shareLink = await page.locator('#share-link').inputValue();
    const ownerLink = await page.locator('#owner-link').inputValue();
    const mail = new URL((await page.locator('#email-link').getAttribute('href'))!);
    assert.equal(mail.protocol, 'mailto:');
    assert.equal(mail.pathname, '', 'no recipient: the person picks them in their mail app');
    assert.equal(mail.searchParams.get('subject'), 'Files for you: Board pack');
    const body = mail.searchParams.get('body')!;
    assert.ok(body.includes(shareLink), `the body holds the whole share link, key included: ${body}`);
    assert.ok(!body.includes(ownerLink.split('#')[1]!), 'never the owner key');
    // Linux Chromium has no share sheet (navigator.share): then no button either.
    const hasSheet = await page.evaluate(() => typeof navigator.share === 'function');
    assert.equal(await page.locator('#share-sheet').count(), hasSheet ? 1 : 0);
    assert.deepEqual(problems, []);

    // Where the browser has a sheet (phones, Windows, macOS): headless Linux Chromium has none, so a
    // page script stands in for the system's sheet and records what the page hands it.
    const phoneCtx = await newContext(fx.browser, true);
    // A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
    await phoneCtx.addInitScript(`
      window.shared = [];
      Object.defineProperty(navigator, 'share', {
        value: async (data) => {
          window.shared.push(data);
          // The second time the person closes the sheet: not a failure.
          if (window.shared.length > 1) throw new DOMException('closed', 'AbortError');
        },
      });
    `);
    const phone = await phoneCtx.newPage();
    const phoneProblems = watch(phone);
    await phone.goto(ownerLink);
    await phone.locator('#role[data-role="owner"]').waitFor();
    await phone.locator('#share-sheet').click();
    await phone.waitForFunction(() => (window as unknown as { shared: ShareData[] }).shared.length === 1);
    const shared = await phone.evaluate(() => (window as unknown as { shared: ShareData[] }).shared[0]!);
    assert.deepEqual(shared, { title: 'Board pack', url: shareLink });
    await phone.locator('#share-sheet').click();
    await phone.waitForFunction(() => (window as unknown as { shared: ShareData[] }).shared.length === 2);
    assert.doesNotMatch(await phone.locator('#live').innerText(), /Sharing failed/, 'closing the sheet is no failure');
    await screenshot(phone, 'share-ways-phone');
    assert.deepEqual(phoneProblems, []);

    // A request folder asks for files.
    const request = await ctx.newPage();
    await createFromHome(request, fx.server.baseUrl, { mode: 'request', title: 'Tax papers' });
    const ask = new URL((await request.locator('#email-link').getAttribute('href'))!);
    assert.equal(ask.searchParams.get('subject'), 'Please upload your files: Tax papers');
    assert.match(ask.searchParams.get('body')!, /^Upload your files here:\n/);
    await Promise.all([ctx.close(), phoneCtx.close()]);
  });

  test('a visitor on a 390x844 phone sees count, size, expiry, note and Download all on the first screen', async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    const link = await createFromHome(owner, fx.server.baseUrl, {
      mode: 'send',
      title: 'Photos from the weekend at the lake',
      note: 'All the photos from Saturday and Sunday. The big ones are the panoramas.',
    });
    const paths = await Promise.all(
      ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'].map((n, i) => writeTemp(fx.dir, n, bytes(20_000 + i, 80 + i))),
    );
    await upload(owner, paths);
    const v = await visitor(fx.browser, link, true);
    const problems = watch(v.page);
    await v.page.locator('#download-all:not([disabled])').waitFor();
    await v.page.locator('#note').waitFor();
    for (const id of ['#folder-summary', '#note', '#download-all']) {
      const box = await v.page.locator(id).boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `${id} on the first screen: ${JSON.stringify(box)}`);
    }
    assert.match(await v.page.locator('#folder-summary').innerText(), /4 files · .* · available until /);
    // The owner on the same phone (the owner key opened there): the share link and the key's
    // (collapsed) card are on the first screen.
    const phoneOwner = await visitor(fx.browser, await owner.locator('#owner-link').inputValue(), true);
    await phoneOwner.page.locator('#role[data-role="owner"]').waitFor();
    for (const id of ['#copy-link', '#owner-key']) {
      const box = await phoneOwner.page.locator(id).boundingBox();
      assert.ok(box && box.y + box.height <= 844, `${id} on the first screen: ${JSON.stringify(box)}`);
    }
    await screenshot(phoneOwner.page, 'folder-owner-phone');
    await phoneOwner.ctx.close();
    const width = await v.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no horizontal scrolling (scrollWidth ${width})`);
    await v.page.screenshot({ path: join(SCREENSHOTS, 'folder-visitor-phone-first-screen.png') });
    await screenshot(v.page, 'folder-visitor-phone');
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), v.ctx.close()]);
  });
});
