import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFolder, writeTemp } from './browser.js';
import type { Site } from './driver.js';
import { png } from './media.js';

/** `sel` in tile `index` lies inside the tile and a click at its centre reaches it: null, or what is wrong. */
const reachable = (index: number, sel: string) => `((index, sel) => {
  const li = document.querySelectorAll('#files li[data-file-id]')[index];
  const el = li.querySelector(sel);
  if (!el) return 'tile ' + index + ': no ' + sel;
  el.scrollIntoView({ block: 'center' });
  const box = el.getBoundingClientRect();
  const tile = li.getBoundingClientRect();
  const inside = box.left >= tile.left - 0.5 && box.right <= tile.right + 0.5 &&
    box.top >= tile.top - 0.5 && box.bottom <= tile.bottom + 0.5;
  if (!inside) return 'tile ' + index + ': ' + sel + ' ' + JSON.stringify(box) + ' is outside its tile ' + JSON.stringify(tile);
  if (box.right > document.documentElement.clientWidth + 0.5) return 'tile ' + index + ': ' + sel + ' runs off the page';
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (!hit || !(el === hit || el.contains(hit)))
    return 'tile ' + index + ': a click on ' + sel + ' hits ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing');
  return null;
})(${index}, ${JSON.stringify(sel)})`;

/**
 * The owner's grid of images, written once (owner-grid.test.ts runs it in Chromium, webkit.test.ts
 * in WebKit): every tile's "Manage" and the controls it opens lie inside the tile and are what a
 * pointer at their centre hits (not the neighbour's picture), at a desktop and a phone size, and the
 * keyboard reaches them. Call inside `eachEngine`, with the suite's site.
 */
export function ownerGridScenario(site: Site): void {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`${label}: every tile's Manage and its controls are inside the tile and take the click`, async () => {
      const folder = await createFolder(site.url, 'share');
      const paths: string[] = [];
      for (let i = 0; i < 5; i++)
        paths.push(await writeTemp(site.dir, `${label}-photo-${i}.png`, png(400, 300, [40 * i, 90, 160])));
      const page = await site.browser.page({ viewport, phone: label === 'phone' });
      try {
        await page.goto(folder.folderUrl);
        await page.waitFor('#file-input', { state: 'attached', timeoutMs: 60_000 });
        const inner = await page.evaluate<number>('document.documentElement.clientWidth');
        // WebKit's MiniBrowser goes no narrower than its toolbar (a page of about 447 px): the phone
        // check holds when the page is under the site's 30rem (480 px) phone breakpoint.
        if (label === 'desktop') assert.ok(Math.abs(inner - 1280) <= 20, `desktop: the page is ${inner} px wide`);
        else assert.ok(inner < 480, `phone: the page (${inner} px) is in the phone layout, under 30rem`);
        await page.pickFiles('#file-input', paths);
        await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 120_000 });
        await page.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });
        await page.waitFor('#files.grid li[data-file-id]:nth-of-type(5)', { timeoutMs: 60_000 });

        const failures: string[] = [];
        for (let i = 0; i < 5; i++) {
          const problem = await page.evaluate<string | null>(reachable(i, 'details.file-manage > summary'));
          if (problem) failures.push(problem);
        }
        assert.deepEqual(failures, [], 'every Manage is inside its tile and takes the click');

        const inside: string[] = [];
        for (let i = 0; i < 5; i++) {
          const manage = `#files li[data-file-id]:nth-of-type(${i + 1}) details.file-manage`;
          // A real click at the summary's centre: it opens this tile's controls.
          await page.click(`${manage} > summary`);
          assert.equal(await page.evaluate(`document.querySelector(${JSON.stringify(manage)}).open`), true);
          for (const sel of ['input.file-limit', 'button.save-limit', 'button.delete-file']) {
            const problem = await page.evaluate<string | null>(reachable(i, sel));
            if (problem) inside.push(problem);
          }
          if (i === 1) await page.screenshot(`owner-grid-manage-open-${label}`);
          await page.click(`${manage} > summary`);
        }
        assert.deepEqual(inside, [], 'the opened controls are inside the tile and take the click');

        // The keyboard: Enter on a focused Manage opens it, Tab reaches the limit field next.
        await page.focus('#files li[data-file-id]:nth-of-type(2) details.file-manage > summary');
        await page.press('Enter');
        await page.press('Tab');
        assert.equal(
          await page.evaluate(`document.activeElement?.classList.contains('file-limit')`),
          true,
          'Tab from an opened Manage reaches its limit field',
        );
        assert.deepEqual(page.problems, []);
      } finally {
        await page.close();
      }
    });
  }
}
