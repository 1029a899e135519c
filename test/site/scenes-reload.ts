import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { until } from '../support/poll.js';
import { bytes } from './browser.js';
import { type DriverPage, type Engine, useGatedSite } from './driver.js';
import { answerUntilPaused, ChunkOutage, chunkRequest, watchGate } from './gated.js';
import { dismissDialogs, downloadLine, problemsBesidesFailedDownload, sendFolder } from './scenes.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const MIB = 1024 * 1024;

/**
 * A kept ticket outlives its page, written once for every engine (registered by
 * download-reload.test.ts for Chromium and Firefox and by webkit-downloads.test.ts for WebKit, which
 * runs on its own): a one-download file's download fails (its chunk refused) or pauses (every chunk
 * answered 503 past the policy's attempts) before a byte is delivered; after a reload, or after the
 * page was left and the link opened again, its Download goes on with the same ticket: the server is
 * asked for no second count (every `POST …/downloads` is counted at the gate) and the file arrives
 * byte for byte. Through the service worker, and in memory (service workers off). Each test's
 * visitor has a browser of its own: Firefox tells a failed download with a window-modal alert that
 * WebDriver BiDi does not see, and opens no new tab after it. Call inside `eachEngine`.
 */
export function keptTicketScenario(engine: Engine): void {
  const site = useGatedSite(engine);

  /** The visitor's first attempt at the one download: refused at its chunk (not retried), so it fails. */
  async function failOnce(page: DriverPage, starts: { n: number }): Promise<void> {
    await page.waitFor('#files li .count[data-left="1"]', { timeoutMs: 60_000 });
    watchGate(site.gate, starts, chunkRequest);
    await page.click('#files li button.download');
    await until('the chunk request at the gate', () => site.gate.held().length > 0, 60_000);
    site.gate.answer(404);
    watchGate(site.gate, starts);
    await page.waitFor('#download-status[data-download-state="failed"]', { timeoutMs: 60_000 });
  }

  const HELD = 'download limit reached: your interrupted download can still be finished';

  /** The page after a reload: the used-up file's Download goes on with the kept ticket. */
  async function goesOn(page: DriverPage, name: string, content: Buffer, counted: () => number, path: string) {
    await page.waitUntil(
      `document.querySelector('#files li .count[data-left="0"]')?.textContent.includes(${JSON.stringify(HELD)})`,
      60_000,
    );
    // What the person sees on coming back (screenshots; light and dark where the engine sets them).
    if (engine.name === 'chromium') {
      for (const scheme of ['light', 'dark'] as const) {
        for (const [size, viewport] of [
          ['desktop', { width: 1280, height: 800 }],
          ['phone', { width: 390, height: 844 }],
        ] as const) {
          await page.look({ viewport, colorScheme: scheme });
          await page.screenshot(`download-kept-after-reload-${path}-en-${size}-${scheme}`);
        }
      }
      await page.look({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    } else {
      await page.screenshot(`download-kept-after-reload-${path}`);
    }
    assert.equal(
      await page.attribute('#files li button.download', 'disabled'),
      null,
      'the kept ticket keeps Download enabled after the reload',
    );
    const saved = page.download(name, content.length);
    await page.click('#files li button.download');
    assert.equal(sha256(await saved), sha256(content), 'delivered byte for byte');
    await page.waitFor(`#download-status[data-download-path="${path}"]`, { state: 'attached', timeoutMs: 60_000 });
    assert.equal(counted(), 1, 'the download after the reload asked for no second count');
    // Delivered: the ticket is forgotten, here and in the page's storage; the file is used up.
    await page.reload();
    await page.waitFor('#files li .count[data-left="0"]', { timeoutMs: 60_000 });
    await page.waitFor('#files li button.download[disabled]');
    assert.equal(counted(), 1);
  }

  test('through the service worker: a failed download, then a reload, goes on with its ticket', async () => {
    const content = bytes(3 * MIB + 13, 71);
    const link = await sendFolder(site, '1', content, 'reload-sw.bin');
    const browser = await site.launch();
    const starts = { n: 0 };
    try {
      const page = await browser.page();
      dismissDialogs(page);
      watchGate(site.gate, starts);
      await page.goto(link);
      await failOnce(page, starts);
      await page.reload();
      await goesOn(page, 'reload-sw.bin', content, () => starts.n, 'service-worker');
      assert.deepEqual(problemsBesidesFailedDownload(page), []);
    } finally {
      site.gate.release();
      await browser.close();
    }
  });

  test('in memory: a failed download, the page left and its link opened again, goes on with its ticket', async () => {
    const content = bytes(3 * MIB + 13, 76);
    const link = await sendFolder(site, '1', content, 'reload-left.bin');
    const browser = await site.launch({ serviceWorkers: false });
    const starts = { n: 0 };
    try {
      const page = await browser.page();
      dismissDialogs(page);
      watchGate(site.gate, starts);
      await page.goto(link);
      await failOnce(page, starts);
      // The person goes to the home page, then opens the link again in the same tab.
      await page.goto(`${site.url}/`);
      await page.waitFor('#new-mode');
      await page.goto(link);
      await goesOn(page, 'reload-left.bin', content, () => starts.n, 'memory');
      assert.deepEqual(problemsBesidesFailedDownload(page), []);
    } finally {
      site.gate.release();
      await browser.close();
    }
  });

  test('in memory: a paused download, then a reload, goes on with its ticket', async () => {
    const content = bytes(3 * MIB + 17, 82);
    const link = await sendFolder(site, '1', content, 'reload-memory.bin');
    const browser = await site.launch({ serviceWorkers: false });
    try {
      const page = await browser.page();
      dismissDialogs(page);
      await page.goto(link);
      await page.waitFor('#files li .count[data-left="1"]', { timeoutMs: 60_000 });
      // Every chunk answered 503 (retried at once) until the policy gives up: the download pauses
      // before a byte is delivered.
      const outage = new ChunkOutage(site.gate, new Set());
      await page.click('#files li button.download');
      await answerUntilPaused(outage, downloadLine(page));
      await page.waitFor('#download-status[data-download-path="memory"]');
      outage.end();
      // The page is reloaded while the download waits: the paused download ends with it.
      await page.reload();
      await goesOn(page, 'reload-memory.bin', content, () => outage.starts, 'memory');
      assert.deepEqual(page.problems, []);
    } finally {
      site.gate.release();
      await browser.close();
    }
  });
}
