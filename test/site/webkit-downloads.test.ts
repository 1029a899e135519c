import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { By } from 'selenium-webdriver';
import { until as poll } from '../support/poll.js';
import { bytes, writeTemp } from './browser.js';
import { eachEngine } from './driver.js';
import { webkit } from './driver-webkit.js';
import { useGatedServer } from './gated.js';
import { pausedDownloadScenario } from './scenes-pause.js';
import { keptTicketScenario } from './scenes-reload.js';
import { oneTicketScenario } from './scenes-ticket.js';
import { MIB, MISSING, SKIP, startWebKit, waitFor } from './webkit.js';

/**
 * The download scenarios in WebKit, through the gate (test/support/gate.ts) in front of the server,
 * each written once in a scenes module and run here with `eachEngine(…, [webkit], …)` (this file runs
 * on its own, before the rest: WebKit's MiniBrowser stalled beside the 4 GiB ZIP64 test). The
 * "did not finish" note of an upload resumed after a reload is checked here in WebKit only.
 */
describe('site in WebKit: the "did not finish" note of an upload', {
  skip: SKIP || Boolean(MISSING),
}, () => {
  // The gated server (./gated.ts) with WebKit, its profiles and downloads under the suite's directory.
  const site = useGatedServer(
    {},
    {
      prefix: 'webfolder-webkit-gate-',
      open: (dir) => startWebKit(join(dir, 'webkit')),
    },
  );

  test('the "did not finish" note after a reload goes while that upload resumes', async () => {
    const uploads = (req: { url?: string }) => (req.url ?? '').startsWith('/v2/uploads');
    const content = bytes(2 * 5 * MIB, 73);
    const path = await writeTemp(site.dir, 'wk-resumes.bin', content);
    const owner = await site.browser.session();
    try {
      await owner.get(`${site.gate.url}/`);
      await waitFor(owner, '#new-mode');
      await owner.findElement(By.css('#new-mode option[value="share"]')).click();
      await owner.findElement(By.css('button[type=submit]')).click();
      await waitFor(owner, '#role[data-role="owner"]', 60_000);
      // An upload that sends nothing, cancelled: after a reload the page says it did not finish.
      site.gate.hold(uploads);
      await owner.findElement(By.css('#file-input')).sendKeys(path);
      await poll('the upload at the gate', () => site.gate.held().length > 0, 60_000);
      await owner.findElement(By.css('#cancel-upload')).click();
      await waitFor(owner, '#upload-status[data-state="cancelled"]', 60_000);
      site.gate.drop();
      await owner.navigate().refresh();
      await waitFor(owner, '#resume-note', 60_000);
      assert.match(await owner.findElement(By.css('#resume-note')).getText(), /wk-resumes\.bin/);

      // The same file again: while its first request is held on its way, the note is gone.
      site.gate.hold(uploads);
      await owner.findElement(By.css('#file-input')).sendKeys(path);
      await poll('the resumed upload at the gate', () => site.gate.held().length > 0, 60_000);
      assert.equal(
        (await owner.findElements(By.css('#resume-note'))).length,
        0,
        'no "did not finish" while it resumes',
      );
      site.gate.release();
      await waitFor(owner, '#upload-status[data-state="complete"]', 120_000);
      assert.equal((await owner.findElements(By.css('#resume-note'))).length, 0, 'nothing left unfinished');
    } finally {
      site.gate.release();
      await owner.quit();
    }
  });
});

/**
 * The pause and "Try again now" through the service worker and, with WebKit's ServiceWorkers feature
 * off, in memory, and a refusal that fails at once on both paths: written once in scenes-pause.ts
 * (download-outage.test.ts runs it in Chromium and Firefox).
 */
eachEngine('site in WebKit: a download paused by a long outage', [webkit], pausedDownloadScenario);

/**
 * A failed download that goes on after a reload (service worker), or after the page was left and the
 * link opened again (in memory), and a paused one after a reload, each with the ticket the page kept:
 * written once in scenes-reload.ts (download-reload.test.ts runs it in Chromium and Firefox).
 */
eachEngine('site in WebKit: a kept ticket survives a reload', [webkit], keptTicketScenario);

/**
 * The waiting line through an outage, a failed one-download download started again by hand with its
 * kept ticket, and the viewer's preview and Download as one download: written once in
 * scenes-ticket.ts (download-ticket.test.ts runs it in Chromium and Firefox).
 */
eachEngine('site in WebKit: one download per ticket', [webkit], oneTicketScenario);
