import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'puppeteer-core';
import de from '../../web/src/i18n/messages/de.json' with { type: 'json' };
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
import { answerUntilPaused, ChunkOutage, chunkNumber } from './gated.js';

/**
 * Issue #24 item 2 in Firefox (ESR over WebDriver BiDi), as download-outage.test.ts checks it in
 * Chromium: an outage longer than the retry policy pauses a one-download file's download inside the
 * same browser download (through the service worker); "Try again now" finishes it from the chunk it
 * stopped at, each chunk fetched once, counted once. The outage is made by the gate, which answers
 * chunk requests 503 with `Retry-After: 0` (retried at once, so the policy's attempts are used up in
 * seconds). Run in a light and in a dark Firefox (WebDriver BiDi cannot emulate the colour scheme:
 * the dark one is launched with Firefox's own content colour-scheme preference), and in a Firefox
 * without service workers, where the page downloads in memory and pauses the same way (German).
 */
describe('site: a download paused by a long outage in Firefox', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useGatedFirefox('webfolder-outage-ff-');

  const MIB = 1024 * 1024;
  const status = (page: Page) =>
    page.$eval('#download-status', (e) => ({
      state: (e as HTMLElement).dataset.downloadState ?? '',
      path: (e as HTMLElement).dataset.downloadPath ?? '',
      text: e.textContent ?? '',
    }));

  /** What a run is: the Firefox's colour scheme, the site's language in it, the download's path. */
  interface Run {
    readonly scheme: 'light' | 'dark';
    readonly lang: 'en' | 'de';
    readonly path: 'service-worker' | 'memory';
  }
  /** The paused line in `lang`, from its catalog: the words with any number of seconds, then the button. */
  const pausedLine = (lang: Run['lang']) => {
    const m = { en, de }[lang];
    const [before, after] = m['files.paused'].split('{seconds}').map((p) => p.replace(/[.*+?^$()[\]{}|\\]/g, '\\$&'));
    return new RegExp(`^${before}\\d+${after} ${m['files.tryAgainNow']}$`);
  };

  /** Each run's file differs (its bytes are seeded by the run's number). */
  let firefoxRuns = 0;
  async function pausedThenTriedAgain(firefox: Firefox, run: Run) {
    const { gate } = suite;
    const { scheme, lang, path } = run;
    // Three 5 MiB chunks: the first goes through, the later ones are answered 503 until the policy
    // gives up. A download that failed and was started again would fetch chunk 1 again (and count).
    const content = bytes(12 * MIB + 9, 40 + firefoxRuns++);
    const name = `ff-paused-${path}-${scheme}.bin`;
    const link = await sendFolderWithFile(suite, '1', content, name);
    const visitor = await firefox.page();
    const errors: string[] = [];
    visitor.on('pageerror', (e) => errors.push(String(e)));
    // Firefox may tell a failed download with an alert: dismissed (it is the browser's, not the page's).
    visitor.on('dialog', (d) => void d.dismiss().catch(() => {}));
    try {
      await firefox.clearDownloads();
      await visitor.goto(link);
      await visitor.waitForSelector('#files li .count[data-left="1"]');
      assert.equal(
        await visitor.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches),
        scheme === 'dark',
        `the page is in the ${scheme} colour scheme`,
      );
      // Every chunk after the first is answered 503 until the download pauses; the gate counts the
      // download's tickets (POST …/downloads) and the chunk requests it lets through.
      const outage = new ChunkOutage(gate);
      await visitor.click('#files li button.download');
      await answerUntilPaused(outage, () => status(visitor));
      assert.ok(outage.answeredTotal > 31, `more 503s than the policy's attempts: ${outage.answeredTotal}`);
      const paused = await status(visitor);
      assert.match(paused.text, pausedLine(lang));
      assert.equal(
        paused.path,
        path,
        `Firefox downloads this one ${path === 'memory' ? 'in memory' : 'through the service worker'}`,
      );
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        // No touch emulation: in Firefox puppeteer turns it on by reloading the page, which would end the
        // paused state being photographed.
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        await visitor.setViewport(viewport);
        await visitor.waitForSelector('#download-status[data-download-state="paused"] button.try-again');
        await shot(visitor, `download-paused-${path === 'memory' ? 'memory-' : ''}${lang}-${size}-${scheme}`);
      }
      // The server is back (a request still held, of a chunk fetched ahead, goes on too); the person
      // asks for the download to go on.
      outage.end();
      await visitor.click('#download-status button.try-again');
      const saved = await firefox.downloaded(name, content.length);
      assert.equal(sha256(saved), sha256(content), 'the paused download completed, byte for byte');
      // Done: "downloaded" (through the service worker), or a line with no state left (in memory).
      await visitor.waitForSelector(
        path === 'memory'
          ? '#download-status[data-download-path="memory"]:not([data-download-state])'
          : '#download-status[data-download-state="done"]',
        { timeout: 60_000 },
      );
      assert.deepEqual(
        Object.fromEntries(outage.through),
        { 1: 1, 2: 1, 3: 1 },
        'each chunk went out once: nothing fetched twice',
      );
      assert.equal(outage.starts, 1, 'one count');
      // Delivered: used up for this visitor and any other.
      await visitor.reload();
      await visitor.waitForSelector('#files li .count[data-left="0"]');
      assert.equal(await visitor.$eval('#files li button.download', (b) => (b as HTMLButtonElement).disabled), true);
      assert.deepEqual(errors, []);
    } finally {
      gate.release();
      await visitor.browserContext().close();
    }
  }

  test('an outage longer than the retry policy pauses the download; "Try again now" finishes it, counted once', async () => {
    await pausedThenTriedAgain(suite.firefox, { scheme: 'light', lang: 'en', path: 'service-worker' });
  });

  test('the same in a dark Firefox (screenshots of the paused line, dark)', async () => {
    const dark = await launchFirefox(join(suite.dir, 'dark'), {
      'layout.css.prefers-color-scheme.content-override': 0,
    });
    try {
      await pausedThenTriedAgain(dark, { scheme: 'dark', lang: 'en', path: 'service-worker' });
    } finally {
      await dark.close();
    }
  });

  test('the same without a service worker: the download in memory pauses and goes on (in German)', async () => {
    // Firefox without service workers (as its private windows may be): `navigator.serviceWorker` is
    // not there, so the page decrypts into memory and saves a Blob.
    const memory = await launchFirefox(join(suite.dir, 'memory'), {
      'dom.serviceWorkers.enabled': false,
      'intl.accept_languages': 'de-DE, de',
    });
    try {
      await pausedThenTriedAgain(memory, { scheme: 'light', lang: 'de', path: 'memory' });
    } finally {
      await memory.close();
    }
  });

  test("a refusal still fails at once, in the server's words, through the service worker and in memory", async () => {
    // Firefox rejected `new Response(stream).blob()` with its own AbortError when the stream failed,
    // so that a download in memory said "The operation was aborted." instead of why it failed.
    const content = bytes(12 * MIB + 5, 50);
    const link = await sendFolderWithFile(suite, '', content, 'ff-refused.bin');
    // A Firefox for each path: Firefox tells a failed download through its service worker with a
    // window-modal alert that WebDriver BiDi does not see, which would block the suite's Firefox.
    for (const [path, prefs] of [
      ['service-worker', {}],
      ['memory', { 'dom.serviceWorkers.enabled': false }],
    ] as const) {
      const firefox = await launchFirefox(join(suite.dir, `refused-${path}`), prefs);
      try {
        const visitor = await firefox.page();
        await visitor.goto(link);
        await visitor.waitForSelector('#files li button.download');
        suite.gate.hold((req) => (chunkNumber(req) ?? 1) > 1);
        await visitor.click('#files li button.download');
        await until('a later chunk at the gate', () => suite.gate.held().length > 0, 60_000);
        suite.gate.answer(404);
        await visitor.waitForSelector('#download-status[data-download-state="failed"]', { timeout: 60_000 });
        const failed = await status(visitor);
        assert.equal(failed.path, path);
        assert.match(failed.text, /^Download failed: answered 404 by the test's gate/, `${path}: the server's words`);
      } finally {
        suite.gate.release();
        await firefox.close();
      }
    }
  });
});
