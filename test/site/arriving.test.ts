import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { until } from '../support/poll.js';
import { bytes, newContext, SKIP, screenshot, watch, writeTemp } from './browser.js';
import { chunkNumber, useGatedChromium } from './gated.js';
import { webm } from './media.js';

const MIB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The chunk number of a chunk PUT of the page's upload (`…/v2/uploads/…/00002?…`), else null. */
function putChunk(req: IncomingMessage): number | null {
  if (req.method !== 'PUT' || !/\/v2\/uploads\//.test(req.url ?? '')) return null;
  const n = /\/(\d{5})\?/.exec(req.url ?? '')?.[1];
  return n === undefined ? null : Number(n);
}

/**
 * Issue #25 item 2, the page: a visitor opens the link while the owner (another browser context) is
 * still uploading, sees the file arriving with the server's progress, and downloads it at once. The
 * gate holds the owner's chunk PUTs from chunk 2 on, so the visitor's download provably asks for a
 * chunk not stored yet (it passes the gate while chunk 2's PUT is held there) and waits for it; the
 * PUTs are then let through and the download completes, byte for byte. If the upload ends instead
 * (cancelled and the file deleted), the visitor is told so.
 */
describe('site: a visitor downloads a file while it arrives (Chromium)', { skip: SKIP }, () => {
  const site = useGatedChromium({}, 'webfolder-arriving-');

  /** The owner's page starts uploading `content`; chunk 1 is stored, the later PUTs wait at the gate. */
  async function startHeldUpload(
    name: string,
    content: Buffer,
    seen: string[],
  ): Promise<{ ownerCtx: BrowserContext; owner: Page; link: string }> {
    const ownerCtx = await newContext(site.browser);
    const owner = await ownerCtx.newPage();
    await owner.goto(`${site.gate.url}/`);
    await owner.locator('#new-mode').selectOption('send');
    await Promise.all([owner.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), owner.locator('button[type=submit]').click()]);
    site.gate.hold((req) => {
      const k = chunkNumber(req);
      if (k !== null) seen.push(`GET ${k}`);
      const n = putChunk(req);
      return n !== null && n >= 2;
    });
    await owner.setInputFiles('#file-input', [await writeTemp(site.dir, name, content)]);
    await until(
      'chunk 2 of the upload held at the gate',
      () => site.gate.held().some((r) => putChunk(r) === 2),
      60_000,
    );
    return { ownerCtx, owner, link: owner.url() };
  }

  /** A visitor's page on the link, with the file listed as arriving and chunk 1 stored. */
  async function visitorOn(
    link: string,
    options: Parameters<Browser['newContext']>[0] = {},
  ): Promise<{ ctx: BrowserContext; page: Page; problems: string[] }> {
    const ctx = await site.browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1100, height: 900 },
      ...options,
    });
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(link);
    // The list is polled: chunk 1's arrival shows within a poll or two.
    await page.locator('#files li .arriving[data-stored="1"]').waitFor({ timeout: 60_000 });
    return { ctx, page, problems };
  }

  test('the download starts while the upload runs, waits for the chunks, and is byte for byte', async () => {
    const content = bytes(12 * MIB + 7, 53);
    const seen: string[] = [];
    const { ownerCtx, owner, link } = await startHeldUpload('arriving.bin', content, seen);
    const { ctx, page: visitor, problems } = await visitorOn(link);
    assert.equal(await visitor.locator('#files li .arriving').getAttribute('data-chunks'), '3');
    const button = visitor.locator('#files li button.download');
    assert.equal(await button.isDisabled(), false, 'a file still arriving can be downloaded at once');
    const download = visitor.waitForEvent('download', { timeout: 60_000 });
    await button.click();
    // The download asked for chunk 2 while its PUT was held at the gate: the site answered 404.
    await until('the visitor asking for chunk 2 before it is stored', () => seen.includes('GET 2'), 60_000);
    // The arriving row as people see it: 2 sizes × 2 schemes × 2 languages (artifacts/screenshots).
    for (const [size, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const)
      for (const colorScheme of ['light', 'dark'] as const)
        for (const locale of ['en-US', 'de-DE']) {
          const shot = await visitorOn(link, {
            viewport,
            colorScheme,
            locale,
            ...(size === 'phone' ? { isMobile: true, hasTouch: true } : {}),
          });
          await screenshot(shot.page, `arriving-row-${size}-${colorScheme}-${locale.slice(0, 2)}`);
          assert.deepEqual(shot.problems, []);
          await shot.ctx.close();
        }
    site.gate.release();
    const saved = await download;
    assert.equal(await saved.failure(), null);
    const got = await readFile(await saved.path());
    assert.equal(got.length, content.length);
    assert.equal(sha256(got), sha256(content), 'the file downloaded while arriving is the uploaded file');
    await owner.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    // Once complete, the row is an ordinary one again.
    await visitor.locator('#files li .count').waitFor({ timeout: 60_000 });
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), ctx.close()]);
  });

  test('an upload cancelled and deleted mid-way ends the waiting download with the message', async () => {
    const content = bytes(12 * MIB + 9, 59);
    const seen: string[] = [];
    const { ownerCtx, owner, link } = await startHeldUpload('cancelled.bin', content, seen);
    const { ctx, page: visitor, problems } = await visitorOn(link);
    const download = visitor.waitForEvent('download', { timeout: 60_000 });
    await visitor.locator('#files li button.download').click();
    await until('the visitor asking for chunk 2 before it is stored', () => seen.includes('GET 2'), 60_000);
    // The owner cancels (the held PUTs are dropped) and deletes the half-sent file.
    await owner.locator('#cancel-upload').click();
    site.gate.drop();
    await owner.locator('#upload-status[data-state="cancelled"]').waitFor();
    owner.on('dialog', (d) => void d.accept());
    const row = owner.locator('#files li', { hasText: 'cancelled.bin' });
    await row.locator('details.file-manage summary').click();
    await row.locator('button.delete-file').click();
    const status = visitor.locator('#download-status');
    await until(
      'the visitor told that the upload stopped',
      async () => (await status.innerText()).includes('The upload of this file stopped before it was complete'),
      60_000,
    );
    // Nothing partial is presented as a finished download.
    const failed = await download;
    assert.notEqual(await failed.failure(), null, 'the site.browser marks the download failed');
    await screenshot(visitor, 'arriving-cancelled-desktop-light-en');
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), ctx.close()]);
  });
  test('a video still arriving shows what has arrived in the viewer and plays on as the rest comes', async () => {
    // Noise at 40 Mbit/s: about a second per 5 MiB chunk, three chunks.
    const video = await webm(site.browser, site.gate.url, 11 * MIB);
    const seen: string[] = [];
    const { ownerCtx, link } = await startHeldUpload('clip.webm', video, seen);
    const { ctx, page: visitor, problems } = await visitorOn(link);
    await visitor.locator('#files button.open', { hasText: 'clip.webm' }).click();
    await visitor.locator('#viewer video').waitFor();
    // Chunk 1 is stored, chunk 2 is held at the gate: the first frame decodes from what has arrived.
    await until(
      'the arriving video showing its first frame',
      () =>
        visitor.evaluate(() => {
          const v = document.querySelector<HTMLVideoElement>('#viewer video');
          return v !== null && v.readyState >= 2;
        }),
      60_000,
    );
    // The rest arrives; the same element then plays on (it was not given up on while it waited).
    site.gate.release();
    await visitor.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('#viewer video')!;
      v.muted = true;
      return v.play();
    });
    await until(
      'the video playing once the rest arrived',
      () => visitor.evaluate(() => document.querySelector<HTMLVideoElement>('#viewer video')!.currentTime > 0),
      60_000,
    );
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), ctx.close()]);
  });
});
