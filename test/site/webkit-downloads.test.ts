import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { By, type WebDriver } from 'selenium-webdriver';
import { DOWNLOAD_RETRY } from '../../src/transfer/retry.js';
import { until as poll } from '../support/poll.js';
import { bytes, writeTemp } from './browser.js';
import { answerUntilPaused, ChunkOutage, chunkNumber, chunkRequest, useGatedServer } from './gated.js';
import { MIB, MISSING, SKIP, sha256, shot, startWebKit, waitFor } from './webkit.js';

/**
 * Issue #24 item 2 in WebKit, through the gate (test/support/gate.ts) in front of the server: a
 * limited download says when it waits during an outage and then completes; an outage longer than
 * the retry policy pauses it, and "Try again now" finishes it, counted once, through the service
 * worker and in memory (as download-outage.test.ts and download-memory.test.ts do in Chromium); and a failed one-download download started again by hand
 * goes on with the ticket the page kept (a second count would be refused).
 */
describe('site in WebKit: a download waits, pauses, and a retry by hand keeps its ticket', {
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

  async function folderWithFile(limit: string, content: Buffer, name: string): Promise<string> {
    const owner = await site.browser.session();
    try {
      await owner.get(`${site.gate.url}/`);
      await waitFor(owner, '#new-mode');
      await owner.findElement(By.css('#new-mode option[value="send"]')).click();
      // '' for no limit (WebKitWebDriver refuses to send no keys).
      if (limit) await owner.findElement(By.css('#new-limit')).sendKeys(limit);
      await owner.findElement(By.css('button[type=submit]')).click();
      await waitFor(owner, '#role[data-role="owner"]', 60_000);
      await owner.findElement(By.css('#file-input')).sendKeys(await writeTemp(site.dir, name, content));
      await waitFor(owner, '#upload-status[data-state="complete"]', 60_000);
      return await owner.getCurrentUrl();
    } finally {
      await owner.quit();
    }
  }

  /** The saved file whose name starts with `stem` and has `size` bytes (a failed try may leave another). */
  const saved = (stem: string, size: number) =>
    poll(
      `${stem} saved`,
      async () => {
        const entries = readdirSync(site.browser.downloads).filter((e) => e.startsWith(stem));
        if (entries.some((e) => /(\.part|download)$/.test(e))) return false; // Firefox .part, WebKit .wkdownload
        for (const e of entries)
          if ((await stat(join(site.browser.downloads, e))).size === size)
            return readFile(join(site.browser.downloads, e));
        return false;
      },
      120_000,
    );

  /**
   * The pause of download-outage.test.ts in WebKit: a one-download file of three 5 MiB chunks; the
   * first chunk goes through, then every chunk request is answered 503 with `Retry-After: 0` (retried
   * at once, so the policy's 31 attempts are used up in seconds) until the page says "Paused"; then
   * the server is back and "Try again now" finishes it. Each chunk passes the gate once, the gate sees
   * one POST …/downloads (one count), and the file is used up after a reload. `args` are the
   * MiniBrowser's options; `path` the download path the page must report: through the service
   * worker, or in memory (the Blob being assembled waits in the page, web/src/workers/pauses.ts).
   */
  async function pausedThenTryAgain(args: string[], path: 'service-worker' | 'memory', name: string) {
    const content = bytes(12 * MIB + 9, 47);
    const link = await folderWithFile('1', content, `${name}.bin`);
    const visitor = await site.browser.session(args);
    try {
      await site.browser.clearDownloads();
      await visitor.get(link);
      assert.equal(
        await visitor.executeScript('return "serviceWorker" in navigator'),
        path === 'service-worker',
        'service workers are on in this browser, or off',
      );
      await waitFor(visitor, '#files li .count[data-left="1"]', 60_000);
      // Every chunk after the first is answered 503 until the download pauses; the gate counts the
      // download's tickets (POST …/downloads) and the chunk requests it lets through.
      const outage = new ChunkOutage(site.gate);
      await visitor.findElement(By.css('#files li button.download')).click();
      // Two chunks are in flight (the one handed on and one fetched ahead), each with its own retries:
      // the line is read once both have been answered past the policy's attempts.
      const attempts = DOWNLOAD_RETRY.retries + 1;
      const { text: line } = await answerUntilPaused(
        outage,
        async () => {
          const [state, text] = (await visitor.executeScript(
            "const e = document.getElementById('download-status'); return [e.dataset.downloadState || '', e.textContent];",
          )) as [string, string];
          return { state, text };
        },
        () => outage.answered.size === 2 && [...outage.answered.values()].every((count) => count >= attempts),
      );
      assert.deepEqual([...outage.answered.keys()].sort(), [2, 3], 'the later chunks were cut');
      assert.match(
        line,
        /^Paused: the server cannot be reached\. The download stays open and tries again on its own in \d+ s/,
      );
      assert.equal((await visitor.findElements(By.css('#download-status button.try-again'))).length, 1);
      // The paused line as a person sees it. The MiniBrowser's window goes no narrower than its
      // toolbar (a page of about 447 px), so "phone" is that width: under the site's 30rem phone
      // breakpoint, as the owner's grid test checks.
      for (const [size, width, height] of [
        ['desktop', 1280, 800],
        ['phone', 390, 844],
      ] as const) {
        await visitor.manage().window().setRect({ width, height });
        await shot(visitor, `download-paused-${path}-${size}`);
      }
      // The server is back (a request still held, of a chunk fetched ahead, goes on too); the person
      // asks for the download to go on.
      outage.end();
      await visitor.findElement(By.css('#download-status button.try-again')).click();
      assert.equal(sha256(await saved(name, content.length)), sha256(content), 'the paused download completed');
      await waitFor(visitor, `#download-status[data-download-path="${path}"]`, 60_000);
      if (path === 'service-worker') await waitFor(visitor, '#download-status[data-download-state="done"]', 60_000);
      assert.deepEqual(
        Object.fromEntries(outage.through),
        { 1: 1, 2: 1, 3: 1 },
        'each chunk went out once: nothing fetched twice',
      );
      assert.equal(outage.starts, 1, 'one count');
      await visitor.navigate().refresh();
      await waitFor(visitor, '#files li .count[data-left="0"]', 60_000);
      assert.equal(await visitor.findElement(By.css('#files li button.download')).isEnabled(), false);
    } finally {
      site.gate.release();
      await visitor.quit();
    }
  }

  test('an outage longer than the retry policy pauses the download; "Try again now" finishes it, counted once (service worker)', async () => {
    await pausedThenTryAgain([], 'service-worker', 'wk-paused');
  });

  test('without service workers (WebKit feature ServiceWorkers off) the in-memory download pauses the same way', async () => {
    await pausedThenTryAgain(['--features=-ServiceWorkers'], 'memory', 'wk-memory-paused');
  });

  test("a refusal still fails at once, in the server's words, through the service worker and in memory", async () => {
    // As in download-outage-firefox.test.ts, where Firefox's Response.blob() put its own "The
    // operation was aborted." in place of the reason: a later chunk answered 404 ends the download.
    const content = bytes(12 * MIB + 5, 74);
    const link = await folderWithFile('', content, 'wk-refused.bin');
    for (const [args, path] of [
      [[], 'service-worker'],
      [['--features=-ServiceWorkers'], 'memory'],
    ] as const) {
      const visitor = await site.browser.session([...args]);
      try {
        await visitor.get(link);
        await waitFor(visitor, '#files li button.download', 60_000);
        site.gate.hold((req) => (chunkNumber(req) ?? 1) > 1);
        await visitor.findElement(By.css('#files li button.download')).click();
        await poll('a later chunk at the gate', () => site.gate.held().length > 0, 60_000);
        site.gate.answer(404);
        await waitFor(visitor, '#download-status[data-download-state="failed"]', 60_000);
        const [got, text] = (await visitor.executeScript(
          "const e = document.getElementById('download-status'); return [e.dataset.downloadPath || '', e.textContent];",
        )) as [string, string];
        assert.equal(got, path);
        assert.match(text, /^Download failed: answered 404 by the test's gate/, `${path}: the server's words`);
      } finally {
        site.gate.release();
        await visitor.quit();
      }
    }
  });

  /**
   * A kept ticket outlives its page (as download-reload.test.ts in Chromium): a one-download file's
   * download fails (its chunk refused with a 404, which is not retried); the page is loaded again and
   * its Download goes on with the ticket kept in the page's storage. The gate counts the download
   * starts (`POST …/downloads`): one in all. `again` loads the page again.
   */
  async function keptOverReload(
    args: string[],
    path: 'service-worker' | 'memory',
    name: string,
    again: (visitor: WebDriver, link: string) => Promise<void>,
  ) {
    const content = bytes(3 * MIB + 13, path === 'memory' ? 76 : 75);
    const link = await folderWithFile('1', content, `${name}.bin`);
    let starts = 0;
    let holding = false;
    const watchGate = () =>
      site.gate.hold((req) => {
        if (req.method === 'POST' && /\/files\/[^/]+\/downloads$/.test(req.url ?? '')) starts++;
        return holding && chunkRequest(req);
      });
    const visitor = await site.browser.session(args);
    try {
      await site.browser.clearDownloads();
      watchGate();
      await visitor.get(link);
      await waitFor(visitor, '#files li .count[data-left="1"]', 60_000);
      holding = true;
      await visitor.findElement(By.css('#files li button.download')).click();
      await poll('the chunk request at the gate', () => site.gate.held().length > 0, 60_000);
      holding = false;
      site.gate.answer(404);
      watchGate();
      await waitFor(visitor, '#download-status[data-download-state="failed"]', 60_000);
      await again(visitor, link);
      const count = await waitFor(visitor, '#files li .count[data-left="0"]', 60_000);
      await visitor.wait(
        async () => (await count.getText()).includes('your interrupted download can still be finished'),
        30_000,
        'the row says the interrupted download can be finished',
      );
      const button = visitor.findElement(By.css('#files li button.download'));
      assert.equal(await button.isEnabled(), true, 'the kept ticket keeps Download enabled after the reload');
      await button.click();
      assert.equal(sha256(await saved(name, content.length)), sha256(content), 'delivered byte for byte');
      await waitFor(visitor, `#download-status[data-download-path="${path}"]`, 60_000);
      assert.equal(starts, 1, 'the download after the reload asked for no second count');
      // Delivered: the ticket is forgotten; the file is used up.
      await visitor.navigate().refresh();
      await waitFor(visitor, '#files li .count[data-left="0"]', 60_000);
      assert.equal(await visitor.findElement(By.css('#files li button.download')).isEnabled(), false);
      assert.equal(starts, 1);
    } finally {
      site.gate.release();
      await visitor.quit();
    }
  }

  test('a failed one-download download goes on after a reload with its kept ticket (service worker)', async () => {
    await keptOverReload([], 'service-worker', 'wk-reload-sw', (visitor) => visitor.navigate().refresh());
  });

  test('in memory, the link opened again after the page was left goes on with the kept ticket', async () => {
    await keptOverReload(['--features=-ServiceWorkers'], 'memory', 'wk-reload-memory', async (visitor, link) => {
      await visitor.get(`${site.gate.url}/`);
      await waitFor(visitor, '#new-mode');
      await visitor.get(link);
    });
  });

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

  test('an outage: the line says it waits, with the attempt; the one download then completes', async () => {
    const content = bytes(2 * MIB + 5, 71);
    const link = await folderWithFile('1', content, 'wk-wait.bin');
    const visitor = await site.browser.session();
    try {
      await site.browser.clearDownloads();
      await visitor.get(link);
      await waitFor(visitor, '#files li .count[data-left="1"]', 60_000);
      site.gate.hold(chunkRequest);
      await visitor.findElement(By.css('#files li button.download')).click();
      const told = await poll(
        'the page says it waits',
        async () => {
          if (site.gate.held().length > 0) {
            site.gate.drop();
            site.gate.hold(chunkRequest);
          }
          const [state, line] = (await visitor.executeScript(
            "const e = document.getElementById('download-status'); return [e.dataset.downloadState || '', e.textContent];",
          )) as [string, string];
          return state === 'waiting' && line;
        },
        120_000,
      );
      assert.match(
        told,
        /^Waiting: (the server did not answer|this device is offline); retrying in \d+ s \(attempt \d+\)/,
      );
      site.gate.release();
      assert.equal(sha256(await saved('wk-wait', content.length)), sha256(content));
      await waitFor(visitor, '#download-status[data-download-state="done"]', 60_000);
    } finally {
      site.gate.release();
      await visitor.quit();
    }
  });

  test('a failed one-download download, started again by hand, goes on with its kept ticket', async () => {
    const content = bytes(MIB + 13, 72);
    const link = await folderWithFile('1', content, 'wk-again.bin');
    const visitor = await site.browser.session();
    try {
      await site.browser.clearDownloads();
      await visitor.get(link);
      await waitFor(visitor, '#files li .count[data-left="1"]', 60_000);
      site.gate.hold(chunkRequest);
      await visitor.findElement(By.css('#files li button.download')).click();
      await poll('the chunk request at the gate', () => site.gate.held().length > 0, 60_000);
      site.gate.answer(404);
      await waitFor(visitor, '#download-status[data-download-state="failed"]', 60_000);
      await waitFor(visitor, '#files li .count[data-left="0"]', 60_000);
      await waitFor(visitor, '#files li button.download:not([disabled])');
      await visitor.findElement(By.css('#files li button.download')).click();
      assert.equal(sha256(await saved('wk-again', content.length)), sha256(content));
      await waitFor(visitor, '#download-status[data-download-state="done"]', 60_000);
    } finally {
      site.gate.release();
      await visitor.quit();
    }
  });
});
