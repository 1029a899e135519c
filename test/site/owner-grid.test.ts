import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createFolder, SKIP, screenshot, useBrowserFixture, watch, writeTemp } from './browser.js';
import { png } from './media.js';

/**
 * The owner's grid of images. Every tile's "Manage" and the controls it opens lie
 * inside the tile and are what a pointer at their centre hits (not the neighbour's picture), at a
 * desktop and a phone size, and the keyboard reaches them.
 */

/** Where `selector` inside tile `i` is, and whether a click at its centre reaches it and stays in the tile. */
async function reachable(page: Page, i: number, selector: string): Promise<string | null> {
  return page.evaluate(
    ([index, sel]) => {
      const li = document.querySelectorAll<HTMLElement>('#files li[data-file-id]')[index as number]!;
      const el = li.querySelector<HTMLElement>(sel as string);
      if (!el) return `tile ${index}: no ${sel}`;
      el.scrollIntoView({ block: 'center' });
      const box = el.getBoundingClientRect();
      const tile = li.getBoundingClientRect();
      const inside =
        box.left >= tile.left - 0.5 &&
        box.right <= tile.right + 0.5 &&
        box.top >= tile.top - 0.5 &&
        box.bottom <= tile.bottom + 0.5;
      if (!inside) return `tile ${index}: ${sel} ${JSON.stringify(box)} is outside its tile ${JSON.stringify(tile)}`;
      if (box.right > document.documentElement.clientWidth + 0.5) return `tile ${index}: ${sel} runs off the page`;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !(el === hit || el.contains(hit)))
        return `tile ${index}: a click on ${sel} hits ${hit?.outerHTML.slice(0, 80) ?? 'nothing'}`;
      return null;
    },
    [i, selector] as const,
  );
}

describe("site: the owner's grid (Chromium)", { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`${label}: every tile's Manage and its controls are inside the tile and take the click`, async () => {
      const folder = await createFolder(fx.server.baseUrl, 'share');
      const paths: string[] = [];
      for (let i = 0; i < 5; i++)
        paths.push(await writeTemp(fx.dir, `${label}-photo-${i}.png`, png(400, 300, [40 * i, 90, 160])));
      const context = await fx.browser.newContext({
        viewport,
        ...(label === 'phone' ? { isMobile: true, hasTouch: true } : {}),
      });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(folder.folderUrl);
      await page.setInputFiles('#file-input', paths);
      await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
      await page.locator('#role[data-role="owner"]').waitFor();
      await page.locator('#files.grid li[data-file-id]').nth(4).waitFor();

      const failures: string[] = [];
      for (let i = 0; i < 5; i++) {
        const problem = await reachable(page, i, 'details.file-manage > summary');
        if (problem) failures.push(problem);
      }
      assert.deepEqual(failures, [], 'every Manage is inside its tile and takes the click');

      const inside: string[] = [];
      for (let i = 0; i < 5; i++) {
        const tile = page.locator('#files li[data-file-id]').nth(i);
        await tile.locator('details.file-manage > summary').click();
        assert.equal(await tile.locator('details.file-manage').getAttribute('open'), '');
        for (const sel of ['input.file-limit', 'button.save-limit', 'button.delete-file']) {
          const problem = await reachable(page, i, sel);
          if (problem) inside.push(problem);
        }
        if (i === 1) await screenshot(page, `owner-grid-manage-open-${label}`);
        await tile.locator('details.file-manage > summary').click();
      }
      assert.deepEqual(inside, [], 'the opened controls are inside the tile and take the click');

      // The keyboard: Tab reaches Manage, Enter opens it, Tab reaches the limit field next.
      const summary = page.locator('#files li[data-file-id]').nth(1).locator('details.file-manage > summary');
      await summary.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.classList.contains('file-limit')),
        true,
        'Tab from an opened Manage reaches its limit field',
      );
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
