import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'puppeteer-core';
import en from '../../web/src/i18n/messages/en.json' with { type: 'json' };
import { until } from '../support/poll.js';
import { bytes } from './browser.js';
import {
  type Firefox,
  launchFirefox,
  MISSING,
  SKIP,
  sendFolderWithFile,
  sha256,
  shot,
  useGatedFirefox,
} from './firefox.js';
import { answerUntilPaused, ChunkOutage, chunkRequest } from './gated.js';

/**
 * Issue #24 item 2 in Firefox, as download-reload.test.ts checks it in Chromium: a kept ticket
 * outlives its page. A one-download file's download fails (its chunk refused) or pauses (every chunk
 * answered 503 past the policy's attempts) before a byte is delivered; after a reload its Download
 * goes on with the same ticket: the server is asked
 * for no second count (every `POST …/downloads` is counted at the gate) and the file arrives byte for
 * byte. Through the service worker and in a Firefox without service workers (in memory).
 */
describe('site: a kept ticket survives a reload in Firefox', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useGatedFirefox('webfolder-reload-ff-');

  /** The gate counts download starts, and holds the requests `cut` names (none when omitted). */
  function watchGate(starts: { n: number }, cut: (req: IncomingMessage) => boolean = () => false) {
    suite.gate.hold((req) => {
      if (req.method === 'POST' && /\/files\/[^/]+\/downloads$/.test(req.url ?? '')) starts.n++;
      return cut(req);
    });
  }

  const downloadLine = (page: Page) =>
    page.$eval('#download-status', (e) => ({
      state: (e as HTMLElement).dataset.downloadState ?? '',
      text: e.textContent ?? '',
    }));

  /** The page after a reload or in a new tab: the used-up file's Download goes on with the kept ticket. */
  async function goesOn(
    firefox: Firefox,
    page: Page,
    name: string,
    content: Buffer,
    counted: () => number,
    path: string,
  ) {
    await page.waitForFunction(
      (words) => document.querySelector('#files li .count[data-left="0"]')?.textContent?.includes(words) ?? false,
      { timeout: 30_000 },
      en['files.retryHeld'],
    );
    const enabled = await page.$eval('#files li button.download', (b) => !(b as HTMLButtonElement).disabled);
    assert.ok(enabled, 'the kept ticket keeps Download enabled after the reload');
    await shot(page, `download-kept-after-reload-${path}`);
    await page.click('#files li button.download');
    const saved = await firefox.downloadedAgain(name, content.length);
    assert.equal(sha256(saved), sha256(content), 'delivered byte for byte');
    await page.waitForSelector(`#download-status[data-download-path="${path}"]`);
    assert.equal(counted(), 1, 'the download after the reload asked for no second count');
    // Delivered: the ticket is forgotten; the file is used up.
    await page.reload();
    await page.waitForSelector('#files li .count[data-left="0"]');
    await page.waitForSelector('#files li button.download[disabled]');
    assert.equal(counted(), 1);
  }

  test('through the service worker: a failed download, then a reload, goes on with its ticket', async () => {
    const { gate } = suite;
    const content = bytes(3 * 1024 * 1024 + 13, 81);
    const link = await sendFolderWithFile(suite, '1', content, 'ff-reload-sw.bin');
    // A Firefox of its own: it tells the failed download with a window-modal alert that WebDriver BiDi
    // does not see, which would block every new tab of the suite's Firefox after this test.
    const firefox = await launchFirefox(join(suite.dir, 'sw'));
    const page = await firefox.page();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const starts = { n: 0 };
    try {
      await firefox.clearDownloads();
      await page.goto(link);
      await page.waitForSelector('#files li .count[data-left="1"]');
      watchGate(starts, chunkRequest);
      await page.click('#files li button.download');
      await until('the chunk request at the gate', () => gate.held().length > 0, 60_000);
      gate.answer(404);
      watchGate(starts);
      await page.waitForSelector('#download-status[data-download-state="failed"]', { timeout: 60_000 });
      // Firefox reports the refused download's frame as a page error ("A ServiceWorker intercepted the
      // request and encountered an unexpected error"): that is the failure made here, not a problem.
      errors.splice(0, errors.length, ...errors.filter((e) => !/A ServiceWorker intercepted the request/.test(e)));
      await page.reload();
      await goesOn(firefox, page, 'ff-reload-sw.bin', content, () => starts.n, 'service-worker');
      assert.deepEqual(errors, []);
    } finally {
      gate.release();
      await firefox.close();
    }
  });

  test('in memory: a paused download, then a reload, goes on with its ticket', async () => {
    const { gate } = suite;
    const content = bytes(3 * 1024 * 1024 + 17, 82);
    const link = await sendFolderWithFile(suite, '1', content, 'ff-reload-memory.bin');
    const firefox = await launchFirefox(join(suite.dir, 'memory'), { 'dom.serviceWorkers.enabled': false });
    try {
      const page = await firefox.page();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // Firefox may tell a failed download with an alert: dismissed (it is the browser's, not the page's).
      page.on('dialog', (d) => void d.dismiss().catch(() => {}));
      await page.goto(link);
      await page.waitForSelector('#files li .count[data-left="1"]');
      // Every chunk answered 503 (retried at once) until the policy gives up: the download pauses
      // before a byte is delivered, and the tab is closed while it waits.
      const outage = new ChunkOutage(gate, new Set());
      await page.click('#files li button.download');
      await answerUntilPaused(outage, () => downloadLine(page));
      await page.waitForSelector('#download-status[data-download-path="memory"]');
      outage.end();
      // The page is reloaded while the download waits: the paused download ends with it.
      await page.reload();
      await goesOn(firefox, page, 'ff-reload-memory.bin', content, () => outage.starts, 'memory');
      assert.deepEqual(errors, []);
    } finally {
      gate.release();
      await firefox.close();
    }
  });
});
