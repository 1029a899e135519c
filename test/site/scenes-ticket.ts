import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { until } from '../support/poll.js';
import { bytes } from './browser.js';
import { type Engine, useGatedSite } from './driver.js';
import { chunkRequest, watchGate } from './gated.js';
import { dismissDialogs, downloadLine, problemsBesidesFailedDownload, sendFolder } from './scenes.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * One download per ticket, written once for every engine (registered by download-ticket.test.ts for
 * Chromium and Firefox and by webkit-downloads.test.ts for WebKit, which runs on its own), through
 * the gate (which cuts, answers or counts the page's requests): a limited download says when it
 * waits during an outage and completes; one that failed is started again by hand with its kept
 * ticket (a one-download file: a second count would be refused); the viewer's preview and its
 * Download are one download. Each `POST …/downloads` the gate sees is one count. Call inside
 * `eachEngine`.
 */
export function oneTicketScenario(engine: Engine): void {
  const site = useGatedSite(engine);

  test('an outage: the line says it waits, with the attempt; the one download then completes', async () => {
    const content = bytes(2 * 1024 * 1024 + 3, 61);
    const link = await sendFolder(site, '1', content, 'wait.bin');
    const visitor = await site.browser.page();
    try {
      await visitor.goto(link);
      await visitor.waitFor('#files li .count[data-left="1"]', { timeoutMs: 60_000 });
      site.gate.hold(chunkRequest);
      const saved = visitor.download('wait.bin', content.length);
      await visitor.click('#files li button.download');
      let told = '';
      await until(
        'the page says it waits',
        async () => {
          if (site.gate.held().length > 0) {
            site.gate.drop();
            site.gate.hold(chunkRequest);
          }
          const now = await downloadLine(visitor)();
          if (now.state === 'waiting') told = now.text;
          return now.state === 'waiting';
        },
        120_000,
      );
      assert.match(
        told,
        /^Waiting: (the server did not answer|this device is offline); retrying in \d+ s \(attempt \d+\)/,
      );
      await visitor.screenshot('download-waiting');
      site.gate.release();
      assert.equal(sha256(await saved), sha256(content));
      await visitor.waitFor('#download-status[data-download-state="done"]', { timeoutMs: 60_000 });
      assert.deepEqual(visitor.problems, []);
    } finally {
      site.gate.release();
      await visitor.close();
    }
  });

  test('a failed one-download download, started again by hand, goes on with its ticket: counted once', async () => {
    const content = bytes(3 * 1024 * 1024 + 7, 51);
    const link = await sendFolder(site, '1', content, 'again.bin');
    // A browser of its own: Firefox tells a failed download with a window-modal alert that WebDriver
    // BiDi does not see, and opens no new tab after it.
    const browser = await site.launch();
    const visitor = await browser.page();
    dismissDialogs(visitor);
    const starts = { n: 0 };
    try {
      await visitor.goto(link);
      await visitor.waitFor('#files li .count[data-left="1"]', { timeoutMs: 60_000 });
      // The first attempt fails for good (a refusal the retry policy does not retry; an outage longer
      // than DOWNLOAD_RETRY ends the same way, after minutes).
      watchGate(site.gate, starts, chunkRequest);
      await visitor.click('#files li button.download');
      await until('the chunk request at the gate', () => site.gate.held().length > 0, 60_000);
      site.gate.answer(404);
      watchGate(site.gate, starts);
      await visitor.waitFor('#download-status[data-download-state="failed"]', { timeoutMs: 60_000 });
      // Counted once: no download is left for anyone, yet this page may finish its own.
      await visitor.waitUntil(
        `document.querySelector('#files li .count[data-left="0"]')?.textContent.includes('download limit reached: your interrupted download can still be finished')`,
      );
      assert.equal(
        await visitor.attribute('#files li button.download', 'disabled'),
        null,
        'the kept ticket keeps Download enabled',
      );
      const saved = visitor.download('again.bin', content.length);
      await visitor.click('#files li button.download');
      assert.equal(sha256(await saved), sha256(content));
      assert.equal(starts.n, 1, 'the retry by hand asked for no second count');
      // Delivered: the ticket is done with, and the used-up file's Download is disabled again.
      await visitor.waitFor('#download-status[data-download-state="done"]', { timeoutMs: 60_000 });
      await visitor.waitFor('#files li button.download[disabled]');
      assert.deepEqual(problemsBesidesFailedDownload(visitor), []);
    } finally {
      site.gate.release();
      await browser.close();
    }
  });

  test("the viewer's preview and its Download share one download: open then save counts one", async () => {
    const text = 'read me, then keep me';
    const link = await sendFolder(site, '2', Buffer.from(text), 'keep.txt');
    const starts = { n: 0 };
    watchGate(site.gate, starts);
    const visitor = await site.browser.page();
    try {
      await visitor.goto(link);
      await visitor.waitFor('#files li .count[data-left="2"]', { timeoutMs: 60_000 });
      await visitor.click('#files button.open');
      await visitor.click('#viewer-open');
      await visitor.waitFor('#viewer-text');
      assert.equal(await visitor.renderedText('#viewer-text'), text);
      const saved = visitor.download('keep.txt', Buffer.byteLength(text));
      await visitor.click('#viewer-download');
      assert.equal((await saved).toString(), text);
      await visitor.waitFor('#download-status[data-download-path="viewer"]');
      await visitor.click('#viewer-close');
      assert.equal(starts.n, 1, 'open then save: one download started');
      await visitor.reload();
      await visitor.waitFor('#files li .count[data-left="1"]', { timeoutMs: 60_000 });
      assert.deepEqual(visitor.problems, []);
    } finally {
      site.gate.release();
      await visitor.close();
    }
  });
}
