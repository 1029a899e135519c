import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { LANGUAGES } from '../../web/src/i18n/index.js';
import { bytes, createFolder, SKIP, screenshot, useBrowserFixture, watch, writeTemp } from './browser.js';

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

async function noHorizontalScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `${what}: no horizontal scrolling (${overflow}px)`);
}

describe('site: every language, Japanese and Polish on screen (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('the language switch lists every language, each named in itself, and loads it when chosen', async () => {
    const ctx = await fx.browser.newContext({ locale: 'en-US' });
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#language').waitFor();
    const options = await page
      .locator('#language option')
      .evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent, o.getAttribute('lang')]));
    assert.deepEqual(
      options,
      Object.entries(LANGUAGES).map(([code, name]) => [code, name, code]),
    );
    // Each catalog is its own file, fetched when chosen.
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/(fr|zh-Hans)-[^/]+\.js$/.test(r.url())) fetched.push(r.url());
    });
    await page.locator('#language').selectOption('fr');
    await page.getByRole('heading', { name: 'Envoyez des fichiers, chiffrés de bout en bout' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    await page.locator('#language').selectOption('zh-Hans');
    await page.getByRole('heading', { name: '发送文件，端到端加密' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
    assert.equal(fetched.length, 2, fetched.join(', '));
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  for (const [lang, expect] of Object.entries(EXPECT)) {
    test(`${lang}: home and folder pages, desktop and phone, light and dark`, async () => {
      const folder = await createFolder(fx.server.baseUrl, 'share', `Lang ${lang}`);
      const files = await Promise.all(
        [1, 2, 3].map((i) => writeTemp(fx.dir, `${lang}-${i}.bin`, bytes(5_250_000, 90 + i))),
      );
      let uploaded = false;
      for (const [device, viewport] of Object.entries(SIZES)) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const ctx = await fx.browser.newContext({
            locale: lang === 'ja' ? 'ja-JP' : 'pl-PL',
            colorScheme,
            viewport,
            ...(device === 'phone' ? { isMobile: true, hasTouch: true } : {}),
          });
          const page = await ctx.newPage();
          const problems = watch(page);
          const name = `lang-${lang}-${device}-${colorScheme}`;
          await page.goto(`${fx.server.baseUrl}/`);
          await page.getByRole('heading', { name: expect.heading }).waitFor();
          assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
          await noHorizontalScroll(page, `${name} home`);
          await screenshot(page, `${name}-home`);

          await page.goto(folder.folderUrl);
          if (!uploaded) {
            // The first visitor uploads (and owns the folder); later ones see its files.
            await page.setInputFiles('#file-input', files);
            await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
            assert.equal(await page.locator('#upload-status').innerText(), expect.upload);
            uploaded = true;
          }
          await page.locator('#files li[data-file-id]').nth(2).waitFor();
          await page.locator('#folder-summary', { hasText: expect.count }).waitFor();
          const summary = await page.locator('#folder-summary').innerText();
          assert.match(summary, expect.size, `${name}: the total size the ${lang} way`);
          await noHorizontalScroll(page, `${name} folder`);
          await screenshot(page, `${name}-folder`);
          assert.deepEqual(problems, []);
          await ctx.close();
        }
      }
    });
  }
});
