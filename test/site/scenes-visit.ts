import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { upload } from '../../src/client/node/index.js';
import { bytes, SKIP as NO_CHROMIUM, writeTemp } from './browser.js';
import type { DriverPage, Site } from './driver.js';
import { png, webmFromChromium } from './media.js';
import { rowOf } from './scenes.js';

const MIB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A visitor's main paths, written once for the engines whose own suites run them (firefox.test.ts,
 * webkit.test.ts; Chromium's are spread through upload-download.test.ts and the viewer's files):
 * a folder filled by the client library is opened, its names decrypted, each file and the zip of
 * all downloaded through the page's buttons and compared byte for byte; the viewer shows an image,
 * a text and a video that seeks; a password folder with a one-download limit made on the home page
 * is unlocked by one visitor, once; a wrong key is said. One person's page at a time (WebKitWebDriver runs one session at
 * a time). `inMemory`: the downloads again in a browser without service workers (as in-app web
 * views are), decrypted into a Blob. Call inside `eachEngine`, with the suite's site.
 */
export function visitorScenario(site: Site, { inMemory = false }: { inMemory?: boolean } = {}): void {
  const big = bytes(12 * MIB + 12345, 31); // three chunks of 5 MiB
  const small = bytes(1000, 32);
  const TITLE = 'Visitor check';
  let link: string | undefined;
  const filled = async () => {
    if (link) return link;
    const paths = [await writeTemp(site.dir, 'big.bin', big), await writeTemp(site.dir, 'small é.txt', small)];
    link = (await upload(paths, { server: site.url, title: TITLE })).link;
    return link;
  };

  /** Opens the folder, checks the decrypted listing, downloads each file and the zip; the paths the page took. */
  async function downloadAll(page: DriverPage): Promise<string[]> {
    await page.goto(await filled());
    await page.waitFor('#files li[data-file-id] button.download:not([disabled])', { timeoutMs: 60_000 });
    assert.equal(await page.text('#folder-title'), TITLE);
    assert.equal(await page.attribute('#role', 'data-role'), 'visitor');
    const names = await page.evaluate<string[]>(
      `[...document.querySelectorAll('#files li[data-file-id] .name')].map((e) => e.textContent)`,
    );
    assert.deepEqual([...names].sort(), ['big.bin', 'small é.txt']);
    const paths: string[] = [];
    for (const [name, content] of [
      ['big.bin', big],
      ['small é.txt', small],
    ] as const) {
      const got = page.download(name, content.length);
      paths.push(await clickDownload(page, `${await rowOf(page, name)} button.download`));
      assert.equal(sha256(await got), sha256(content), `${name}: the downloaded bytes equal the uploaded ones`);
    }
    const zip = page.downloadWhen(`${TITLE}.zip`, zipListing);
    paths.push(await clickDownload(page, '#download-all'));
    assert.deepEqual(
      await zip,
      [`big.bin ${big.length} ${sha256(big)}`, `small é.txt ${small.length} ${sha256(small)}`].sort(),
      'the zip holds both files, byte for byte',
    );
    return paths;
  }

  test('the folder link decrypts the names; both files and the zip download with the same bytes, streamed by the service worker', async () => {
    const page = await site.browser.page();
    try {
      assert.deepEqual(await downloadAll(page), ['service-worker', 'service-worker', 'service-worker']);
      await page.screenshot('visitor', { fullPage: false });
    } finally {
      await page.close();
    }
  });

  if (inMemory)
    test('without service workers (as in-app web views) the page decrypts the downloads into a Blob', async () => {
      const page = await (await site.launch({ serviceWorkers: false })).page();
      try {
        await page.goto(`${site.url}/`);
        assert.equal(await page.evaluate('"serviceWorker" in navigator'), false, 'service workers are off');
        assert.deepEqual(await downloadAll(page), ['memory', 'memory', 'memory']);
        assert.match(await page.renderedText('#download-status'), /assembled in memory/);
      } finally {
        await page.close();
      }
    });

  test('a wrong key says so', async () => {
    const page = await site.browser.page();
    try {
      await page.goto(`${(await filled()).split('#')[0]}#AAAAAAAAAAAAAAAAAAAAAA`);
      await page.waitFor('#error', { timeoutMs: 60_000 });
      assert.equal(await page.text('h1'), 'Wrong key for this folder');
      assert.match(await page.renderedText('#error'), /does not open this folder/);
    } finally {
      await page.close();
    }
  });

  test('the viewer shows an image at its real pixel size and a text', async () => {
    const paths = [
      await writeTemp(site.dir, 'photo.png', png(300, 200)),
      await writeTemp(site.dir, 'note.txt', Buffer.from('hello from the viewer')),
    ];
    const viewerLink = (await upload(paths, { server: site.url })).link;
    const page = await site.browser.page();
    try {
      await page.goto(viewerLink);
      await page.waitFor('#files button.open', { timeoutMs: 60_000 });
      await page.click(`${await rowOf(page, 'photo.png')} button.open`);
      await page.waitFor('#viewer-content[data-way="memory"] img#viewer-image');
      await page.waitUntil(`document.getElementById('viewer-image')?.naturalWidth === 300`);
      assert.equal(await page.evaluate(`document.getElementById('viewer-image').naturalHeight`), 200);
      await page.screenshot('viewer-image', { fullPage: false });
      await page.click('#viewer-close');
      await page.click(`${await rowOf(page, 'note.txt')} button.open`);
      await page.waitFor('#viewer-content[data-way="memory"] pre#viewer-text');
      assert.equal(await page.text('#viewer-text'), 'hello from the viewer');
    } finally {
      await page.close();
    }
  });

  test('a video of three chunks streams through the service worker and seeks', { skip: NO_CHROMIUM }, async () => {
    // The WebM (VP8) is made by Chromium's WebCodecs; Firefox plays it itself, WebKitGTK through GStreamer.
    const video = await webmFromChromium(site.url, 11 * MIB);
    const videoLink = (await upload([await writeTemp(site.dir, 'clip.webm', video)], { server: site.url })).link;
    const page = await site.browser.page();
    try {
      await page.goto(videoLink);
      await page.waitFor('#files button.open', { timeoutMs: 60_000 });
      await page.click('#files button.open');
      await page.waitFor('#viewer-content[data-way="stream"] video#viewer-media', { state: 'attached' });
      const media = `document.getElementById('viewer-media')`;
      await page.waitUntil(`${media}?.readyState >= 2 && Number.isFinite(${media}.duration)`);
      const duration = await page.evaluate<number>(`${media}.duration`);
      assert.ok(duration >= 2, `duration ${duration}`);
      for (const target of [duration / 2, duration - 0.3]) {
        await page.evaluate(`(${media}.currentTime = ${target}, true)`);
        await page.waitUntil(
          `!${media}.seeking && ${media}.readyState >= 2 && ${media}.currentTime >= ${target - 0.05}`,
        );
      }
    } finally {
      await page.close();
    }
  });

  test('the home page makes a password folder with a one-download limit; a visitor unlocks it once', async () => {
    const content = bytes(3000, 33);
    const PASSWORD = 'tulip anchor violet seven';
    let folderLink: string;
    const owner = await site.browser.page();
    try {
      await owner.goto(`${site.url}/`);
      await owner.waitFor('#new-mode');
      await owner.screenshot('home');
      await owner.select('#new-mode', 'share');
      await owner.fill('#new-title', 'Locked');
      await owner.fill('#new-limit', '1');
      await owner.fill('#new-password', PASSWORD);
      await owner.fill('#new-note', 'For your eyes only');
      await owner.click('button[type=submit]');
      // Created and claimed in one step: owned before any upload, and not asked for the password.
      await owner.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });
      folderLink = await owner.url();
      await owner.pickFiles('#file-input', [await writeTemp(site.dir, 'locked.txt', content)]);
      await owner.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
      await owner.waitFor('#files li[data-file-id]');
      await owner.screenshot('owner');
    } finally {
      await owner.close();
    }

    const visitor = await site.browser.page();
    try {
      await visitor.goto(folderLink);
      await visitor.fill('#folder-password', 'tulip anchor violet');
      await visitor.click('#unlock');
      await visitor.waitFor('#password-status .error', { timeoutMs: 60_000 });
      // The page focuses and selects the refused password, so that typing replaces it.
      await visitor.type(PASSWORD);
      await visitor.click('#unlock');
      await visitor.waitFor('#files li[data-file-id] button.download:not([disabled])', { timeoutMs: 60_000 });
      assert.equal(await visitor.attribute('#role', 'data-role'), 'visitor');
      assert.equal(await visitor.text('#note'), 'For your eyes only');
      const got = visitor.download('locked.txt', content.length);
      assert.equal(await clickDownload(visitor, '#files li button.download'), 'service-worker');
      assert.equal(sha256(await got), sha256(content));
      await visitor.waitFor('#files li .count[data-left="0"]');
    } finally {
      await visitor.close();
    }

    // The limit is used up: the next visitor is shown it, and the button is disabled.
    const second = await site.browser.page();
    try {
      await second.goto(folderLink);
      await second.fill('#folder-password', PASSWORD);
      await second.click('#unlock');
      await second.waitFor('#files li .count[data-left="0"]', { timeoutMs: 60_000 });
      assert.equal(await second.evaluate(`document.querySelector('#files li button.download').disabled`), true);
    } finally {
      await second.close();
    }
  });
}

/** Clicks a download button; the download path the page reports ('service-worker' or 'memory'). */
export async function clickDownload(page: DriverPage, selector: string): Promise<string> {
  await page.click(selector);
  await page.waitFor('#download-status[data-download-path]', { state: 'attached', timeoutMs: 60_000 });
  if ((await page.count('#download-status .error')) > 0)
    assert.fail(`the page reports: ${await page.text('#download-status .error')}`);
  return (await page.attribute('#download-status', 'data-download-path')) ?? '';
}

/** The entries of a zip, each checked against its CRC by Python's zipfile: name, size, sha256. */
function zipListing(path: string): string[] {
  const script =
    'import sys,zipfile,hashlib\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nfor i in z.infolist(): print(i.filename, i.file_size, hashlib.sha256(z.read(i)).hexdigest())';
  return execFileSync('python3', ['-c', script, path], { stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim()
    .split('\n')
    .sort();
}
