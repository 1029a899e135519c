import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { until } from '../support/poll.js';
import { SCREENSHOTS, SKIP, screenshot, useBrowserFixture, watch } from './browser.js';
import { pdf } from './media.js';

/**
 * The link first. On the home page what cannot change after the drop (who can do what, the
 * password) comes before the drop zone; after a drop the owner's page has the share link and its
 * Copy button in view at once, focused for a screen reader, with the owner key's safekeeping under
 * it, on a desktop (1280×800) and a phone (390×844), in light and dark, in English and German.
 */
const SIZES: Record<string, BrowserContextOptions> = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/** An element's box in the viewport (without scrolling), or null when it is not rendered. */
function box(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, inner: window.innerHeight, scrolled: window.scrollY };
  });
}

/**
 * Waits until Chromium's PDF viewer has drawn the document: its frame (an extension page of its own)
 * says the document is loaded, and then what the frame shows stops changing between two looks. The
 * frame appearing is not enough: it is blank until the page is drawn.
 */
async function pdfDrawn(page: Page): Promise<void> {
  await until(
    'the PDF viewer to say the document is loaded',
    async () => {
      for (const frame of page.frames().filter((f) => f.url().startsWith('chrome-extension:'))) {
        const loaded = await frame
          .evaluate(() => {
            const toolbar = document.querySelector('pdf-viewer')?.shadowRoot?.querySelector('viewer-toolbar');
            return (toolbar as { loadProgress?: number } | null | undefined)?.loadProgress === 100;
          })
          .catch(() => false);
        if (loaded) return true;
      }
      return false;
    },
    60_000,
  );
  let last: Buffer = Buffer.alloc(0);
  await until(
    'the PDF page drawn (two looks alike)',
    async () => {
      const look = await page.locator('#viewer-pdf').screenshot();
      const same = look.equals(last);
      last = look;
      return same;
    },
    30_000,
  );
}

describe('site: the link first (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  for (const [device, options] of Object.entries(SIZES))
    for (const [locale, words] of [
      ['en', { copy: 'Copy link', owner: 'Save your owner key' }],
      ['de', { copy: 'Link kopieren', owner: '' }],
    ] as const)
      for (const scheme of ['light', 'dark'] as const)
        test(`${device}, ${locale}, ${scheme}: decide before the drop; after it the link is in view and focused`, async () => {
          const ctx = await fx.browser.newContext({ ...options, locale, colorScheme: scheme });
          const page = await ctx.newPage();
          const problems = watch(page);
          await page.goto(`${fx.server.baseUrl}/`);
          const drop = await box(page, '#drop-zone');
          for (const before of ['#new-mode', '#new-password'])
            assert.ok((await box(page, before)).bottom <= drop.top, `${before} comes before the drop zone`);
          for (const after of ['#new-expiry', '#new-limit', '#new-note'])
            assert.ok((await box(page, after)).top >= drop.bottom, `${after} follows the drop zone`);
          // Compact: the drop zone's pickers are on the first screen, the password's advice shown once used.
          assert.ok(
            (await box(page, '#drop-zone label.pick:first-of-type')).bottom <= drop.inner,
            'the pickers on the first screen',
          );
          assert.equal(await page.locator('#password-help').isVisible(), false);
          await page.locator('#new-password').focus();
          await page.locator('#password-help').waitFor();
          await page.locator('#new-password').blur();
          await page.locator('#password-help').waitFor({ state: 'hidden' });
          await screenshot(page, `home-${device}-${scheme}-${locale}`);

          await Promise.all([
            page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/),
            page.setInputFiles('#file-input', [
              { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf('Quarterly report') },
            ]),
          ]);
          await page.locator('#share-link').waitFor();
          await page.waitForFunction(() => document.activeElement?.id === 'share-link');
          // In view at once, without scrolling: the link, its Copy button, the owner key's card.
          for (const selector of ['#share-link', '#copy-link', '#owner-key summary']) {
            const b = await box(page, selector);
            assert.ok(b.top >= 0 && b.bottom <= b.inner, `${selector} in view (${JSON.stringify(b)})`);
            assert.equal(b.scrolled, 0);
          }
          if (locale === 'en') {
            assert.equal(await page.locator('#copy-link').innerText(), words.copy);
            assert.match(await page.locator('#owner-key summary').innerText(), new RegExp(words.owner));
          } else assert.equal(await page.locator('#copy-link').innerText(), words.copy);
          await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
          await screenshot(page, `owner-after-drop-${device}-${scheme}-${locale}`);

          // A recipient's page, and the viewer with the PDF, in the same size, scheme and language.
          const recipientCtx = await fx.browser.newContext({ ...options, locale, colorScheme: scheme });
          const recipient = await recipientCtx.newPage();
          const recipientProblems = watch(recipient);
          await recipient.goto(await page.locator('#share-link').inputValue());
          await recipient.locator('#files button.open').waitFor();
          await screenshot(recipient, `recipient-${device}-${scheme}-${locale}`);
          await recipient.locator('#files button.open').click();
          await recipient.locator('#viewer-content[data-way] #viewer-pdf').waitFor();
          await pdfDrawn(recipient);
          await recipient.screenshot({
            path: `${SCREENSHOTS}/viewer-pdf-${device}-${scheme}-${locale}.png`,
          });
          assert.deepEqual([...problems, ...recipientProblems], []);
          await Promise.all([ctx.close(), recipientCtx.close()]);
        });
});
