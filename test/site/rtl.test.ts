import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { SCREENSHOTS, writeTemp } from './browser.js';
import { type DriverPage, eachEngine, FOLDER_LINK, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { webkit } from './driver-webkit.js';
import { png } from './media.js';

/**
 * Right to left, in every engine: with Arabic or Hebrew chosen the page says `dir="rtl"` and its
 * `lang`, its layout mirrors (headings and notices start on the right, the viewer's next button and
 * the arrow key that goes on point left), and what is written left to right whatever the language
 * stays so (the share link, the owner key; file names in their own direction, isolated). In
 * Chromium each page is kept as a screenshot in Arabic and Hebrew, desktop and phone, light and
 * dark (artifacts/screenshots/rtl-*; SHOTS_DIR copies them elsewhere for review).
 */
const NAME = 'Budget 2026 (final).png';

/** Chooses a language with the switch and waits for the page to speak it. */
async function choose(page: DriverPage, lang: string, dir: 'rtl' | 'ltr'): Promise<void> {
  await page.select('#language', lang);
  await page.waitUntil(
    `document.documentElement.lang === ${JSON.stringify(lang)} && document.documentElement.dir === ${JSON.stringify(dir)}`,
  );
}

/** Where an element's text starts and ends, and its box (a Range over its contents). */
const textBox = (selector: string) =>
  `(() => { const el = document.querySelector(${JSON.stringify(selector)}); const r = document.createRange(); r.selectNodeContents(el); const t = r.getBoundingClientRect(); const b = el.getBoundingClientRect(); return { textLeft: t.left, textRight: t.right, left: b.left, right: b.right }; })()`;

/** Brings the list into view, where its tiles load, and waits for the two pictures' thumbnails. */
async function thumbnails(page: DriverPage): Promise<void> {
  await page.evaluate(`document.getElementById('files').scrollIntoView()`);
  await page.waitUntil(`document.querySelectorAll('#files img.thumb-image').length >= 2`);
  await page.evaluate('window.scrollTo(0, 0)');
}

eachEngine('site: right to left', [chromium, firefox, webkit], (engine) => {
  const site = useSite(engine);

  test('Arabic and Hebrew mirror the page; links, keys and file names stay left to right', async () => {
    const page = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${site.url}/`);
    await page.waitFor('#language');
    await choose(page, 'ar', 'rtl');
    await page.waitUntil(`document.querySelector('h1')?.textContent === 'أرسل الملفات مشفّرة من طرف إلى طرف'`);
    // The heading's words end at the heading's left side's far end: they start on the right.
    const h1 = await page.evaluate<{ textLeft: number; textRight: number; left: number; right: number }>(textBox('h1'));
    assert.ok(h1.right - h1.textRight < 2, `the heading starts on the right (${JSON.stringify(h1)})`);
    assert.ok(h1.textLeft - h1.left > 20, `and leaves room on the left (${JSON.stringify(h1)})`);

    const files = [
      await writeTemp(site.dir, NAME, png(64, 48, [200, 80, 40])),
      await writeTemp(site.dir, 'b.png', png(64, 48, [40, 80, 200])),
    ];
    await page.pickFiles('#file-input', files);
    await page.waitForUrl(FOLDER_LINK);
    await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    assert.equal(await page.evaluate('document.documentElement.dir'), 'rtl', 'the folder page is right to left too');
    // The share link is an address: left to right, aligned as one.
    assert.equal(await page.evaluate(`getComputedStyle(document.getElementById('share-link')).direction`), 'ltr');
    // A file name keeps its own direction, kept apart from the words around it.
    const name = `#files li[data-file-id] .name`;
    await page.waitUntil(
      `[...document.querySelectorAll(${JSON.stringify(name)})].some((n) => n.textContent.includes('Budget'))`,
    );
    assert.equal(
      await page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(name)})).unicodeBidi`),
      'plaintext',
    );

    await thumbnails(page);
    // Each engine's own picture of the owner's page (artifacts/screenshots/<engine>-rtl-folder-ar).
    await page.screenshot('rtl-folder-ar');
    // The viewer: "next" is the left button, and the left arrow goes on.
    await page.click(`#files li[data-file-id]:first-child button.open`);
    await page.waitFor('#viewer img');
    const buttons = await page.evaluate<{ prev: number; next: number }>(
      `({ prev: document.getElementById('viewer-prev').getBoundingClientRect().left, next: document.getElementById('viewer-next').getBoundingClientRect().left })`,
    );
    assert.ok(buttons.next < buttons.prev, `next is left of previous (${JSON.stringify(buttons)})`);
    const before = await page.text('#viewer-title');
    await page.focus('#viewer-close');
    // Each picture is shown whole before the next key: leaving one mid-read is another test's matter.
    const shown = `document.querySelector('#viewer img')?.complete`;
    await page.waitUntil(shown);
    await page.press('ArrowLeft');
    await page.waitUntil(`document.getElementById('viewer-title').textContent !== ${JSON.stringify(before)}`);
    await page.waitUntil(shown);
    await page.press('ArrowRight');
    await page.waitUntil(`document.getElementById('viewer-title').textContent === ${JSON.stringify(before)}`);
    await page.waitUntil(shown);
    await page.press('Escape');
    await page.waitFor('#viewer', { state: 'detached' });

    await choose(page, 'he', 'rtl');
    await page.waitUntil(`document.getElementById('files-h')?.textContent === 'קבצים'`);
    await choose(page, 'en', 'ltr');
    await page.waitUntil(`document.getElementById('files-h')?.textContent === 'Files'`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  if (engine.name !== 'chromium') return;

  test('screenshots: home, owner, recipient, viewer and an error page in Arabic and Hebrew', async () => {
    const setup = await site.browser.page({ viewport: { width: 1280, height: 800 } });
    await setup.goto(`${site.url}/`);
    await setup.waitFor('#new-mode');
    await setup.select('#new-mode', 'share');
    const files = [
      await writeTemp(site.dir, NAME, png(320, 240, [200, 120, 40])),
      await writeTemp(site.dir, 'تقرير.png', png(320, 240, [40, 120, 200])),
      await writeTemp(site.dir, 'notes.txt', Buffer.from('hello\n')),
    ];
    await setup.pickFiles('#file-input', files);
    const shareUrl = await setup.waitForUrl(FOLDER_LINK);
    await setup.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    await setup.click('#owner-key summary');
    const ownerLink = await setup.value('#owner-link');
    await setup.close();
    const noKey = shareUrl.replace(/#.*$/, '');
    const shots: string[] = [];
    for (const lang of ['ar', 'he'])
      for (const [device, viewport] of [
        ['desktop', { width: 1366, height: 768 }],
        ['phone', { width: 390, height: 844 }],
      ] as const)
        for (const colorScheme of ['light', 'dark'] as const) {
          const tag = `${lang}-${device}-${colorScheme}`;
          const options = { viewport, colorScheme, locale: lang, ...(device === 'phone' ? { phone: true } : {}) };
          const owner = await site.browser.page(options);
          await owner.goto(ownerLink);
          await owner.waitFor('#role[data-role="owner"]');
          await owner.waitUntil(
            `document.documentElement.dir === 'rtl' && document.documentElement.lang === '${lang}'`,
          );
          await thumbnails(owner);
          await owner.screenshot(`rtl-owner-${tag}`);
          await owner.click(`#files li[data-file-id]:first-child button.open`);
          await owner.waitFor('#viewer img');
          await owner.screenshot(`rtl-viewer-${tag}`, { fullPage: false });
          await owner.goto(`${site.url}/`);
          await owner.waitFor('#new-title');
          await owner.screenshot(`rtl-home-${tag}`);
          await owner.goto(noKey);
          await owner.waitUntil(`document.querySelector('h1') && document.documentElement.dir === 'rtl'`);
          await owner.screenshot(`rtl-error-${tag}`);
          assert.deepEqual(owner.problems, []);
          await owner.close();
          const visitor = await site.browser.page(options);
          await visitor.goto(shareUrl);
          await visitor.waitFor('#role[data-role="visitor"]');
          await thumbnails(visitor);
          await visitor.screenshot(`rtl-visitor-${tag}`);
          assert.deepEqual(visitor.problems, []);
          await visitor.close();
          shots.push(...['home', 'owner', 'visitor', 'viewer', 'error'].map((p) => `rtl-${p}-${tag}.png`));
        }
    const copyTo = process.env.SHOTS_DIR;
    if (copyTo) {
      await mkdir(copyTo, { recursive: true });
      for (const shot of shots) await copyFile(join(SCREENSHOTS, shot), join(copyTo, shot));
    }
  });
});
