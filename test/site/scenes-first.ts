import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveOwnerCredentials } from '../../src/crypto/index.js';
import { SiteClient } from '../../src/transfer/site-client.js';
import en from '../../web/src/i18n/messages/en.json' with { type: 'json' };
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.js';
import { type RunningServer, startServer } from '../support/server.js';
import { bytes, writeTemp } from './browser.js';
import { type DriverPage, FOLDER_LINK, folderIdOf, type Site } from './driver.js';
import { pdf } from './media.js';
import { optionsCutOff } from './probes.js';
import { acceptDialogs } from './scenes.js';

/**
 * A person's first minute and messages that stay true, written once for every engine (registered by
 * first-minute.test.ts for Chromium and Firefox and by webkit.test.ts for WebKit, which runs on its
 * own; Chromium's own suites check more of it: details.test.ts, true-messages.test.ts,
 * preview.test.ts): the home form's counters, its own limit message (no browser bubble) and the
 * focus after Create, 44 px preview-name buttons, a 5,000,000-byte file as "5.00 MB" as the CLI says
 * it; a folder deleted while a visitor's page is open said there without a reload; no e-mail offered
 * by a server without SMTP_URL; the PDF viewer named by the file; mode texts that fit a phone. One
 * person's page at a time (WebKitWebDriver runs one session at a time). Call inside `eachEngine`,
 * with the suite's site.
 */
export function firstMinuteScenario(site: Site): void {
  /** The owner's page of a share folder made by Create on the home page of `baseUrl`. */
  async function ownerPage(baseUrl: string): Promise<DriverPage> {
    const page = await site.browser.page();
    acceptDialogs(page);
    await page.goto(`${baseUrl}/`);
    await page.select('#new-mode', 'share');
    await page.click('button[type=submit]');
    await page.waitFor('#role[data-role="owner"]');
    return page;
  }

  test('home: counters, the limit checked by the page, focus on the heading; 44 px names; sizes in MB', async () => {
    const page = await site.browser.page();
    acceptDialogs(page);
    try {
      await page.goto(`${site.url}/`);
      await page.fill('#new-title', 'x'.repeat(195));
      assert.equal(await page.text('#new-title-count'), '195 of 200 characters');
      // A limit of 0: the page's own words beside the field, nothing made.
      await page.fill('#new-limit', '0');
      await page.click('button[type=submit]');
      await page.waitFor('#new-limit[aria-invalid="true"]');
      assert.equal(await page.text('#limit-error'), en['home.limitInvalid']);
      assert.equal(new URL(await page.url()).pathname, '/');
      await page.fill('#new-limit', '');
      await page.fill('#new-title', 'Details');
      await page.click('button[type=submit]');
      await page.waitFor('#role[data-role="owner"]');
      await page.waitUntil(`document.activeElement?.id === 'share-link'`);

      await page.pickFiles('#file-input', [await writeTemp(site.dir, 'five.bin', bytes(5_000_000, 81))]);
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
      await page.waitFor('#files button.open');
      const height = await page.evaluate<number>(
        `document.querySelector('#files button.open').getBoundingClientRect().height`,
      );
      assert.ok(height >= 44, `the preview-name button is 44 px tall (${height})`);
      // One size convention, decimal, as the CLI prints it.
      await page.waitUntil(`document.getElementById('folder-summary')?.textContent.includes('5.00 MB')`);
      await page.screenshot('details-owner');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test("a folder deleted while a visitor's page is open is said there, with no Download left", async () => {
    // The owner's page makes the folder and is closed; its owner deletes it by program while the
    // visitor's page is open (one page at a time, so that WebKit runs it too).
    const owner = await site.browser.page();
    let link: string;
    let secret: string | null;
    try {
      await owner.goto(`${site.url}/`);
      await owner.click('button[type=submit]');
      link = await owner.waitForUrl(FOLDER_LINK, 60_000);
      await owner.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });
      await owner.pickFiles('#file-input', [await writeTemp(site.dir, 'going.txt', Buffer.from('soon gone'))]);
      await owner.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
      secret = await owner.evaluate<string | null>(`localStorage.getItem('webfolder:owner:${folderIdOf(link)}')`);
      assert.ok(secret, "the owner's page keeps the owner secret");
    } finally {
      await owner.close();
    }

    const visitor = await site.browser.page();
    try {
      await visitor.goto(link);
      await visitor.waitFor('#files li button.download', { timeoutMs: 60_000 });
      const ownerToken = (await deriveOwnerCredentials(secret)).authToken;
      await new SiteClient(`${site.url}/api/site`, folderIdOf(link), { ownerToken }).deleteFolder();
      // The visitor's page learns it by its poll (it polls while it is shown): no reload.
      await visitor.show();
      await visitor.waitUntil(
        `[...document.querySelectorAll('h1')].some((h) => h.textContent === 'Folder not found')`,
        30_000,
      );
      assert.match(await visitor.text('main'), /deleted or has expired while this page was open/);
      assert.equal(await visitor.count('button.download'), 0, 'no Download button that can only fail');
      assert.deepEqual(visitor.problems, []);
    } finally {
      await visitor.close();
    }
  });

  test('no e-mail field on a server without SMTP_URL, plain words instead; offered with it', async () => {
    const page = await ownerPage(site.url);
    try {
      // Off, without mail: neither "Notifications are off" nor a "Stop" that would do nothing is shown.
      await page.waitFor('#notify-current[data-state="off"]', { state: 'attached' });
      assert.equal(await page.evaluate(`document.getElementById('notify-current').checkVisibility()`), false);
      assert.match(await page.text('#notify-no-mail'), /This server sends no e-mail/);
      assert.equal(await page.count('#notify-email'), 0, 'no address field a Save would refuse');
      assert.equal(await page.count('#notify-save'), 0);
      assert.equal(await page.count('#notify-clear'), 1, 'stopping a webhook still works');
      assert.equal(
        await page.evaluate(`document.getElementById('notify-clear').checkVisibility()`),
        false,
        'shown only while a webhook is on',
      );
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
    let smtp: SmtpReceiver | undefined;
    let mailing: RunningServer | undefined;
    try {
      smtp = await startSmtpReceiver();
      mailing = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'webfolder <noreply@example.org>' });
      const owner = await ownerPage(mailing.baseUrl);
      try {
        await owner.waitFor('#notify-email');
        assert.equal(await owner.count('#notify-no-mail'), 0, 'a server with SMTP_URL offers e-mail');
      } finally {
        await owner.close();
      }
    } finally {
      await mailing?.close();
      await smtp?.close();
    }
  });

  test("the PDF viewer is named by the file, not a blob's UUID", async () => {
    const page = await ownerPage(site.url);
    try {
      await page.pickFiles('#file-input', [await writeTemp(site.dir, 'paper.pdf', pdf('Hello PDF'))]);
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
      // The file's row is drawn by the listing's refresh after the upload ends: wait for it, then click.
      await page.waitFor('#files button.open', { timeoutMs: 60_000 });
      await page.click('#files button.open');
      await page.waitUntil(`document.getElementById('viewer-title')?.textContent === 'paper.pdf'`);
      await page.waitFor('#viewer-pdf', { state: 'attached', timeoutMs: 60_000 });
      const src = (await page.attribute('#viewer-pdf', 'src')) ?? '';
      assert.match(src, /\/media\/[0-9a-f-]{36}\/paper\.pdf$/);
      const served = await page.evaluate<{ type: string | null; disposition: string | null }>(
        `fetch(${JSON.stringify(src)}).then((r) => ({ type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition') }))`,
      );
      assert.equal(served.type, 'application/pdf');
      assert.equal(served.disposition, `inline; filename="paper.pdf"; filename*=UTF-8''paper.pdf`);
      // Not `viewer-pdf`: preview.test.ts saves Chromium's shot of its own PDF under that name.
      await page.screenshot('viewer-pdf-named', { fullPage: false });
    } finally {
      await page.close();
    }
  });

  test('each mode text (send, share, request) fits its select on a phone, in de, ko, ja and pl', async () => {
    const page = await site.browser.page({ phone: true });
    try {
      await page.goto(`${site.url}/`);
      await page.waitFor('#new-mode');
      for (const lang of ['de', 'ko', 'ja', 'pl']) {
        await page.select('#language', lang);
        await page.waitFor(`html[lang="${lang}"]`, { state: 'attached' });
        // As if 390 px wide: WebKit's MiniBrowser goes no narrower than about 447 px (the select is fluid).
        const cut = await page.evaluate<string[]>(optionsCutOff('#new-mode', 390));
        assert.deepEqual(cut, [], `${lang}: every mode's text fits the select`);
        assert.equal(await page.count('#new-mode option'), 3);
        assert.ok(await page.text('#mode-help'), `${lang}: the chosen mode is explained`);
      }
      await page.screenshot('home-phone-pl');
    } finally {
      await page.close();
    }
  });
}
