import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { DOWNLOAD_RETRY } from '../../src/transfer/retry.js';
import de from '../../web/src/i18n/messages/de.json' with { type: 'json' };
import en from '../../web/src/i18n/messages/en.json' with { type: 'json' };
import { until } from '../support/poll.js';
import { bytes } from './browser.js';
import { type Driver, type Engine, type LaunchOptions, useGatedSite } from './driver.js';
import { answerUntilPaused, ChunkOutage, chunkNumber } from './gated.js';
import { dismissDialogs, downloadLine, sendFolder } from './scenes.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const MIB = 1024 * 1024;

/** What a run is: the browser's colour scheme, the site's language in it, the download's path. */
interface Run {
  readonly scheme: 'light' | 'dark';
  readonly lang: 'en' | 'de';
  readonly path: 'service-worker' | 'memory';
}

/**
 * The runs of each engine: through the service worker in a light and a dark browser, and without
 * service workers (in memory) in German. WebKitWebDriver sets no colour scheme or locale, so WebKit
 * runs both paths in its own light, English browser.
 */
function runsOf(engine: Engine): readonly Run[] {
  if (engine.name === 'webkit')
    return [
      { scheme: 'light', lang: 'en', path: 'service-worker' },
      { scheme: 'light', lang: 'en', path: 'memory' },
    ];
  return [
    { scheme: 'light', lang: 'en', path: 'service-worker' },
    { scheme: 'dark', lang: 'en', path: 'service-worker' },
    { scheme: 'light', lang: 'de', path: 'memory' },
  ];
}

/** A browser of `engine` for `run` (in WebKit: only its service-worker switch, see `runsOf`). */
function launchOptions(engine: Engine, run: Run): LaunchOptions {
  const workers = run.path === 'memory' ? { serviceWorkers: false } : {};
  if (engine.name === 'webkit') return workers;
  return { colorScheme: run.scheme, locale: run.lang === 'de' ? 'de-DE' : 'en-US', ...workers };
}

/** The paused line in `lang`, from its catalog: the words with any number of seconds, then the button. */
function pausedLine(lang: Run['lang']): RegExp {
  const m = { en, de }[lang];
  const [before, after] = m['files.paused'].split('{seconds}').map((p) => p.replace(/[.*+?^$()[\]{}|\\]/g, '\\$&'));
  return new RegExp(`^${before}\\d+${after} ${m['files.tryAgainNow']}$`);
}

/** The row of a file whose one download is the one paused on this page. */
const IN_PROGRESS = { en: 'your download is in progress (see above)', de: 'Ihr Download läuft (siehe oben)' } as const;

/**
 * A download paused by a long outage, written once for every engine (registered by
 * download-outage.test.ts for Chromium and Firefox and by webkit-downloads.test.ts for WebKit, which
 * runs on its own): an outage longer than the retry policy pauses a one-download file's download
 * inside the same browser download; "Try again now" finishes it from the chunk it stopped at, each
 * chunk fetched once, counted once. The gate answers chunk requests 503 with `Retry-After: 0`
 * (retried at once, so the policy's 31 attempts are used up in seconds, not in the minutes an outage
 * of cut connections takes). Each run in a browser of its own (a colour scheme and a language are the
 * browser's in Firefox, the service-worker switch a launch option in WebKit). A refusal still fails
 * at once. Call inside `eachEngine`.
 */
export function pausedDownloadScenario(engine: Engine): void {
  const site = useGatedSite(engine);
  let runs = 0;

  async function pausedThenTriedAgain(browser: Driver, run: Run): Promise<void> {
    const { scheme, lang, path } = run;
    // Three 5 MiB chunks: the first goes through, the later ones are answered 503 until the policy
    // gives up. A download that failed and was started again would fetch chunk 1 again (and count).
    const content = bytes(12 * MIB + 9, 47 + runs++);
    const name = `paused-${path}-${scheme}.bin`;
    const link = await sendFolder(site, '1', content, name);
    const visitor = await browser.page({ viewport: { width: 1280, height: 800 } });
    dismissDialogs(visitor);
    try {
      await visitor.goto(link);
      await visitor.waitFor('#files li .count[data-left="1"]', { timeoutMs: 60_000 });
      assert.equal(
        await visitor.evaluate(`matchMedia('(prefers-color-scheme: dark)').matches`),
        scheme === 'dark',
        `the page is in the ${scheme} colour scheme`,
      );
      // WebKit's ServiceWorkers feature switch takes the API away (Playwright's and Firefox's switches
      // may leave the object while no worker registers): the page has no service worker to use.
      if (engine.name === 'webkit')
        assert.equal(
          await visitor.evaluate(`'serviceWorker' in navigator`),
          path === 'service-worker',
          'service workers are on in this browser, or off',
        );
      // Every chunk after the first is answered 503 until the download pauses; the gate counts the
      // download's tickets (POST …/downloads) and the chunk requests it lets through.
      const outage = new ChunkOutage(site.gate);
      const saved = visitor.download(name, content.length);
      saved.catch(() => {}); // awaited below; a failure before that is reported by the poll
      await visitor.click('#files li button.download');
      // Two chunks are in flight (the one handed on and one fetched ahead), each with its own retries:
      // the line is read once both have been answered past the policy's attempts.
      const attempts = DOWNLOAD_RETRY.retries + 1;
      const paused = await answerUntilPaused(
        outage,
        downloadLine(visitor),
        () => outage.answered.size === 2 && [...outage.answered.values()].every((count) => count >= attempts),
      );
      assert.deepEqual([...outage.answered.keys()].sort(), [2, 3], 'the later chunks were cut');
      assert.ok(outage.answeredTotal > 31, `more 503s than the policy's attempts: ${outage.answeredTotal}`);
      assert.match(paused.text, pausedLine(lang));
      if (lang === 'en')
        assert.match(
          paused.text,
          /^Paused: the server cannot be reached\. The download stays open and tries again on its own in \d+ s/,
        );
      assert.equal(await visitor.count('#download-status button.try-again'), 1);
      assert.equal(
        await visitor.attribute('#download-status', 'data-download-path'),
        path,
        `this one downloads ${path === 'memory' ? 'in memory' : 'through the service worker'}`,
      );
      // The file's row: its one download is this very download, so it says so (not "limit reached",
      // which reads as locked out); no second Download, and Download all has nothing to add.
      await visitor.waitFor('#files li .count[data-left="0"]');
      assert.equal(await visitor.text('#files li .count[data-left="0"]'), IN_PROGRESS[lang]);
      assert.notEqual(await visitor.attribute('#files li button.download', 'disabled'), null);
      assert.notEqual(await visitor.attribute('#download-all', 'disabled'), null);
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        // No touch emulation: in Firefox puppeteer turns it on by reloading the page, which would end
        // the paused state being photographed. WebKit's MiniBrowser window goes no narrower than its
        // toolbar (a page of about 447 px): still under the site's 30rem phone breakpoint.
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        await visitor.look({ viewport });
        await visitor.waitFor('#download-status[data-download-state="paused"] button.try-again');
        await visitor.screenshot(`download-paused-${path === 'memory' ? 'memory-' : ''}${lang}-${size}-${scheme}`);
      }
      // The server is back (a request still held, of a chunk fetched ahead, goes on too); the person
      // asks for the download to go on.
      outage.end();
      await visitor.click('#download-status button.try-again');
      assert.equal(sha256(await saved), sha256(content), 'the paused download completed, byte for byte');
      // Done: "downloaded" (through the service worker), or a line with no state left (in memory).
      await visitor.waitFor(
        path === 'memory'
          ? '#download-status[data-download-path="memory"]:not([data-download-state])'
          : '#download-status[data-download-state="done"]',
        { state: 'attached', timeoutMs: 60_000 },
      );
      assert.deepEqual(
        Object.fromEntries(outage.through),
        { 1: 1, 2: 1, 3: 1 },
        'each chunk went out once: nothing fetched twice',
      );
      assert.equal(outage.starts, 1, 'one count');
      // Delivered: used up for this visitor and any other.
      await visitor.reload();
      await visitor.waitFor('#files li .count[data-left="0"]', { timeoutMs: 60_000 });
      assert.notEqual(await visitor.attribute('#files li button.download', 'disabled'), null);
      assert.deepEqual(visitor.problems, []);
    } finally {
      site.gate.release();
      await visitor.close();
    }
  }

  for (const run of runsOf(engine))
    test(`an outage longer than the retry policy pauses the download; "Try again now" finishes it, counted once (${run.path}, ${run.scheme}, ${run.lang})`, async () => {
      const browser = await site.launch(launchOptions(engine, run));
      try {
        await pausedThenTriedAgain(browser, run);
      } finally {
        await browser.close();
      }
    });

  test("a refusal still fails at once, in the server's words, through the service worker and in memory", async () => {
    // Firefox rejected `new Response(stream).blob()` with its own AbortError when the stream failed,
    // so that a download in memory said "The operation was aborted." instead of why it failed.
    const content = bytes(12 * MIB + 5, 50);
    const link = await sendFolder(site, '', content, 'refused.bin');
    // A browser for each path: Firefox tells a failed download through its service worker with a
    // window-modal alert that WebDriver BiDi does not see, which would block the suite's browser.
    for (const path of ['service-worker', 'memory'] as const) {
      const browser = await site.launch(path === 'memory' ? { serviceWorkers: false } : {});
      try {
        const visitor = await browser.page();
        dismissDialogs(visitor);
        try {
          await visitor.goto(link);
          await visitor.waitFor('#files li button.download', { timeoutMs: 60_000 });
          site.gate.hold((req) => (chunkNumber(req) ?? 1) > 1);
          await visitor.click('#files li button.download');
          await until('a later chunk at the gate', () => site.gate.held().length > 0, 60_000);
          site.gate.answer(404);
          await visitor.waitFor('#download-status[data-download-state="failed"]', { timeoutMs: 60_000 });
          assert.equal(await visitor.attribute('#download-status', 'data-download-path'), path);
          assert.match(
            (await downloadLine(visitor)()).text,
            /^Download failed: answered 404 by the test's gate/,
            `${path}: the server's words`,
          );
        } finally {
          await visitor.close();
        }
      } finally {
        site.gate.release();
        await browser.close();
      }
    }
  });
}
