import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../support/server.js';
import { createFolder, newContext, SKIP, screenshot, useBrowserFixture, watch } from './browser.js';

/**
 * An operator's own instance (SITE_NAME, IMPRINT_URL, PRIVACY_URL): the name in the page as served
 * (escaped: it is text, never markup) and in every window title, the legal pages linked from the
 * footer in the reader's language; a default instance shows neither. Real Chromium, real server.
 */
const NAME = 'Acme <Files> & $& Co';
const IMPRINT = 'https://acme.example/imprint';
const PRIVACY = 'https://acme.example/privacy';

describe('site: the instance name and legal pages (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture({ SITE_NAME: NAME, IMPRINT_URL: IMPRINT, PRIVACY_URL: PRIVACY });

  test('the page as served carries the name as text', async () => {
    const html = await (await fetch(`${fx.server.baseUrl}/`, { headers: { accept: 'text/html' } })).text();
    assert.ok(html.includes('<title>Acme &lt;Files&gt; &amp; $&amp; Co</title>'), html.slice(0, 600));
    assert.ok(html.includes('>Acme &lt;Files&gt; &amp; $&amp; Co</a>'), 'the header link');
    assert.ok(!html.includes('<Files>'), 'never as markup');
  });

  test('header, window titles and footer links; the footer follows the language', async () => {
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-title').waitFor();
    assert.equal(await page.locator('#home-link').textContent(), NAME);
    assert.equal(await page.title(), NAME);
    const imprint = page.locator('#site-footer a#imprint-link');
    assert.equal(await imprint.getAttribute('href'), IMPRINT);
    assert.equal(await imprint.getAttribute('rel'), 'noreferrer');
    assert.equal(await imprint.textContent(), 'Imprint');
    assert.equal(await page.locator('#privacy-link').getAttribute('href'), PRIVACY);
    await screenshot(page, 'home-branded');

    const folder = await createFolder(fx.server.baseUrl, 'send', 'Quarterly report');
    await page.goto(folder.folderUrl);
    await page.locator('#role').waitFor();
    assert.equal(await page.title(), `Quarterly report · ${NAME}`);
    await page.locator('#language').selectOption('de');
    await page.locator('#imprint-link', { hasText: 'Impressum' }).waitFor();
    assert.equal(await page.locator('#privacy-link').textContent(), 'Datenschutz');
    assert.equal(await page.locator('#site-footer').count(), 1, 'drawn once, not once per language');
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('a default instance: named webfolder, no footer', async () => {
    const plain = await startServer();
    try {
      const ctx = await newContext(fx.browser);
      const page = await ctx.newPage();
      await page.goto(`${plain.baseUrl}/`);
      await page.locator('#new-title').waitFor();
      assert.equal(await page.title(), 'webfolder');
      assert.equal(await page.locator('#home-link').textContent(), 'webfolder');
      assert.equal(await page.locator('#site-footer').count(), 0);
      await ctx.close();
    } finally {
      await plain.close();
    }
  });
});
