import { describe, test } from 'node:test';
import { createFolder, SKIP, screenshot, useBrowserFixture, watch, writeTemp } from './browser.js';
import { pdf, png } from './media.js';

/**
 * Screenshots for a person to review the pages by eye (artifacts/screenshots/screen-*): the home
 * page, the owner's page, a visitor's page and the viewer, desktop and phone, light and dark, English
 * and German. Each page is checked to have drawn what it shows before the picture is taken.
 */
describe('site: screenshots of every page (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('home, owner, visitor and viewer in 2 sizes × 2 schemes × 2 languages', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'share', 'Holiday');
    const setup = await fx.browser.newContext();
    const first = await setup.newPage();
    await first.goto(folder.folderUrl);
    const paths = [];
    for (let i = 0; i < 3; i++)
      paths.push(await writeTemp(fx.dir, `beach-${i}.png`, png(320, 240, [30 + 60 * i, 120, 180])));
    paths.push(await writeTemp(fx.dir, 'tickets.pdf', pdf('Tickets')));
    await first.setInputFiles('#file-input', paths);
    await first.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await first.locator('#owner-key summary').click();
    const ownerLink = await first.locator('#owner-link').inputValue();
    await setup.close();

    for (const [size, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const)
      for (const scheme of ['light', 'dark'] as const)
        for (const locale of ['en-US', 'de-DE']) {
          const tag = `${size}-${scheme}-${locale.slice(0, 2)}`;
          const context = await fx.browser.newContext({
            viewport,
            colorScheme: scheme,
            locale,
            ...(size === 'phone' ? { isMobile: true, hasTouch: true } : {}),
          });
          const page = await context.newPage();
          const problems = watch(page);
          await page.goto(`${fx.server.baseUrl}/`);
          await page.locator('#new-title').waitFor();
          await screenshot(page, `screen-home-${tag}`);
          await page.goto(ownerLink);
          await page.locator('#role[data-role="owner"]').waitFor();
          // The share link leads the owner's page: the tiles load as the list scrolls into view.
          await page.locator('#files').scrollIntoViewIfNeeded();
          await page.waitForFunction(() => document.querySelectorAll('#files img.thumb-image').length >= 1);
          await screenshot(page, `screen-owner-${tag}`);
          await page.locator('#files li[data-file-id]:has-text("beach-1.png") button.open').click();
          await page.locator('#viewer img').waitFor();
          await screenshot(page, `screen-viewer-${tag}`);
          await context.close();
          const visitorCtx = await fx.browser.newContext({
            viewport,
            colorScheme: scheme,
            locale,
            ...(size === 'phone' ? { isMobile: true, hasTouch: true } : {}),
          });
          const visitor = await visitorCtx.newPage();
          await visitor.goto(folder.folderUrl);
          await visitor.locator('#role[data-role="visitor"]').waitFor();
          await visitor.waitForFunction(() => document.querySelectorAll('#files img.thumb-image').length >= 1);
          await screenshot(visitor, `screen-visitor-${tag}`);
          await visitorCtx.close();
          if (problems.length) throw new Error(problems.join('\n'));
        }
  });
});
