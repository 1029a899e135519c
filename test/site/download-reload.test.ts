import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { until } from '../support/poll.js';
import { bytes, downloadBytes, SKIP, screenshot, watch } from './browser.js';
import { eachEngine } from './driver.js';
import { chromium, chromiumSite } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { answerUntilPaused, ChunkOutage, chunkRequest, useGatedChromium, watchGate } from './gated.js';
import { downloadLine, sendFolder } from './scenes.js';
import { keptTicketScenario } from './scenes-reload.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A kept ticket outlives its page. A one-download file's download fails (its chunk is
 * refused by the gate, a failure the retry policy does not retry); the recipient reloads the page, or
 * closes the tab and opens the link again, and the Download goes on with the same ticket: the server
 * counts nothing more (the `POST …/downloads` the gate sees) and the
 * file arrives byte for byte. Through the service worker and in memory (service workers blocked).
 */
describe('site: a kept ticket survives a new tab, and a paused download a reload (Chromium)', { skip: SKIP }, () => {
  const site = useGatedChromium({}, 'webfolder-reload-');

  /** The visitor's first attempt at the one download: refused at its chunk, so it fails. */
  async function failOnce(page: Page, link: string, starts: { n: number }) {
    await page.goto(link);
    await page.locator('#files li .count[data-left="1"]').waitFor();
    watchGate(site.gate, starts, chunkRequest);
    await page.locator('#files li button.download').click();
    await until('the chunk request at the gate', () => site.gate.held().length > 0);
    site.gate.answer(404);
    watchGate(site.gate, starts);
    await page.locator('#download-status[data-download-state="failed"]').waitFor();
  }

  const HELD = {
    en: 'download limit reached: your interrupted download can still be finished',
    de: 'Download-Grenze erreicht: Ihr unterbrochener Download kann noch abgeschlossen werden',
  } as const;

  /** The page after a reload or a new tab: the used-up file's Download goes on with the kept ticket. */
  async function goesOn(
    page: Page,
    content: Buffer,
    starts: { readonly n: number },
    path: string,
    lang: keyof typeof HELD,
  ) {
    await page.locator('#files li .count[data-left="0"]', { hasText: HELD[lang] }).waitFor();
    // What the person sees on coming back (screenshots, light and dark, desktop and phone).
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await screenshot(page, `download-kept-after-reload-${path}-${lang}-${size}-${scheme}`);
      }
    }
    await page.setViewportSize({ width: 1100, height: 900 });
    const button = page.locator('#files li button.download');
    assert.equal(await button.isDisabled(), false, 'the kept ticket keeps Download enabled after the reload');
    const { content: saved } = await downloadBytes(page, () => button.click());
    assert.equal(sha256(saved), sha256(content), 'delivered byte for byte');
    await page.locator(`#download-status[data-download-path="${path}"]`).waitFor();
    assert.equal(starts.n, 1, 'the download after the reload asked for no second count');
    // Delivered: the ticket is forgotten, here and in the page's storage; the file is used up.
    await page.reload();
    await page.locator('#files li .count[data-left="0"]').waitFor();
    assert.equal(await page.locator('#files li button.download').isDisabled(), true);
    assert.equal(starts.n, 1);
  }

  test('in memory (German): a failed download, the tab closed and the link opened again, goes on with its ticket', async () => {
    const content = bytes(3 * 1024 * 1024 + 17, 72);
    const link = await sendFolder(chromiumSite(site), '1', content, 'reload-memory.bin');
    const ctx = await site.browser.newContext({
      acceptDownloads: true,
      serviceWorkers: 'block',
      locale: 'de-DE',
      viewport: { width: 1100, height: 900 },
    });
    const starts = { n: 0 };
    const first = await ctx.newPage();
    const problems = watch(first);
    await failOnce(first, link, starts);
    await first.close();
    const again = await ctx.newPage();
    const later = watch(again);
    await again.goto(link);
    await goesOn(again, content, starts, 'memory', 'de');
    assert.deepEqual([...problems, ...later], []);
    await ctx.close();
  });

  test('a kept ticket that a running download uses is not taken by a second tab', async () => {
    const content = bytes(3 * 1024 * 1024 + 19, 73);
    const link = await sendFolder(chromiumSite(site), '1', content, 'in-use.bin');
    const ctx = await site.browser.newContext({
      acceptDownloads: true,
      serviceWorkers: 'block',
      viewport: { width: 1100, height: 900 },
    });
    const starts = { n: 0 };
    // Tab 1's download runs (in memory), its chunk held at the gate: its ticket is kept, and in use.
    const first = await ctx.newPage();
    const problems = watch(first);
    await first.goto(link);
    await first.locator('#files li .count[data-left="1"]').waitFor();
    watchGate(site.gate, starts, chunkRequest);
    const got = downloadBytes(first, () => first.locator('#files li button.download').click());
    got.catch(() => {}); // awaited below
    await until('the chunk request at the gate', () => site.gate.held().length > 0);
    // Tab 2 sees the kept ticket, but one ticket is one copy: its Download asks for a count of its
    // own, which the one-download file refuses.
    const second = await ctx.newPage();
    const later = watch(second);
    await second.goto(link);
    await second.locator('#files li .count[data-left="0"]').waitFor();
    await second.locator('#files li button.download').click();
    await second.locator('#download-status[data-download-state="failed"]').waitFor();
    assert.equal(starts.n, 2, 'the second tab asked for a count instead of taking the running ticket');
    // Tab 1's download goes on, byte for byte, with its ticket alone.
    site.gate.release();
    const { content: saved } = await got;
    assert.equal(sha256(saved), sha256(content));
    assert.deepEqual([...problems, ...later], []);
    await ctx.close();
  });

  test('through the service worker: paused, then a reload: the paused line comes back and the download finishes, counted once', async () => {
    // Three 5 MiB chunks; the later ones are answered 503 (Retry-After: 0) until the download pauses.
    const content = bytes(12 * 1024 * 1024 + 23, 74);
    const link = await sendFolder(chromiumSite(site), '1', content, 'paused-reload.bin');
    const ctx = await site.browser.newContext({ acceptDownloads: true, viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(link);
    await page.locator('#files li .count[data-left="1"]').waitFor();
    // Every chunk after the first is answered 503 until the download pauses.
    const outage = new ChunkOutage(site.gate);
    const got = downloadBytes(page, () => page.locator('#files li button.download').click());
    got.catch(() => {}); // awaited below
    const status = page.locator('#download-status');
    await answerUntilPaused(outage, downloadLine(page));
    // The person reloads the page: the service worker's download is still paused, and its line is back.
    await page.reload();
    await page.locator('#download-status[data-download-state="paused"][data-download-path="service-worker"]').waitFor();
    assert.match((await status.textContent()) ?? '', /^Paused: the server cannot be reached\./);
    // The row: the worker holds the download (and its ticket's Web Lock), so the row says it is in
    // progress and offers no Download, which would ask a second count of a one-download file.
    await page.locator('#files li .count[data-left="0"]', { hasText: 'your download is in progress' }).waitFor();
    assert.equal(await page.locator('#files li button.download').isDisabled(), true);
    assert.equal(await page.locator('#download-all').isDisabled(), true);
    await screenshot(page, 'download-paused-after-reload-en-desktop-light');
    outage.end();
    await page.getByRole('button', { name: 'Try again now' }).click();
    const { content: saved } = await got;
    assert.equal(sha256(saved), sha256(content), 'delivered byte for byte');
    await page.locator('#download-status[data-download-state="done"]').waitFor();
    assert.deepEqual(Object.fromEntries(outage.through), { 1: 1, 2: 1, 3: 1 }, 'each chunk went out once');
    assert.equal(outage.starts, 1, 'one count');
    // Delivered: the reloaded page forgets the ticket; the file is used up.
    await page.reload();
    await page.locator('#files li .count[data-left="0"]').waitFor();
    assert.equal(await page.locator('#files li button.download').isDisabled(), true);
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});

/**
 * A failed or paused download goes on after a reload with its kept ticket, in Chromium and Firefox:
 * the scenario is written once in scenes-reload.ts (webkit-downloads.test.ts runs it in WebKit).
 */
eachEngine('site: a kept ticket survives a reload', [chromium, firefox], keptTicketScenario);
