import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { upload } from '../../src/client/node/index.js';
import { newContext, SKIP, screenshot, useBrowserFixture, watch, writeTemp } from './browser.js';
import { pdf, playsAndSeeks, png, webm } from './media.js';

/**
 * The viewer in Chromium (web/src/views/viewer.ts): files uploaded with the client library (so
 * without thumbnails or anything a page made) open in the page, decrypted there. An image at its
 * real pixel size, text, sanitised Markdown, an HTML file and an SVG that never run their script
 * (a CSP violation listener and the global the script would set), a PDF in the browser's viewer,
 * and a video of several chunks streamed by the service worker that plays and seeks to the middle
 * and the last chunk; the same video from memory without a service worker.
 */
const MIB = 1024 * 1024;
const HTML = '<h1>hello</h1><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><script>window.__pwned = 3</script><rect width="120" height="80" fill="#08c"/></svg>';
const MARKDOWN =
  '# Title here\n\nSome *text* and [a link](https://example.org/).\n\n<script>window.__pwned = 4</script>\n\n<img src="x" onerror="window.__pwned = 5">\n\n[bad](javascript:window.__pwned=6)\n';

/** Records CSP violations and what a script from a file would set, from before the page's own code. */
async function guarded(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
      ),
    );
  });
}

async function assertNothingRan(page: Page): Promise<void> {
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), []);
}

/** A fresh context on a folder link, watched for errors and CSP violations, with its list loaded. */
async function folderPage(
  browser: Browser,
  url: string,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const problems = watch(page);
  await guarded(page);
  await page.goto(url);
  await page.locator('#files button.open').first().waitFor();
  return { context, page, problems };
}

async function openFile(page: Page, name: string): Promise<void> {
  await page.locator('#files button.open', { hasText: name }).click();
  await page.locator('#viewer').waitFor();
  assert.equal(await page.locator('#viewer-title').innerText(), name);
}

describe('site: viewer (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();
  let link = '';
  let videoSize = 0;

  test('a folder filled with the client library', async () => {
    const video = await webm(fx.browser, fx.server.baseUrl, 11 * MIB);
    videoSize = video.length;
    assert.ok(video.length > 2 * 5 * MIB, `the video spans at least 3 chunks (${video.length} bytes)`);
    const paths = [
      await writeTemp(fx.dir, 'a-photo.png', png(300, 200)),
      await writeTemp(fx.dir, 'b-notes.txt', Buffer.from('first line\nsecond line — ü\n')),
      await writeTemp(fx.dir, 'c-page.html', Buffer.from(HTML)),
      await writeTemp(fx.dir, 'd-drawing.svg', Buffer.from(SVG)),
      await writeTemp(fx.dir, 'e-readme.md', Buffer.from(MARKDOWN)),
      await writeTemp(fx.dir, 'f-paper.pdf', pdf('Hello PDF')),
      await writeTemp(fx.dir, 'g-clip.webm', video),
      await writeTemp(fx.dir, 'h-data.bin', Buffer.from([1, 2, 3])),
    ];
    link = (await upload(paths, { server: fx.server.baseUrl, mode: 'share' })).link;
  });

  test('images, text, Markdown, HTML, SVG and PDF open; nothing from a file runs', async () => {
    const { context, page, problems } = await folderPage(fx.browser, link);

    await openFile(page, 'a-photo.png');
    const image = page.locator('#viewer-content[data-way="memory"] img#viewer-image');
    await image.waitFor();
    await page.waitForFunction(() => (document.getElementById('viewer-image') as HTMLImageElement | null)?.complete);
    assert.deepEqual(
      await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight, img.src.slice(0, 5)]),
      [300, 200, 'blob:'],
    );
    await screenshot(page, 'viewer-image');

    // Keyboard: the right arrow goes to the next file, the left one back, Escape closes.
    await page.keyboard.press('ArrowRight');
    await page.locator('#viewer-title', { hasText: 'b-notes.txt' }).waitFor();
    await page.locator('#viewer-content[data-way="memory"] pre#viewer-text').waitFor();
    assert.equal(await page.locator('#viewer-text').textContent(), 'first line\nsecond line — ü\n');
    assert.equal(await page.locator('#viewer-position').innerText(), '2 of 8');
    await page.keyboard.press('ArrowLeft');
    await page.locator('#viewer-title', { hasText: 'a-photo.png' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('#viewer').waitFor({ state: 'detached' });

    // HTML is text: the markup is shown, not parsed, and its script never runs.
    await openFile(page, 'c-page.html');
    await page.locator('#viewer-content[data-way="memory"] pre#viewer-text').waitFor();
    assert.equal(await page.locator('#viewer-text').innerText(), HTML);
    assert.equal(await page.locator('#viewer-content h1').count(), 0);
    await assertNothingRan(page);

    // SVG is an image (an <img> runs no script in it), at its own size.
    await page.locator('#viewer-next').click();
    await page.locator('#viewer-title', { hasText: 'd-drawing.svg' }).waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('#viewer-content[data-way="memory"] img') as HTMLImageElement | null;
      return img?.complete && img.naturalWidth > 0;
    });
    assert.equal(await page.locator('#viewer-image').evaluate((img: HTMLImageElement) => img.naturalWidth), 120);
    await assertNothingRan(page);

    // Markdown is rendered and sanitised: headings and links stay, script, images and javascript: go.
    await page.locator('#viewer-next').click();
    await page.locator('#viewer-content[data-way="memory"] .markdown#viewer-text').waitFor();
    assert.equal(await page.locator('#viewer-text h1').innerText(), 'Title here');
    assert.equal(
      await page.locator('#viewer-text a[href="https://example.org/"]').getAttribute('rel'),
      'noopener noreferrer',
    );
    assert.equal(await page.locator('#viewer-text script, #viewer-text img, #viewer-text [onerror]').count(), 0);
    assert.equal(await page.locator('#viewer-text a[href^="javascript"]').count(), 0);
    await screenshot(page, 'viewer-markdown');
    await assertNothingRan(page);

    // A PDF: the browser's own viewer, in a frame of the service worker's media/<id>/<name>, so
    // that viewer's title and "Save" name are the file's, not a blob's UUID.
    await page.locator('#viewer-next').click();
    await page.locator('#viewer-title', { hasText: 'f-paper.pdf' }).waitFor();
    const embed = page.locator('#viewer-content[data-way="memory"] #viewer-pdf');
    await embed.waitFor();
    const src = (await embed.getAttribute('src')) ?? '';
    assert.match(src, /\/media\/[0-9a-f-]{36}\/f-paper\.pdf$/);
    const served = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return {
        type: r.headers.get('content-type'),
        disposition: r.headers.get('content-disposition'),
        size: (await r.arrayBuffer()).byteLength,
      };
    }, src);
    assert.equal(served.type, 'application/pdf');
    assert.equal(served.disposition, `inline; filename="f-paper.pdf"; filename*=UTF-8''f-paper.pdf`);
    assert.equal(served.size, pdf('Hello PDF').length);
    await pdfViewerShown(page);
    await screenshot(page, 'viewer-pdf');

    // A type the browser cannot show: a clear fallback to download.
    await page.keyboard.press('Escape');
    await openFile(page, 'h-data.bin');
    await page.locator('#viewer-content[data-way="download"] #viewer-fallback').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#viewer-content button').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'h-data.bin');

    await assertNothingRan(page);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a video of several chunks streams through the service worker and seeks to the middle and the end', async () => {
    const { context, page, problems } = await folderPage(fx.browser, link);
    await openFile(page, 'g-clip.webm');
    await page.locator('#viewer-content[data-way="stream"] video#viewer-media').waitFor();
    await playsAndSeeks(page);
    await screenshot(page, 'viewer-video');
    await assertNothingRan(page);
    assert.deepEqual(problems, []);
    assert.ok(videoSize > 0);
    await context.close();
  });

  test('an image folder is a grid of thumbnails made in the page; other folders show icons by type', async () => {
    const paths = [
      await writeTemp(fx.dir, 'wide.png', png(300, 200, [10, 120, 10])),
      await writeTemp(fx.dir, 'tall.png', png(100, 400, [10, 10, 120])),
      await writeTemp(fx.dir, 'small.png', png(40, 30)),
      await writeTemp(fx.dir, 'caption.txt', Buffer.from('holiday')),
    ];
    const photos = (await upload(paths, { server: fx.server.baseUrl })).link;
    const context = await newContext(fx.browser);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(photos);
    await page.locator('#files.grid li').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#files img.thumb-image').length === 3);
    const sizes = await page
      .locator('#files li')
      .evaluateAll((items) =>
        items.map((li) => [
          li.querySelector('.name')?.textContent,
          (li.querySelector('img.thumb-image') as HTMLImageElement | null)?.naturalWidth ?? null,
          (li.querySelector('img.thumb-image') as HTMLImageElement | null)?.naturalHeight ?? null,
          (li.querySelector('img.thumb-image') as HTMLImageElement | null)?.src.slice(0, 5) ??
            li.querySelector<SVGElement>('.thumb svg')?.dataset.icon,
        ]),
      );
    assert.deepEqual(
      sizes.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      [
        ['caption.txt', null, null, 'text'],
        ['small.png', 40, 30, 'blob:'],
        ['tall.png', 64, 256, 'blob:'],
        ['wide.png', 256, 171, 'blob:'],
      ],
    );
    await screenshot(page, 'folder-grid');
    // The mixed folder of the other tests is a list, with icons by type.
    await page.goto(link);
    await page.locator('#files li .thumb').first().waitFor();
    assert.equal(await page.locator('#files.grid').count(), 0);
    // Icons are the site's own SVG (no emoji font needed): drawn, not text.
    const clipIcon = page.locator('#files li[data-file-id]:has-text("g-clip.webm") .thumb svg');
    assert.equal(await clipIcon.getAttribute('data-icon'), 'video');
    assert.equal(await page.locator('#files li[data-file-id]:has-text("g-clip.webm") .thumb').innerText(), '');
    assert.ok(((await clipIcon.boundingBox())?.width ?? 0) >= 20, 'the icon is drawn');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('without a service worker the video plays from memory', async () => {
    const context = await fx.browser.newContext({ serviceWorkers: 'block', viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(link);
    await page.locator('#files button.open').first().waitFor();
    await openFile(page, 'g-clip.webm');
    await page
      .locator('#viewer-content[data-way="memory"] video#viewer-media')
      .waitFor()
      .catch(async (e) => {
        throw new Error(`${e}: ${await page.locator('#viewer-content').evaluate((c) => c.outerHTML)}`);
      });
    await playsAndSeeks(page);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

/** Chromium's PDF viewer is an extension frame inside the embed: it appears once the PDF loads. */
async function pdfViewerShown(page: Page): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (page.frames().some((f) => /^chrome-extension:\/\/|chrome:\/\/pdf/.test(f.url()))) return;
    await page.waitForTimeout(100);
  }
  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  throw new Error(
    `no PDF viewer frame: ${page
      .frames()
      .map((f) => f.url())
      .join(', ')}; CSP: ${violations.join(', ')}`,
  );
}
