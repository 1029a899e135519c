import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { bytes, downloadBytes, SKIP, screenshot, watch } from './browser.js';
import { chromiumSite } from './driver-chromium.js';
import { answerUntilPaused, ChunkOutage, type GatedSite, useGatedChromium } from './gated.js';
import { downloadLine, sendFolder } from './scenes.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A visitor's page without a service worker (as in Firefox's private windows): downloads run in memory. */
async function memoryVisitor(site: GatedSite, locale = 'en-US') {
  const ctx = await site.browser.newContext({
    acceptDownloads: true,
    serviceWorkers: 'block',
    locale,
    viewport: { width: 1280, height: 800 },
  });
  const page = await ctx.newPage();
  return { ctx, page, problems: watch(page) };
}

/**
 * The page's own download path (no service worker) survives an outage without spending the file's
 * download: an outage longer than the retry policy pauses the download as the service worker's does
 * (web/src/workers/pauses.ts), the Blob being assembled stays in the page, and it goes on from the
 * chunk it stopped at: each chunk is fetched once, so the ticket's byte budget (the file once + 1
 * MiB) holds, and it is counted once.
 */
describe('site: a download in memory pauses and goes on (Chromium, service workers blocked)', { skip: SKIP }, () => {
  const site = useGatedChromium({}, 'webfolder-memory-');

  for (const [lang, locale, words, again] of [
    [
      'en',
      'en-US',
      /^Paused: the server cannot be reached\. The download stays open and tries again on its own in \d+ s/,
      'Try again now',
    ],
    [
      'de',
      'de-DE',
      /^Angehalten: Der Server ist nicht erreichbar\. Der Download bleibt offen und versucht es in \d+ s von selbst erneut/,
      'Jetzt erneut versuchen',
    ],
  ] as const) {
    test(`an outage longer than the policy pauses it; "Try again now" finishes it, each chunk once, counted once (${lang})`, async () => {
      // Three 5 MiB chunks: the first goes through, then every chunk request is answered 503 with
      // `Retry-After: 0` (retried at once) until the policy's 31 attempts (DOWNLOAD_RETRY) are spent.
      const content = bytes(12 * 1024 * 1024 + 11, lang === 'en' ? 61 : 62);
      const link = await sendFolder(chromiumSite(site), '1', content, `memory-${lang}.bin`);
      const { ctx, page: visitor, problems } = await memoryVisitor(site, locale);
      await visitor.goto(link);
      await visitor.locator('#files li .count[data-left="1"]').waitFor();
      // Every chunk after the first is answered 503 until the download pauses.
      const outage = new ChunkOutage(site.gate);
      const got = downloadBytes(visitor, () => visitor.locator('#files li button.download').click());
      got.catch(() => {}); // awaited below; a failure before that is reported by the poll
      const status = visitor.locator('#download-status');
      await answerUntilPaused(outage, downloadLine(visitor));
      assert.ok(outage.answeredTotal > 31, `more 503s than the policy's attempts: ${outage.answeredTotal}`);
      await visitor.locator('#download-status[data-download-path="memory"][data-download-state="paused"]').waitFor();
      assert.match((await status.textContent()) ?? '', words);
      for (const scheme of ['light', 'dark'] as const) {
        await visitor.emulateMedia({ colorScheme: scheme });
        for (const [size, viewport] of [
          ['desktop', { width: 1280, height: 800 }],
          ['phone', { width: 390, height: 844 }],
        ] as const) {
          await visitor.setViewportSize(viewport);
          await screenshot(visitor, `download-paused-memory-${lang}-${size}-${scheme}`);
        }
      }
      // The server is back (a chunk request still held goes on too); the person asks to go on.
      outage.end();
      await visitor.getByRole('button', { name: again }).click();
      const { content: saved } = await got;
      assert.equal(sha256(saved), sha256(content), 'the paused download completed, byte for byte');
      assert.deepEqual(Object.fromEntries(outage.through), { 1: 1, 2: 1, 3: 1 }, 'each chunk went out once');
      assert.equal(outage.starts, 1, 'one count');
      // Delivered: the file is used up for this visitor and for any other.
      await visitor.reload();
      await visitor.locator('#files li .count[data-left="0"]').waitFor();
      assert.equal(await visitor.locator('#files li button.download').isDisabled(), true);
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
