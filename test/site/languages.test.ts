import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES } from '../../web/src/i18n/index.js';
import { bytes, createFolder, writeTemp } from './browser.js';
import { type DriverPage, eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';

/**
 * The eleven languages in a real Chromium: the switch lists every one (named in itself), a browser
 * set to Japanese or Polish gets its words, plurals, numbers, sizes and dates, on a desktop and a
 * phone, light and dark; each such page is kept as a screenshot (artifacts/screenshots/lang-*).
 */
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** What each language must show: the home heading, the folder's summary for 3 files of 5,250,000 bytes, and how that size reads. */
const EXPECT = {
  ja: {
    heading: 'ファイルをエンドツーエンド暗号化で送る',
    count: '3 件のファイル',
    size: /15\.8\s?MB/,
    upload: 'アップロード完了: 3 件のファイル。',
  },
  pl: {
    heading: 'Wysyłaj pliki zaszyfrowane end-to-end',
    count: '3 pliki',
    size: /15,8\s?MB/,
    upload: 'Przesyłanie zakończone: 3 pliki.',
  },
} as const;

async function noHorizontalScroll(page: DriverPage, what: string): Promise<void> {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  assert.ok(overflow <= 1, `${what}: no horizontal scrolling (${overflow}px)`);
}

/** Waits until the page's main heading reads `text`. */
const heading = (page: DriverPage, text: string) =>
  page.waitUntil(`[...document.querySelectorAll('h1')].some((h) => h.textContent === ${JSON.stringify(text)})`);

eachEngine('site: every language, Japanese and Polish on screen', [chromium], (engine) => {
  const site = useSite(engine);

  test('the language switch lists every language, each named in itself, and loads it when chosen', async () => {
    const page = await site.browser.page({ locale: 'en-US' });
    await page.goto(`${site.url}/`);
    await page.waitFor('#language');
    const options = await page.evaluate(
      `[...document.querySelectorAll('#language option')].map((o) => [o.value, o.textContent, o.getAttribute('lang')])`,
    );
    assert.deepEqual(
      options,
      Object.entries(LANGUAGES).map(([code, name]) => [code, name, code]),
    );
    // Each catalog is its own file, fetched when chosen (the page's own record of what it loaded).
    const catalogs = `performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\\/assets\\/(fr|zh-Hans)-[^/]+\\.js$/.test(n))`;
    assert.deepEqual(await page.evaluate(catalogs), [], 'no catalog fetched before it is chosen');
    await page.select('#language', 'fr');
    await heading(page, 'Envoyez des fichiers, chiffrés de bout en bout');
    assert.equal(await page.evaluate('document.documentElement.lang'), 'fr');
    await page.select('#language', 'zh-Hans');
    await heading(page, '发送文件，端到端加密');
    assert.equal(await page.evaluate('document.documentElement.lang'), 'zh-Hans');
    const fetched = await page.evaluate<string[]>(catalogs);
    assert.equal(fetched.length, 2, fetched.join(', '));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  for (const [lang, expect] of Object.entries(EXPECT)) {
    test(`${lang}: home and folder pages, desktop and phone, light and dark`, async () => {
      const folder = await createFolder(site.url, 'share', `Lang ${lang}`);
      const files = await Promise.all(
        [1, 2, 3].map((i) => writeTemp(site.dir, `${lang}-${i}.bin`, bytes(5_250_000, 90 + i))),
      );
      let uploaded = false;
      for (const [device, viewport] of Object.entries(SIZES)) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const page = await site.browser.page({
            locale: lang === 'ja' ? 'ja-JP' : 'pl-PL',
            colorScheme,
            viewport,
            phone: device === 'phone',
          });
          const name = `lang-${lang}-${device}-${colorScheme}`;
          await page.goto(`${site.url}/`);
          await heading(page, expect.heading);
          assert.equal(await page.evaluate('document.documentElement.lang'), lang);
          await noHorizontalScroll(page, `${name} home`);
          await page.screenshot(`${name}-home`);

          await page.goto(folder.folderUrl);
          if (!uploaded) {
            // The first visitor uploads (and owns the folder); later ones see its files.
            await page.pickFiles('#file-input', files);
            await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
            assert.equal(await page.renderedText('#upload-status'), expect.upload);
            uploaded = true;
          }
          await page.waitFor('#files li[data-file-id]:nth-of-type(3)');
          await page.waitUntil(
            `document.getElementById('folder-summary')?.textContent.includes(${JSON.stringify(expect.count)})`,
          );
          const summary = await page.renderedText('#folder-summary');
          assert.match(summary, expect.size, `${name}: the total size the ${lang} way`);
          await noHorizontalScroll(page, `${name} folder`);
          await page.screenshot(`${name}-folder`);
          assert.deepEqual(page.problems, []);
          await page.close();
        }
      }
    });
  }
});
