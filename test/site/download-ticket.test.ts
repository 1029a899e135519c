import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { until } from '../support/poll.js';
import { bytes, downloadBytes, newContext, SCREENSHOTS, SKIP, watch, writeTemp } from './browser.js';
import { eachEngine } from './driver.js';
import { chromium, chromiumSite } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { chunkRequest, useGatedChromium, watchGate } from './gated.js';
import { sendFolder } from './scenes.js';
import { oneTicketScenario } from './scenes-ticket.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A limited download counts once per recipient download. A download that failed
 * and is started again by hand goes on with the ticket the page kept (no second count), a spent or
 * expired ticket is said and the next download asks for a new count, and the viewer's preview and
 * its Download share one download. The server's count is read from the page's own rows and from the
 * `POST …/downloads` requests the gate sees (each is one count).
 */
describe('site: one ticket per download, refused, shared and in plain words (Chromium)', { skip: SKIP }, () => {
  const site = useGatedChromium({}, 'webfolder-ticket-');

  test('a ticket refused as spent or expired is said, and the next download asks for a new count', async () => {
    const content = bytes(100_000, 52);
    const link = await sendFolder(chromiumSite(site), '2', content, 'spent.bin');
    const visitorCtx = await newContext(site.browser);
    const visitor = await visitorCtx.newPage();
    const starts = { n: 0 };
    await visitor.goto(link);
    await visitor.locator('#files li .count[data-left="2"]').waitFor();
    const button = visitor.locator('#files li button.download');
    watchGate(site.gate, starts, chunkRequest);
    await button.click();
    await until('the chunk request at the gate', () => site.gate.held().length > 0);
    // What the server answers a ticket whose download was delivered already, or that expired.
    site.gate.answer(403, {}, { error: 'the download ticket is wrong or expired', code: 'download_ticket_required' });
    watchGate(site.gate, starts);
    const status = visitor.locator('#download-status[data-download-state="failed"]');
    await status.waitFor();
    assert.match(
      (await status.textContent()) ?? '',
      /ticket is used up or expired: downloading again counts as a new download/,
    );
    await visitor.locator('#files li .count[data-left="1"]').waitFor();
    const { content: saved } = await downloadBytes(visitor, () => button.click());
    assert.equal(sha256(saved), sha256(content));
    assert.equal(starts.n, 2, 'a new count after the spent ticket');
    await visitor.locator('#files li .count[data-left="0"]').waitFor();
    await visitorCtx.close();
  });

  test('the owner\'s "One recipient" makes every file a one-time download', async () => {
    const content = bytes(50_000, 53);
    const ownerCtx = await newContext(site.browser);
    const owner = await ownerCtx.newPage();
    await owner.goto(`${site.gate.url}/`);
    await owner.locator('#new-mode').selectOption('send');
    await Promise.all([owner.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), owner.locator('button[type=submit]').click()]);
    await owner.setInputFiles('#file-input', [
      await writeTemp(site.dir, 'one-a.bin', content),
      await writeTemp(site.dir, 'one-b.bin', bytes(60_000, 54)),
    ]);
    await owner.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    assert.match(await owner.locator('#one-recipient-help').innerText(), /each file can then be downloaded once/);
    await owner.locator('#one-recipient').click();
    await until('the folder limit of 1 saved', async () => (await owner.locator('#owner-limit').inputValue()) === '1');
    // The owner's settings card with the choice, as people see it (English and German, light and dark).
    await mkdir(SCREENSHOTS, { recursive: true });
    for (const lang of ['en', 'de']) {
      if (lang !== 'en') await owner.locator('#language').selectOption(lang);
      await owner.locator('#one-recipient').waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await owner.emulateMedia({ colorScheme: scheme });
        for (const [size, viewport] of [
          ['desktop', { width: 1280, height: 800 }],
          ['phone', { width: 390, height: 844 }],
        ] as const) {
          await owner.setViewportSize(viewport);
          // A live update may draw the card again under the shot: taken once it holds still.
          const path = join(SCREENSHOTS, `owner-one-recipient-${lang}-${size}-${scheme}.png`);
          await until(`the settings card shot (${lang}, ${size}, ${scheme})`, () =>
            owner
              .locator('#owner-settings')
              .screenshot({ path, timeout: 5000 })
              .then(
                () => true,
                () => false,
              ),
          );
        }
      }
    }
    await owner.locator('#language').selectOption('en');
    const visitorCtx = await newContext(site.browser);
    const visitor = await visitorCtx.newPage();
    await visitor.goto(owner.url());
    await until('both files limited to one download', async () => {
      await visitor.reload();
      await visitor.locator('#files li').first().waitFor();
      return (await visitor.locator('#files li .count[data-left="1"]').count()) === 2;
    });
    const first = visitor.locator('#files li', { hasText: 'one-a.bin' }).locator('button.download');
    const { content: saved } = await downloadBytes(visitor, () => first.click());
    assert.equal(sha256(saved), sha256(content));
    // Another recipient: that file is used up; the other is still there, once.
    const otherCtx = await newContext(site.browser);
    const other = await otherCtx.newPage();
    await other.goto(owner.url());
    await other.locator('#files li .count[data-left="0"]').waitFor();
    assert.equal(await other.locator('#files li .count[data-left="1"]').count(), 1);
    await Promise.all([ownerCtx.close(), visitorCtx.close(), otherCtx.close()]);
  });

  test('the network failing for good reaches the person in plain words, and a retry by hand then works', async () => {
    const content = bytes(80_000, 55);
    const link = await sendFolder(chromiumSite(site), '', content, 'plain.bin');
    const visitorCtx = await newContext(site.browser);
    const visitor = await visitorCtx.newPage();
    const problems = watch(visitor);
    await visitor.goto(link);
    const button = visitor.locator('#files li button.download');
    await button.waitFor();
    // Every attempt to start the download loses its connection (the page's calls retry 3 times).
    const start = (req: { method?: string; url?: string }) =>
      req.method === 'POST' && /\/downloads$/.test(req.url ?? '');
    site.gate.hold(start);
    await button.click();
    const status = visitor.locator('#download-status[data-download-state="failed"]');
    let cuts = 0;
    await until(
      'the failure said on the page',
      async () => {
        if (site.gate.held().length > 0) {
          site.gate.drop();
          site.gate.hold(start);
          cuts++;
        }
        return (await status.count()) > 0;
      },
      120_000,
    );
    assert.ok(cuts >= 4, `the page's call was retried before it failed (${cuts} attempts cut)`);
    assert.equal(
      (await status.textContent())?.trim(),
      'Download failed: the server cannot be reached: check your connection',
      'plain words, not "POST … network error: Failed to fetch"',
    );
    site.gate.release();
    const { content: saved } = await downloadBytes(visitor, () => button.click());
    assert.equal(sha256(saved), sha256(content));
    assert.deepEqual(problems, []);
    await visitorCtx.close();
  });

  test('a second Download while the first runs is a download of its own: two tickets, both complete', async () => {
    const content = bytes(2 * 1024 * 1024 + 11, 56);
    const link = await sendFolder(chromiumSite(site), '2', content, 'twice.bin');
    const visitorCtx = await newContext(site.browser);
    const visitor = await visitorCtx.newPage();
    const starts = { n: 0 };
    await visitor.goto(link);
    await visitor.locator('#files li .count[data-left="2"]').waitFor();
    const button = visitor.locator('#files li button.download');
    watchGate(site.gate, starts, chunkRequest);
    const first = visitor.waitForEvent('download', { timeout: 60_000 });
    await button.click();
    await until('the first download at the gate', () => site.gate.held().length > 0);
    // One ticket's byte budget is one copy: two copies at once need two tickets (two counts).
    const { content: second } = await downloadBytes(visitor, async () => {
      await button.click();
      await until('the second download started', () => starts.n === 2);
      site.gate.release();
      watchGate(site.gate, starts);
    });
    assert.equal(sha256(second), sha256(content));
    const firstDone = await first;
    assert.equal(await firstDone.failure(), null);
    assert.equal(starts.n, 2);
    await visitorCtx.close();
  });
});

/**
 * The waiting line, a retry by hand with the kept ticket and the viewer's shared download in Chromium
 * and Firefox: the scenario is written once in scenes-ticket.ts (webkit-downloads.test.ts runs it in
 * WebKit).
 */
eachEngine('site: one download per ticket', [chromium, firefox], oneTicketScenario);
