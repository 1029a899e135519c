import assert from 'node:assert/strict';
import { test } from 'node:test';
import en from '../../web/src/i18n/messages/en.json' with { type: 'json' };
import { until } from '../support/poll.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.js';
import { type RunningServer, startServer } from '../support/server.js';
import { bytes, writeTemp } from './browser.js';
import { type DriverPage, eachEngine, useGatedSite, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { pdf } from './media.js';
import { optionsCutOff } from './probes.js';

/**
 * A person's first minute and messages that stay true, in Chromium and Firefox (Chromium's own
 * suites check more of it: details.test.ts, true-messages.test.ts, preview.test.ts): the home
 * form's counters, its own limit message (no browser bubble) and the focus after Create, 44 px
 * preview-name buttons, a 5,000,000-byte file as "5.00 MB" as the CLI says it; a folder deleted
 * while a visitor's page is open said there without a reload; no e-mail offered by a server without
 * SMTP_URL; the PDF viewer named by the file; mode texts that fit a phone; the "did not finish" note
 * after a reload, gone while that upload resumes.
 */
eachEngine('site: the first minute and true messages', [chromium, firefox], (engine) => {
  const site = useSite(engine);

  /** The owner's page of a share folder made by Create on the home page of `baseUrl`. */
  async function ownerPage(baseUrl: string): Promise<DriverPage> {
    const page = await site.browser.page();
    page.onDialog('accept');
    await page.goto(`${baseUrl}/`);
    await page.select('#new-mode', 'share');
    await page.click('button[type=submit]');
    await page.waitFor('#role[data-role="owner"]');
    return page;
  }

  test('home: counters, the limit checked by the page, focus on the heading; 44 px names; sizes in MB', async () => {
    const page = await site.browser.page();
    page.onDialog('accept');
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
    const owner = await site.browser.page();
    owner.onDialog('accept');
    const visitor = await site.browser.page();
    try {
      await owner.goto(`${site.url}/`);
      await owner.click('button[type=submit]');
      await owner.waitFor('#role[data-role="owner"]');
      await owner.pickFiles('#file-input', [await writeTemp(site.dir, 'going.txt', Buffer.from('soon gone'))]);
      await owner.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });

      await visitor.goto(await owner.url());
      await visitor.waitFor('#files li button.download');
      await owner.click('#delete-folder');
      await owner.waitFor('#folder-deleted');
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
      await owner.close();
    }
  });

  test('no e-mail field on a server without SMTP_URL, plain words instead; offered with it', async () => {
    const page = await ownerPage(site.url);
    try {
      await page.waitFor('#notify-current[data-state="off"]', { state: 'attached' });
      assert.match(await page.text('#notify-no-mail'), /This server sends no e-mail/);
      assert.equal(await page.count('#notify-email'), 0, 'no address field a Save would refuse');
      assert.equal(await page.count('#notify-save'), 0);
      assert.equal(await page.count('#notify-clear'), 1, 'stopping a webhook still works');
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
        const cut = await page.evaluate<string[]>(optionsCutOff('#new-mode'));
        assert.deepEqual(cut, [], `${lang}: every mode's text fits the select`);
        assert.equal(await page.count('#new-mode option'), 3);
        assert.ok(await page.text('#mode-help'), `${lang}: the chosen mode is explained`);
      }
      await page.screenshot('home-phone-pl');
    } finally {
      await page.close();
    }
  });
});

/**
 * Through the gate (test/support/gate.ts) in front of the server: the "did not finish" note shown
 * after a reload goes while that upload resumes.
 */
eachEngine('site: the "did not finish" note', [chromium, firefox], (engine) => {
  const site = useGatedSite(engine);

  test('after a reload the note names the file; it goes while that upload resumes', async () => {
    const { dir, gate } = site;
    const uploads = (req: { url?: string }) => (req.url ?? '').startsWith('/v2/uploads');
    const path = await writeTemp(dir, 'resumes.bin', bytes(2 * 5 * 1024 * 1024, 74));
    const page = await site.browser.page();
    page.onDialog('accept');
    try {
      await page.goto(`${site.url}/`);
      await page.select('#new-mode', 'share');
      await page.click('button[type=submit]');
      await page.waitFor('#role[data-role="owner"]');
      // An upload that sends nothing, cancelled: after a reload the page says it did not finish.
      gate.hold(uploads);
      await page.pickFiles('#file-input', [path]);
      await until('the upload at the gate', () => gate.held().length > 0, 60_000);
      await page.click('#cancel-upload');
      await page.waitFor('#upload-status[data-state="cancelled"]', { timeoutMs: 60_000 });
      gate.drop();
      await page.reload();
      await page.waitFor('#resume-note', { timeoutMs: 60_000 });
      assert.match(await page.text('#resume-note'), /resumes\.bin/);

      // The same file again: while its first request is held on its way, the note is gone.
      gate.hold(uploads);
      await page.pickFiles('#file-input', [path]);
      await until('the resumed upload at the gate', () => gate.held().length > 0, 60_000);
      assert.equal(await page.count('#resume-note'), 0, 'no "did not finish" while it resumes');
      gate.release();
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 120_000 });
      assert.equal(await page.count('#resume-note'), 0, 'nothing left unfinished');
    } finally {
      gate.release();
      await page.close();
    }
  });
});
