import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachEngine, useSite } from './driver.js';
import { firefox } from './driver-firefox.js';
import { visitorScenario } from './scenes-visit.js';

/**
 * The site's main paths in Firefox (ESR, over WebDriver BiDi; see ./firefox.ts), through the driver
 * (driver.ts): the language switch, and a visitor's downloads, viewer and password folder, written
 * once in scenes-visit.ts (webkit.test.ts runs them in WebKit). More of the site runs in Firefox
 * through the scenarios written once for every engine (first-minute.test.ts, drop-and-go.test.ts,
 * download-*.test.ts, …).
 */
eachEngine('site in Firefox', [firefox], (engine) => {
  const site = useSite(engine);

  test('the language switch loads a catalog in Firefox; the choice is kept across a reload', async () => {
    const page = await site.browser.page();
    const polish = `document.querySelector('main h1')?.textContent === 'Wysyłaj pliki zaszyfrowane end-to-end'`;
    try {
      await page.goto(`${site.url}/`);
      await page.select('#language', 'pl');
      await page.waitUntil(polish);
      assert.equal(await page.evaluate('document.documentElement.lang'), 'pl');
      await page.reload();
      await page.waitUntil(polish);
      assert.equal(await page.value('#language'), 'pl');
    } finally {
      await page.close();
    }
  });

  visitorScenario(site);
});
