import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { SKIP, screenshot, useBrowserFixture, watch, writeTemp } from './browser.js';
import { pdf } from './media.js';
import { optionsCutOff } from './probes.js';

/**
 * The details a new user noticed on a first visit. Touch targets of 44 px, a readable checkbox, the
 * same 3 px focus ring everywhere, counters for the title and the note, the page's own validation
 * message in its language, the focus after Create, one name per upload button, mode texts that fit
 * a phone, and the whole owner link on screen.
 */
const catalog = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../web/src/i18n/messages/${lang}.json`, import.meta.url), 'utf8'));

async function box(page: Page, selector: string): Promise<{ width: number; height: number }> {
  const b = await page.locator(selector).first().boundingBox();
  assert.ok(b, `${selector} is on screen`);
  return b;
}

describe('site: the details people notice (Chromium)', { skip: SKIP }, () => {
  // With SMTP_URL (nothing is mailed here): a server without it offers no e-mail field to measure.
  const fx = useBrowserFixture({ SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'webfolder <noreply@example.org>' });

  test('home: counters, the limit checked in the page language, 3 px rings, mode texts that fit a phone', async () => {
    const de = catalog('de');
    const context = await fx.browser.newContext({
      locale: 'de-DE',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-title').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');

    // Counters: the title and the note say how much room is left, as the person types.
    await page.locator('#new-title').fill('x'.repeat(195));
    assert.equal(await page.locator('#new-title-count').textContent(), '195 von 200 Zeichen');
    await page.locator('#new-note').fill('y'.repeat(800));
    assert.equal(await page.locator('#new-note-count').textContent(), '800 von 800 Zeichen');

    // A limit of 0 or 1.5: the page's own message in its language, no browser bubble, nothing made.
    for (const bad of ['0', '1.5']) {
      await page.locator('#new-limit').fill(bad);
      await page.locator('button[type=submit]').click();
      await page.locator('#new-limit[aria-invalid="true"]').waitFor();
      assert.equal(await page.locator('#limit-error').textContent(), de['home.limitInvalid']);
      assert.equal(
        await page.locator('#new-limit').evaluate((e) => (e as HTMLInputElement).validationMessage),
        de['home.limitInvalid'],
        "the field's own message is the page's, not the browser's English",
      );
      assert.equal(new URL(page.url()).pathname, '/');
    }
    await page.locator('#new-limit').fill('2');
    assert.equal(await page.locator('#new-limit').getAttribute('aria-invalid'), null);

    // The note's focus ring is the 3 px ring of every other control.
    await page.locator('#new-note').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('#new-note').evaluate((e) => getComputedStyle(e).outlineWidth), '3px');

    // Each mode's text fits its select on a phone, in German, Korean, Japanese and Polish.
    for (const lang of ['de', 'ko', 'ja', 'pl']) {
      await page.locator('#language').selectOption(lang);
      await page.locator(`html[lang="${lang}"]`).waitFor();
      const cut = (await page.evaluate(optionsCutOff('#new-mode'))) as string[];
      assert.deepEqual(cut, [], `${lang}: every mode's text fits the select`);
      assert.ok(await page.locator('#mode-help').textContent(), `${lang}: the chosen mode is explained`);
    }
    await screenshot(page, 'details-home-phone-pl');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("after Create the focus is on the folder's heading; the owner's page keeps 44 px targets", async () => {
    const context = await fx.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-mode').selectOption('share');
    await page.locator('#new-title').fill('Details');
    await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
    await page.locator('#role[data-role="owner"]').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'share-link');

    // One accessible name per upload button: "Choose files" once, "Choose a folder" once.
    const tree = await page.locator('#upload-h').locator('xpath=..').ariaSnapshot();
    assert.equal(tree.split('Choose files').length - 1, 1, tree);
    assert.equal(tree.split('Choose a folder').length - 1, 1, tree);

    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'report.pdf', pdf('details'))]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await page.locator('#files button.open').first().waitFor();
    assert.ok((await box(page, '#files button.open')).height >= 44, 'the preview-name button is 44 px tall');
    assert.ok((await box(page, '#notify-email')).height >= 44, 'the e-mail field is 44 px tall');
    const check = await box(page, '#notify-download');
    assert.ok(check.width >= 24 && check.height >= 24, `the checkbox is at least 24×24 (${JSON.stringify(check)})`);
    assert.ok((await box(page, 'label[for="notify-download"]')).height >= 44, "the checkbox's label is 44 px tall");

    // The owner link is on screen whole (not the first 40 characters of it).
    await page.locator('#owner-key summary').click();
    const whole = await page
      .locator('#owner-link')
      .evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1);
    assert.ok(whole, 'the owner link is shown whole');
    await screenshot(page, 'details-owner-desktop');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
