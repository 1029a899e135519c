import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { upload } from '../../src/client/node/index.js';
import { downloadBytes, SKIP, screenshot, useBrowserFixture, watch, writeTemp } from './browser.js';
import { pdf, png } from './media.js';

/**
 * Names are shown, not applied: a file named with a right-to-left override inside reads with a
 * visible mark on the owner's page (list, upload rows, activity, viewer), on a recipient's page, in
 * the name a single download is saved under and in the zip's entries. And every preview fills the
 * viewer, on a desktop and a phone: the PDF's frame, a large and a small image, text.
 */
const EXE = 'invoice\u202Egpj.exe';
const TXT = 'report\u202Efdp.txt';
const RAW = /\u202e/;

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The share folder made by dropping `files` on the home page, its upload finished. */
async function dropped(
  ctx: BrowserContext,
  baseUrl: string,
  files: { name: string; buffer: Buffer; mimeType: string }[],
) {
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(`${baseUrl}/`);
  await page.locator('#new-mode').selectOption('share');
  await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.setInputFiles('#file-input', files)]);
  await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
  return { page, problems };
}

/** The names in a zip's local file headers. */
function zipNames(zip: Buffer): string[] {
  const out: string[] = [];
  for (let at = zip.indexOf('PK\x03\x04'); at >= 0; at = zip.indexOf('PK\x03\x04', at + 4)) {
    const length = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    out.push(zip.subarray(at + 30, at + 30 + length).toString('utf8'));
    at += 30 + length + extra;
  }
  return out;
}

/** How much of #viewer-content's inner box (without its padding) the preview element covers: [width, height] ratios. */
async function cover(page: Page, selector: string): Promise<[number, number]> {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const content = document.getElementById('viewer-content')!;
    const style = getComputedStyle(content);
    const innerW = content.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    const innerH = content.clientHeight - Number.parseFloat(style.paddingTop) - Number.parseFloat(style.paddingBottom);
    return [box.width / innerW, box.height / innerH] as [number, number];
  });
}

describe('site: names shown, not applied; previews fill the viewer (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('a right-to-left override in a name is shown as a mark on every surface of the page', async () => {
    const ownerCtx = await fx.browser.newContext({ ...DESKTOP, acceptDownloads: true });
    const { page: owner, problems } = await dropped(ownerCtx, fx.server.baseUrl, [
      { name: EXE, mimeType: 'application/octet-stream', buffer: Buffer.from('MZ not a program\n') },
      { name: TXT, mimeType: 'text/plain', buffer: Buffer.from('plain words\n') },
    ]);
    const list = owner.locator('#files');
    await list.locator('li[data-file-id]', { hasText: 'invoice[U+202E]gpj.exe' }).waitFor();
    await list.locator('li[data-file-id]', { hasText: 'report[U+202E]fdp.txt' }).waitFor();
    await owner.locator('#activity li[data-kind="upload"]', { hasText: 'invoice[U+202E]gpj.exe' }).waitFor();
    assert.doesNotMatch(await owner.locator('main').innerText(), RAW, 'no raw control on the owner page');
    await owner.locator('#files button.open', { hasText: 'report[U+202E]fdp.txt' }).click();
    assert.equal(await owner.locator('#viewer-title').innerText(), 'report[U+202E]fdp.txt');
    await owner.keyboard.press('Escape');

    const visitorCtx = await fx.browser.newContext({ ...DESKTOP, acceptDownloads: true });
    const visitor = await visitorCtx.newPage();
    const visitorProblems = watch(visitor);
    await visitor.goto(owner.url());
    const row = visitor.locator('#files li[data-file-id]', { hasText: 'invoice[U+202E]gpj.exe' });
    await row.waitFor();
    assert.doesNotMatch(await visitor.locator('main').innerText(), RAW, 'no raw control on the recipient page');
    await screenshot(visitor, 'names-recipient-desktop-light-en');
    const one = await downloadBytes(visitor, () => row.locator('button.download').click());
    assert.equal(one.name, 'invoice[U+202E]gpj.exe');
    const all = await downloadBytes(visitor, () => visitor.locator('#download-all').click());
    assert.deepEqual(zipNames(all.content).sort(), ['invoice[U+202E]gpj.exe', 'report[U+202E]fdp.txt']);
    assert.deepEqual([...problems, ...visitorProblems], []);
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });

  test('an invisible character is shown; the zip and a single download save names Windows can create', async () => {
    const names = ['pass\u200Bword.txt', 'a:b*c?d"e<f>g|h.txt', 'CON.txt', 'trailing dot.'];
    const paths = await Promise.all(names.map((n, i) => writeTemp(fx.dir, n, Buffer.from(`file ${i}\n`))));
    const { link } = await upload(paths, { server: fx.server.baseUrl, mode: 'share' });
    const ctx = await fx.browser.newContext({ ...DESKTOP, acceptDownloads: true });
    const visitor = await ctx.newPage();
    const problems = watch(visitor);
    await visitor.goto(link);
    const row = visitor.locator('#files li[data-file-id]', { hasText: 'pass[U+200B]word.txt' });
    await row.waitFor();
    assert.doesNotMatch(await visitor.locator('main').innerText(), /\u200b/, 'no invisible character on the page');
    const one = await downloadBytes(visitor, () => row.locator('button.download').click());
    assert.equal(one.name, 'pass[U+200B]word.txt');
    const forbidden = visitor.locator('#files li[data-file-id]', { hasText: 'a:b*c' });
    const single = await downloadBytes(visitor, () => forbidden.locator('button.download').click());
    assert.equal(single.name, 'a_b_c_d_e_f_g_h.txt');
    const all = await downloadBytes(visitor, () => visitor.locator('#download-all').click());
    assert.deepEqual(zipNames(all.content).sort(), [
      '_CON.txt',
      'a_b_c_d_e_f_g_h.txt',
      'pass[U+200B]word.txt',
      'trailing dot',
    ]);
    assert.deepEqual(problems, []);
    await ctx.close();
    for (const [size, view] of [
      ['desktop', { viewport: { width: 1366, height: 768 } }],
      ['phone', PHONE],
    ] as const)
      for (const colorScheme of ['light', 'dark'] as const)
        for (const locale of ['en-US', 'de-DE']) {
          const shotCtx = await fx.browser.newContext({ ...view, colorScheme, locale });
          const shot = await shotCtx.newPage();
          await shot.goto(link);
          await shot.locator('#files li[data-file-id]', { hasText: 'pass[U+200B]word.txt' }).waitFor();
          await screenshot(shot, `names-invisible-${size}-${colorScheme}-${locale.slice(0, 2)}`);
          await shotCtx.close();
        }
  });

  test('every preview fills the viewer, on a desktop and a phone', async () => {
    const paths = [
      await writeTemp(fx.dir, 'a-large.png', png(1600, 1200)),
      await writeTemp(fx.dir, 'b-small.png', png(60, 40)),
      await writeTemp(fx.dir, 'c-paper.pdf', pdf('Hello PDF')),
      await writeTemp(fx.dir, 'd-notes.txt', Buffer.from('a line of text\n')),
    ];
    const { link } = await upload(paths, { server: fx.server.baseUrl, mode: 'share' });
    for (const [device, options] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const ctx = await fx.browser.newContext(options);
      const page = await ctx.newPage();
      const problems = watch(page);
      await page.goto(link);
      await page.locator('#files button.open', { hasText: 'a-large.png' }).click();
      await page.waitForFunction(() => (document.getElementById('viewer-image') as HTMLImageElement | null)?.complete);
      const large = await cover(page, '#viewer-image');
      assert.ok(Math.max(...large) > 0.99, `${device}: the large image fills the viewer one way (${large})`);

      await page.locator('#viewer-next').click();
      await page.locator('#viewer-title', { hasText: 'b-small.png' }).waitFor();
      await page.waitForFunction(
        () => (document.getElementById('viewer-image') as HTMLImageElement | null)?.naturalWidth === 60,
      );
      const small = await cover(page, '#viewer-image');
      assert.ok(Math.max(...small) > 0.99, `${device}: the small image is scaled to fit, not a stamp (${small})`);

      await page.locator('#viewer-next').click();
      await page.locator('#viewer-title', { hasText: 'c-paper.pdf' }).waitFor();
      await page.locator('#viewer-content[data-way] #viewer-pdf').waitFor();
      const frame = await cover(page, '#viewer-pdf');
      assert.ok(Math.min(...frame) > 0.99, `${device}: the PDF frame fills the viewer (${frame})`);
      await screenshot(page, `viewer-pdf-${device}-light-en`);

      await page.locator('#viewer-next').click();
      await page.locator('#viewer-content[data-way] #viewer-text').waitFor();
      const text = await cover(page, '#viewer-text');
      assert.ok(text[1] > 0.99, `${device}: the text fills the viewer's height (${text})`);
      assert.deepEqual(problems, []);
      await ctx.close();
    }
  });
});
