import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../support/server.js';
import { createFolder } from './browser.js';
import { eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';

/**
 * An operator's own instance (SITE_NAME, IMPRINT_URL, PRIVACY_URL): the name in the page as served
 * (escaped: it is text, never markup) and in every window title, the legal pages linked from the
 * footer in the reader's language; a default instance shows neither, only the release the footer
 * always shows (docs/security.md). Real Chromium, real server.
 */
const NAME = 'Acme <Files> & $& Co';
const IMPRINT = 'https://acme.example/imprint';
const PRIVACY = 'https://acme.example/privacy';

eachEngine('site: the instance name and legal pages', [chromium], (engine) => {
  const site = useSite(engine, { SITE_NAME: NAME, IMPRINT_URL: IMPRINT, PRIVACY_URL: PRIVACY });

  test('the page as served carries the name as text', async () => {
    const html = await (await fetch(`${site.url}/`, { headers: { accept: 'text/html' } })).text();
    assert.ok(html.includes('<title>Acme &lt;Files&gt; &amp; $&amp; Co</title>'), html.slice(0, 600));
    assert.ok(html.includes('>Acme &lt;Files&gt; &amp; $&amp; Co</a>'), 'the header link');
    assert.ok(!html.includes('<Files>'), 'never as markup');
  });

  test('header, window titles and footer links; the footer follows the language', async () => {
    const page = await site.browser.page();
    const title = () => page.evaluate<string>('document.title');
    await page.goto(`${site.url}/`);
    await page.waitFor('#new-title');
    assert.equal(await page.text('#home-link'), NAME);
    assert.equal(await title(), NAME);
    const imprint = '#site-footer a#imprint-link';
    assert.equal(await page.attribute(imprint, 'href'), IMPRINT);
    assert.equal(await page.attribute(imprint, 'rel'), 'noreferrer');
    assert.equal(await page.text(imprint), 'Imprint');
    assert.equal(await page.attribute('#privacy-link', 'href'), PRIVACY);
    await page.screenshot('home-branded');

    const folder = await createFolder(site.url, 'send', 'Quarterly report');
    await page.goto(folder.folderUrl);
    await page.waitFor('#role', { state: 'attached' });
    assert.equal(await title(), `Quarterly report · ${NAME}`);
    await page.select('#language', 'de');
    await page.waitUntil(`document.getElementById('imprint-link')?.textContent === 'Impressum'`);
    assert.equal(await page.text('#privacy-link'), 'Datenschutz');
    assert.equal(await page.count('#site-footer'), 1, 'drawn once, not once per language');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a default instance: named webfolder, its footer only the release', async () => {
    const plain = await startServer();
    const page = await site.browser.page();
    try {
      await page.goto(`${plain.baseUrl}/`);
      await page.waitFor('#new-title');
      assert.equal(await page.evaluate('document.title'), 'webfolder');
      assert.equal(await page.text('#home-link'), 'webfolder');
      assert.equal(await page.count('#imprint-link'), 0);
      assert.equal(await page.count('#privacy-link'), 0);
      assert.match(await page.text('#site-footer'), /^webfolder \S+ · sha256 [0-9a-f]{16}$/);
    } finally {
      await page.close();
      await plain.close();
    }
  });
});
