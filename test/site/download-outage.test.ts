import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { until } from '../support/poll.js';
import { bytes, downloadBytes, newContext, SKIP, screenshot, watch } from './browser.js';
import { eachEngine } from './driver.js';
import { chromium, chromiumSite } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { chunkNumber, chunkRequest, useGatedChromium } from './gated.js';
import { sendFolder } from './scenes.js';
import { pausedDownloadScenario } from './scenes-pause.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A one-download file whose download meets an outage. The download was counted
 * when it started; its ticket lets it go on, so the page must keep trying through the outage rather
 * than give up and leave the recipient locked out. The outage is made by the gate, not by waiting for
 * a time: every chunk request fails, more times than the old retry policy tried, first cut (no
 * answer at all), then answered 503 with `Retry-After: 0` (a proxy whose server is away), which the
 * policy retries at once, so that the attempts past the backoff's first waits take seconds, not the
 * minutes of waits that cut connections alone would.
 */
describe('site: a limited download survives an outage, cut and answered (Chromium)', { skip: SKIP }, () => {
  const site = useGatedChromium({}, 'webfolder-outage-');

  test('failed 20 times in a row, cut then answered 503, the one download completes, byte for byte, and is then used up', async () => {
    const content = bytes(3 * 1024 * 1024 + 5, 41);
    const link = await sendFolder(chromiumSite(site), '1', content, 'once.bin');

    const visitorCtx = await newContext(site.browser);
    const visitor = await visitorCtx.newPage();
    const problems = watch(visitor);
    await visitor.goto(link);
    await visitor.locator('#files li .count[data-left="1"]').waitFor();
    site.gate.hold(chunkRequest);
    const got = downloadBytes(visitor, () => visitor.locator('#files li button.download').click());
    // The outage: each request for the chunk fails once it reaches the gate. The old policy gave up
    // after 9 attempts (DEFAULT_RETRY: 8 retries); Chromium itself may send a request cut on a reused
    // connection once more, so 20 failures are more than 9 attempts in any case. The first CUT of
    // them are cut, the rest answered 503 (retried at once).
    const FAILURES = 20;
    const CUT = 5;
    // What the person reads while the retries wait, so that an outage does not look like a dead
    // download: the service worker's and the crypto workers' retry policy tells the page each wait,
    // with its attempt.
    const status = visitor.locator('#download-status');
    const told = new Set<string>();
    for (let failure = 1; failure <= FAILURES; failure++) {
      await until(
        `chunk request ${failure} at the gate`,
        async () => {
          // State, attempt and words read at once (the line moves on when the wait ends).
          const [state, line] = await status.evaluate((e) => [
            e.dataset.downloadState,
            `${e.dataset.attempt}: ${e.textContent}`,
          ]);
          if (state === 'waiting') told.add(line!);
          return site.gate.held().length > 0;
        },
        120_000,
      );
      if (failure <= CUT) site.gate.drop();
      else site.gate.answer(503, { 'retry-after': '0' });
      if (failure < FAILURES) site.gate.hold(chunkRequest);
    }
    const { content: saved } = await got;
    assert.equal(sha256(saved), sha256(content), 'the download completed after the outage');
    assert.ok(told.size >= 2, `the page said it was waiting, attempt by attempt: ${[...told].join(' | ')}`);
    const cut = [...told].filter((line) => / (the server did not answer|this device is offline);/.test(line));
    assert.ok(cut.length >= 2, `the page said it had no answer, attempt by attempt: ${[...told].join(' | ')}`);
    for (const line of told)
      assert.match(
        line,
        /^\d+: Waiting: (the server did not answer|this device is offline|the server is temporarily unavailable); retrying in \d+ s \(attempt \d+\)/,
      );
    await visitor.locator('#download-status[data-download-state="done"]').waitFor();
    // The download was delivered: the file is used up for this visitor and for any other.
    await visitor.reload();
    await visitor.locator('#files li .count[data-left="0"]').waitFor();
    assert.equal(await visitor.locator('#files li button.download').isDisabled(), true);
    assert.deepEqual(problems, []);
    await visitorCtx.close();
  });

  test('paused while the chunk fetched ahead is still retrying: the line stays paused (German, screenshots)', async () => {
    // Three 5 MiB chunks; chunks 2 and 3 are fetched at once. Chunk 2 is answered 503 (Retry-After: 0)
    // until its retry policy gives up and the download pauses; chunk 3 is held meanwhile, then answered
    // 503 with Retry-After: 1 while the download is paused, so that its policy tells the page its waits.
    const content = bytes(12 * 1024 * 1024 + 3, 53);
    const link = await sendFolder(chromiumSite(site), '1', content, 'sibling.bin');
    const ctx = await site.browser.newContext({
      locale: 'de-DE',
      acceptDownloads: true,
      viewport: { width: 1280, height: 800 },
    });
    const visitor = await ctx.newPage();
    const problems = watch(visitor);
    await visitor.goto(link);
    await visitor.locator('#files li .count[data-left="1"]').waitFor();
    const later = (req: Parameters<typeof chunkNumber>[0]) => (chunkNumber(req) ?? 0) >= 2;
    const is = (n: number) => (req: Parameters<typeof chunkNumber>[0]) => chunkNumber(req) === n;
    site.gate.hold(later);
    const got = downloadBytes(visitor, () => visitor.locator('#files li button.download').click());
    got.catch(() => {}); // awaited below
    const status = visitor.locator('#download-status');
    const state = () => status.evaluate((e) => [e.dataset.downloadState, e.textContent ?? ''] as const);
    await until(
      'the download paused',
      async () => {
        site.gate.answerWhere(is(2), 503, { 'retry-after': '0' });
        const [now, text] = await state();
        if (now === 'failed') throw new Error(`the download failed instead of pausing: ${text}`);
        return now === 'paused';
      },
      120_000,
    );
    // Chunk 3 is still inside its retry policy: each 503 makes it wait (and say so), 3 times over.
    const seen = new Set<string>();
    for (let round = 1; round <= 3; round++) {
      await until(`chunk 3's request ${round} at the gate`, async () => {
        const [now, text] = await state();
        seen.add(`${now}: ${text}`);
        return site.gate.held().some(is(3));
      });
      site.gate.answerWhere(is(3), 503, { 'retry-after': '1' });
      // Its wait is told (a message from the worker) long before its next request reaches the gate.
      await until(`chunk 3's retry ${round} under way`, async () => {
        const [now, text] = await state();
        seen.add(`${now}: ${text}`);
        return site.gate.held().some(is(3));
      });
    }
    const [now, text] = await state();
    seen.add(`${now}: ${text}`);
    for (const line of seen)
      assert.match(line, /^paused: Angehalten: /, `the line stayed paused: ${[...seen].join(' | ')}`);
    const tryAgain = visitor.locator('#download-status button.try-again');
    assert.equal(await tryAgain.isVisible(), true);
    const count = visitor.locator('#files li .count[data-left="0"]');
    await count.waitFor();
    assert.equal(await count.textContent(), 'Ihr Download läuft (siehe oben)');
    assert.equal(await visitor.locator('#files li button.download').isDisabled(), true);
    for (const scheme of ['light', 'dark'] as const) {
      await visitor.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        await visitor.setViewportSize(viewport);
        await screenshot(visitor, `download-paused-row-de-${size}-${scheme}`);
      }
    }
    // The server is back: "Try again now" finishes the download.
    site.gate.release();
    await tryAgain.click();
    const { content: saved } = await got;
    assert.equal(sha256(saved), sha256(content), 'the paused download completed');
    await visitor.locator('#download-status[data-download-state="done"]').waitFor();
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('the server asks to slow down, or is unavailable, mid-download: the line says which and counts its wait down (screenshots, en and de)', async () => {
    const link = await sendFolder(chromiumSite(site), '', bytes(200_000, 43), 'slow.bin');
    // 429 is the server asking to slow down; 503 is a server that answered it cannot serve now (a
    // restart, a proxy in front of it): not "the server did not answer", which is for no answer at all.
    for (const [code, why, lang, locale, words] of [
      [429, 'slow', 'en', 'en-US', /^Waiting: the server asked to slow down; retrying in \d+ s \(attempt 1\)/],
      [429, 'slow', 'de', 'de-DE', /^Warten: Der Server bittet um eine Pause; neuer Versuch in \d+ s \(Versuch 1\)/],
      [
        503,
        'unavailable',
        'en',
        'en-US',
        /^Waiting: the server is temporarily unavailable; retrying in \d+ s \(attempt 1\)/,
      ],
      [
        503,
        'unavailable',
        'de',
        'de-DE',
        /^Warten: Der Server ist vorübergehend nicht verfügbar; neuer Versuch in \d+ s \(Versuch 1\)/,
      ],
    ] as const) {
      const ctx = await site.browser.newContext({
        locale,
        acceptDownloads: true,
        viewport: { width: 1280, height: 800 },
      });
      const visitor = await ctx.newPage();
      const problems = watch(visitor);
      await visitor.goto(link);
      await visitor.locator('#files li button.download').waitFor();
      site.gate.hold(chunkRequest);
      await visitor.locator('#files li button.download').click();
      await until('the chunk request at the gate', () => site.gate.held().length > 0);
      // Retry-After (on a 429 or a 503): the retry policy waits exactly that long, and the page says so.
      site.gate.answer(code, { 'retry-after': '300' });
      const status = visitor.locator('#download-status[data-download-state="waiting"]');
      await status.waitFor();
      assert.match((await status.textContent()) ?? '', words);
      for (const scheme of ['light', 'dark'] as const) {
        await visitor.emulateMedia({ colorScheme: scheme });
        for (const [size, viewport] of [
          ['desktop', { width: 1280, height: 800 }],
          ['phone', { width: 390, height: 844 }],
        ] as const) {
          await visitor.setViewportSize(viewport);
          await status.waitFor();
          await screenshot(visitor, `download-waiting-${why}-${lang}-${size}-${scheme}`);
        }
      }
      assert.deepEqual(problems, []);
      await ctx.close();
    }
  });
});

/**
 * The pause and "Try again now", and a refusal that fails at once, in Chromium and Firefox: the
 * scenario is written once in scenes-pause.ts (webkit-downloads.test.ts runs it in WebKit).
 */
eachEngine('site: a download paused by a long outage', [chromium, firefox], pausedDownloadScenario);
