import assert from 'node:assert/strict';
import { test } from 'node:test';
import { upload } from '../../src/client/node/index.js';
import { until } from '../support/poll.js';
import { writeTemp } from './browser.js';
import { type DriverPage, eachEngine, FOLDER_LINK, folderIdOf, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { pdf, png } from './media.js';

/**
 * The person's side in every engine, each scenario written once: a name's right-to-left override is
 * shown as a mark (list, activity, the saved file's name); every preview fills the viewer; empty
 * files are named in a notice that stays (alone they make no folder); the zip says what it leaves out; a password folder's share
 * box says the password is needed; an open page shows a take-down's reason.
 */
const ADMIN_TOKEN = 'person-engines-admin-token-0123456789abcdef';
const EXE = 'invoice\u202Egpj.exe';

eachEngine('the person round two', [chromium, firefox], (engine) => {
  const site = useSite(engine, { ADMIN_TOKEN });

  async function home(page: DriverPage, mode: string): Promise<void> {
    await page.goto(`${site.url}/`);
    await page.waitFor('#new-mode');
    await page.select('#new-mode', mode);
  }

  test('a right-to-left override is shown as a mark in the list, the activity and the saved name', async () => {
    const page = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    await home(page, 'share');
    const content = Buffer.from('MZ not a program\n');
    await page.pickFiles('#file-input', [await writeTemp(site.dir, EXE, content)]);
    await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    await page.waitUntil(`document.getElementById('files')?.innerText.includes('invoice[U+202E]gpj.exe')`);
    await page.waitUntil(`document.getElementById('activity')?.innerText.includes('invoice[U+202E]gpj.exe')`);
    assert.equal(await page.evaluate(`document.querySelector('main').innerText.includes('\\u202e')`), false);
    const saved = page.download('invoice[U+202E]gpj.exe', content.length);
    await page.click('#files li[data-file-id] button.download');
    assert.deepEqual(await saved, content);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a PDF, a small image and text fill the viewer, on a desktop and a phone', async () => {
    const paths = [
      await writeTemp(site.dir, 'a-small.png', png(60, 40)),
      await writeTemp(site.dir, 'b-paper.pdf', pdf('Hello PDF')),
      await writeTemp(site.dir, 'c-notes.txt', Buffer.from('words\n')),
    ];
    const { link } = await upload(paths, { server: site.url, mode: 'share' });
    const cover = (selector: string) =>
      `(() => { const e = document.querySelector(${JSON.stringify(selector)}); const c = document.getElementById('viewer-content');
        if (!e || !c) return null; const s = getComputedStyle(c); const b = e.getBoundingClientRect();
        return [b.width / (c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)),
                b.height / (c.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom))]; })()`;
    for (const options of [{ viewport: { width: 1280, height: 800 } }, { phone: true }]) {
      const page = await site.browser.page(options);
      await page.goto(link);
      await page.waitFor('#files button.open');
      await page.evaluate(
        `[...document.querySelectorAll('#files button.open')].find((b) => b.textContent === 'a-small.png').click()`,
      );
      await page.waitUntil(`document.getElementById('viewer-image')?.naturalWidth === 60`);
      const image = await page.evaluate<[number, number]>(cover('#viewer-image'));
      assert.ok(Math.max(...image) > 0.99, `the small image is scaled to fit (${image})`);
      await page.click('#viewer-next');
      await page.waitFor('#viewer-content[data-way] #viewer-pdf', { state: 'attached' });
      const frame = await page.evaluate<[number, number]>(cover('#viewer-pdf'));
      assert.ok(Math.min(...frame) > 0.99, `the PDF frame fills the viewer (${frame})`);
      await page.click('#viewer-next');
      await page.waitFor('#viewer-content[data-way] #viewer-text');
      const text = await page.evaluate<[number, number]>(cover('#viewer-text'));
      assert.ok(text[1] > 0.99, `the text fills the viewer's height (${text})`);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('an empty file alone makes no folder; beside others it is named; the zip says what it leaves out', async () => {
    const page = await site.browser.page();
    await home(page, 'send');
    await page.pickFiles('#file-input', [await writeTemp(site.dir, 'nothing.txt', Buffer.alloc(0))]);
    await page.waitFor('#empty-skipped');
    assert.match(await page.renderedText('#empty-skipped'), /empty files cannot be uploaded[\s\S]*nothing\.txt/);
    assert.equal(new URL(await page.url()).pathname, '/');

    await page.fill('#new-limit', '1');
    // An empty file picked beside others: they are sent, and it is named in a notice that stays.
    await page.pickFiles('#file-input', [
      await writeTemp(site.dir, 'once.txt', Buffer.from('one download\n')),
      await writeTemp(site.dir, 'blank.txt', Buffer.alloc(0)),
      await writeTemp(site.dir, 'other.txt', Buffer.from('another\n')),
    ]);
    await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    assert.match(await page.renderedText('#upload-status'), /Upload complete: 2 files/);
    await page.waitUntil(`document.querySelectorAll('#files li[data-file-id]').length === 2`);
    assert.match(await page.renderedText('#empty-skipped'), /An empty file was skipped[\s\S]*blank\.txt/);
    const link = await page.value('#share-link');
    const visitor = await site.browser.page();
    await visitor.goto(link);
    await visitor.waitFor('#files li[data-file-id] button.download');
    const once = visitor.download('once.txt', 13);
    await visitor.evaluate(
      `[...document.querySelectorAll('#files li[data-file-id]')].find((li) => li.textContent.includes('once.txt')).querySelector('button.download').click()`,
    );
    await once;
    await visitor.waitUntil(
      `[...document.querySelectorAll('#files li[data-file-id]')].some((li) => li.textContent.includes('once.txt') && li.querySelector('button.download:disabled'))`,
    );
    await visitor.click('#download-all');
    await visitor.waitUntil(`document.getElementById('download-status')?.textContent.includes('Left out')`, 60_000);
    assert.match(await visitor.renderedText('#download-status'), /Left out: once\.txt \(download limit reached\)/);
    assert.deepEqual([...page.problems, ...visitor.problems], []);
    await Promise.all([page.close(), visitor.close()]);
  });

  test('a password folder says the password is needed; its open page reads the take-down reason', async () => {
    const owner = await site.browser.page();
    await home(owner, 'send');
    await owner.fill('#new-password', 'tangerine tuesday');
    await owner.click('button[type=submit]');
    await owner.waitForUrl(FOLDER_LINK);
    await owner.waitFor('#share-who');
    assert.match(await owner.renderedText('#share-who'), /this link and the password can download/);
    const link = await owner.url();

    const res = await fetch(`${site.url}/api/admin/folders/${folderIdOf(link)}/take-down`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'malware', note: 'Reported by the CERT' }),
    });
    assert.equal(res.status, 200, await res.text());
    // The owner's page was open: its poll finds the folder taken down, and it says why.
    await owner.show();
    await owner.waitFor('#take-down', { timeoutMs: 30_000 });
    assert.equal(await owner.renderedText('#take-down-note'), 'Reported by the CERT');
    assert.doesNotMatch(await owner.renderedText('main'), /deleted or has expired/);
    assert.deepEqual(owner.problems, []);
    await owner.close();
  });

  test("a request folder's owner: no limit, a note to those who upload; without mail no Stop for nothing", async () => {
    const page = await site.browser.page();
    await home(page, 'request');
    await page.click('button[type=submit]');
    await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#owner-settings');
    assert.equal(await page.count('#owner-limit'), 0);
    assert.equal(await page.count('#one-recipient'), 0);
    assert.match(await page.renderedText('label[for="owner-note"]'), /Note to those who upload/);
    assert.match(await page.renderedText('#deadline'), /unless someone uploads to it/);
    await page.waitFor('#notify-current[data-state="off"]', { state: 'hidden' });
    await page.waitFor('#notify-clear', { state: 'hidden' });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the admin console: the token only, a reason that must be chosen, "admin token", site dates', async () => {
    const owner = await site.browser.page();
    await home(owner, 'share');
    await owner.click('button[type=submit]');
    await owner.waitForUrl(FOLDER_LINK);
    await owner.waitFor('#save-expiry');
    await owner.click('#save-expiry');
    const folderId = folderIdOf(await owner.url());
    // Saved before the page closes: closing first could cancel the request.
    await until('the new expiry in the audit log', async () => {
      const res = await fetch(`${site.url}/api/admin/audit?action=folder.settings&folder=${folderId}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      return res.ok && ((await res.json()) as { entries: unknown[] }).entries.length > 0;
    });
    await owner.close();

    const page = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${site.url}/admin`);
    await page.waitFor('#admin-sign-in');
    assert.match(await page.renderedText('#admin-sign-in'), /Enter the admin token \(ADMIN_TOKEN\) set on this server/);
    await page.fill('#admin-token', ADMIN_TOKEN);
    await page.press('Enter');
    await page.waitFor(`tr[data-folder="${folderId}"] button[data-action="take-down"]`);
    await page.click(`tr[data-folder="${folderId}"] button[data-action="take-down"]`);
    await page.waitFor('dialog.admin-dialog[open]');
    assert.equal(await page.value('#take-down-reason-choice'), '');
    await page.click('#take-down-confirm');
    await page.waitUntil(
      `document.getElementById('take-down-reason-error')?.textContent.includes('Choose the reason')`,
    );
    await page.select('#take-down-reason-choice', 'abuse');
    await page.click('#take-down-confirm');
    await page.waitUntil(`document.querySelector('tr[data-folder="${folderId}"]')?.textContent.includes('Taken down')`);
    await page.click('#admin-tab-audit');
    // This folder's rows (an earlier scenario took another folder down).
    const row = (action: string) =>
      `[...document.querySelectorAll('#audit-rows tr[data-action="${action}"]')].find((tr) => tr.textContent.includes(${JSON.stringify(folderId.slice(0, 12))}))?.innerText ?? ''`;
    await page.waitUntil(row('folder.take-down'));
    const takeDown = await page.evaluate<string>(row('folder.take-down'));
    assert.match(takeDown, /admin token/);
    const settings = await page.evaluate<string>(row('folder.settings'));
    assert.match(settings, /expiresAt: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M/);
    assert.doesNotMatch(settings, /\d{13}/);
    await page.screenshot('admin-audit-desktop-light-en');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test("the admin console's folder table on a phone: every cell of every row on the screen", async () => {
    const page = await site.browser.page({ phone: true });
    await page.goto(`${site.url}/admin`);
    await page.waitFor('#admin-token');
    await page.fill('#admin-token', ADMIN_TOKEN);
    await page.press('Enter');
    await page.waitFor('#admin-folders tr[data-folder]');
    const off = await page.evaluate<string[]>(`(() => {
      const width = document.documentElement.clientWidth;
      const out = [];
      for (const c of document.querySelectorAll('#admin-folders tr[data-folder] td')) {
        const box = c.getBoundingClientRect();
        const name = c.dataset.label ?? c.textContent;
        if (box.width === 0 || box.left < 0 || box.right > width + 0.5) out.push(name + ' at ' + box.left + '–' + box.right);
        else if (c.scrollWidth > c.clientWidth + 1) out.push(name + ' overflows its cell');
      }
      if (document.documentElement.scrollWidth > width) out.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
      return out;
    })()`);
    assert.deepEqual(off, [], 'every cell within the 390 px screen');
    await page.screenshot('admin-person-folders-phone-light-en');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
