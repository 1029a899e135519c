import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, test } from 'node:test';
import type { ElementHandle, HTTPRequest, Page } from 'puppeteer-core';
import { upload } from '../../src/client/node/index.js';
import { deriveOwnerCredentials } from '../../src/crypto/index.js';
import { bytes, SKIP as NO_CHROMIUM, writeTemp } from './browser.js';
import { MISSING, SKIP, sha256, shot, useFirefox } from './firefox.js';
import { png, webmFromChromium } from './media.js';

/**
 * The site's main paths in Firefox (ESR, over WebDriver BiDi; see test/site/firefox.ts): create a
 * password folder on the home page and upload into it, resume an upload after a reload, download one
 * file and "Download all" through the service worker (bytes compared by sha256), preview an image
 * and a video that seeks, and a visitor who unlocks the password folder once.
 */
const MIB = 1024 * 1024;

async function waitFor(page: Page, css: string, timeout = 60_000): Promise<ElementHandle<Element>> {
  const found = await page.waitForSelector(css, { timeout });
  assert.ok(found, css);
  return found;
}

async function pick(page: Page, paths: string[]): Promise<void> {
  const input = (await page.$('#file-input')) as ElementHandle<HTMLInputElement> | null;
  assert.ok(input, 'the page has a file input');
  await input.uploadFile(...paths);
}

/** Clicks a download button; returns the download path the page reports ('service-worker' or 'memory'). */
async function clickDownload(page: Page, css: string): Promise<string> {
  await page.click(css);
  await waitFor(page, '#download-status[data-download-path]');
  const error = await page.$('#download-status .error');
  if (error) assert.fail(`the page reports: ${await error.evaluate((e) => e.textContent)}`);
  return page.$eval('#download-status', (e) => e.getAttribute('data-download-path') ?? '');
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

describe('site in Firefox (ESR over WebDriver BiDi)', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useFirefox('webfolder-firefox-');

  before(async () => {
    process.stderr.write(`test/site/firefox: ${await suite.firefox.browser.version()}\n`);
  });

  test('the language switch loads a catalog in Firefox; the choice is kept across a reload', async () => {
    const { firefox, server } = suite;
    const page = await firefox.page();
    try {
      await page.goto(`${server.baseUrl}/`);
      await waitFor(page, '#language');
      await page.select('#language', 'pl');
      await page.waitForFunction(
        () => document.querySelector('main h1')?.textContent === 'Wysyłaj pliki zaszyfrowane end-to-end',
      );
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'pl');
      await page.reload();
      await page.waitForFunction(
        () => document.querySelector('main h1')?.textContent === 'Wysyłaj pliki zaszyfrowane end-to-end',
      );
      assert.equal(await page.$eval('#language', (e) => (e as HTMLSelectElement).value), 'pl');
    } finally {
      await page.browserContext().close();
    }
  });

  test('a visitor downloads a file of three chunks and the zip of all through the service worker', async () => {
    const { dir, firefox, server } = suite;
    const big = bytes(12 * MIB + 12345, 71);
    const small = bytes(1000, 72);
    const title = 'Firefox check';
    const paths = [await writeTemp(dir, 'big.bin', big), await writeTemp(dir, 'small é.txt', small)];
    const { link } = await upload(paths, { server: server.baseUrl, title });
    const page = await firefox.page();
    try {
      await firefox.clearDownloads();
      await page.goto(link);
      await waitFor(page, '#files li[data-file-id] button.download:not([disabled])');
      assert.equal(await page.$eval('#folder-title', (e) => e.textContent), title);
      const names = await page.$$eval('#files li[data-file-id] .name', (es) => es.map((e) => e.textContent));
      assert.deepEqual([...names].sort(), ['big.bin', 'small é.txt']);
      await shot(page, 'visitor');
      const index = names.indexOf('big.bin') + 1;
      const path = await clickDownload(page, `#files li[data-file-id]:nth-child(${index}) button.download`);
      assert.equal(path, 'service-worker');
      const got = await firefox.downloaded('big.bin', big.length);
      assert.equal(sha256(got), sha256(big), 'the downloaded bytes equal the uploaded ones');
      assert.equal(await clickDownload(page, '#download-all'), 'service-worker');
      const listing = await firefox.downloadedWhen(`${title}.zip`, zipListing);
      assert.deepEqual(
        listing,
        [`big.bin ${big.length} ${sha256(big)}`, `small é.txt ${small.length} ${sha256(small)}`].sort(),
      );
    } finally {
      await page.browserContext().close();
    }
  });

  test('reload mid-upload, pick the same file again: only the missing chunks are sent', async () => {
    const { dir, firefox, server } = suite;
    const content = bytes(4 * 5 * MIB + 99, 73); // five chunks
    const path = await writeTemp(dir, 'resume.bin', content);
    const created = (await (
      await fetch(`${server.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'send', title: 'Resume' }),
      })
    ).json()) as { folderId: string; folderUrl: string };
    const page = await firefox.page();
    try {
      await page.goto(created.folderUrl);
      await waitFor(page, '#file-input');
      // Let two chunks through, then fail every later PUT (the page retries with backoff) until the reload.
      let passed = 0;
      await page.setRequestInterception(true);
      // The gate stays for the whole test (turning interception off could strand a request it holds);
      // after the reload it lets everything through. A request the reload ended cannot be answered.
      let open = false;
      const gate = (request: HTTPRequest) => {
        const through = open || request.method() !== 'PUT' || !request.url().includes('/v2/uploads/') || passed++ < 2;
        (through ? request.continue() : request.abort('connectionreset')).catch(() => {});
      };
      page.on('request', gate);
      await pick(page, [path]);
      let fileId = '';
      for (let i = 0; i < 300 && !fileId; i++) {
        const pending = await page.evaluate((id) => localStorage.getItem(`webfolder:uploads:${id}`), created.folderId);
        if (pending) fileId = (JSON.parse(pending) as Array<{ fileId: string }>)[0]!.fileId;
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(fileId, 'the page recorded the unfinished upload');
      const secret = await page.evaluate((id) => localStorage.getItem(`webfolder:owner:${id}`), created.folderId);
      assert.ok(secret, 'owner secret stored');
      const token = (await deriveOwnerCredentials(secret)).authToken;
      const api = `${server.baseUrl}/api/site/folders/${created.folderId}`;
      let status: { missing: number[] } = { missing: [] };
      for (let i = 0; i < 300; i++) {
        status = (await (
          await fetch(`${api}/files/${fileId}/status`, { headers: { 'x-owner-token': token } })
        ).json()) as { missing: number[] };
        if (status.missing.length === 3) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status.missing.length, 3, JSON.stringify(status));
      // Reload before lifting the block: a retry timer of the old page must not slip a chunk through.
      await page.reload({ waitUntil: 'domcontentloaded' });
      open = true;
      await waitFor(page, '#resume-note', 20_000).catch(async (error: Error) => {
        // Say what the page showed instead, and what it had kept, so that a failure can be understood.
        const shown = await page.evaluate(() => document.getElementById('main')?.innerText ?? '(no #main)');
        const kept = await page.evaluate(() => JSON.stringify(localStorage));
        throw new Error(`${error.message}\npage after reload: ${shown}\nlocalStorage: ${kept}`);
      });
      assert.match(await page.$eval('#resume-note', (e) => e.textContent ?? ''), /resume\.bin/);
      const sent: number[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().includes('/v2/uploads/'))
          sent.push(Number(new URL(r.url()).pathname.split('/').pop()));
      });
      await pick(page, [path]);
      await waitFor(page, '#upload-status[data-state="complete"]');
      assert.deepEqual(sent.sort(), status.missing);
      await firefox.clearDownloads();
      await waitFor(page, '#files li[data-file-id] button.download:not([disabled])');
      assert.equal(await clickDownload(page, '#files li[data-file-id] button.download'), 'service-worker');
      assert.equal(sha256(await firefox.downloaded('resume.bin', content.length)), sha256(content));
    } finally {
      await page.browserContext().close();
    }
  });

  test('the viewer shows an image and a video of three chunks that seeks, streamed by the service worker', {
    skip: NO_CHROMIUM,
  }, async () => {
    const { dir, firefox, server } = suite;
    // The WebM (VP8) is made by Chromium's WebCodecs; Firefox plays VP8 itself.
    const video = await webmFromChromium(server.baseUrl, 11 * MIB);
    const paths = [await writeTemp(dir, 'clip.webm', video), await writeTemp(dir, 'photo.png', png(300, 200))];
    const { link } = await upload(paths, { server: server.baseUrl });
    const page = await firefox.page();
    try {
      await page.goto(link);
      await waitFor(page, '#files button.open');
      const open = async (name: string) => {
        const buttons = await page.$$('#files button.open');
        for (const b of buttons) if ((await b.evaluate((e) => e.textContent)) === name) return b.click();
        assert.fail(`no ${name} in the list`);
      };
      await open('photo.png');
      await waitFor(page, '#viewer-content img#viewer-image');
      await page.waitForFunction(
        () => (document.getElementById('viewer-image') as HTMLImageElement | null)?.naturalWidth === 300,
        { timeout: 30_000 },
      );
      await shot(page, 'viewer-image', false);
      await page.click('#viewer-close');
      await open('clip.webm');
      await waitFor(page, '#viewer-content[data-way="stream"] video#viewer-media');
      const ready = () => {
        const v = document.getElementById('viewer-media') as HTMLVideoElement | null;
        return v !== null && v.readyState >= 2 && Number.isFinite(v.duration);
      };
      await page.waitForFunction(ready, { timeout: 30_000 });
      const duration = await page.$eval('#viewer-media', (v) => (v as HTMLVideoElement).duration);
      assert.ok(duration >= 2, `duration ${duration}`);
      for (const target of [duration / 2, duration - 0.3]) {
        await page.$eval(
          '#viewer-media',
          (v, t) => {
            (v as HTMLVideoElement).currentTime = t;
          },
          target,
        );
        await page.waitForFunction(
          (t: number) => {
            const v = document.getElementById('viewer-media') as HTMLVideoElement;
            return !v.seeking && v.readyState >= 2 && v.currentTime >= t - 0.05;
          },
          { timeout: 30_000 },
          target,
        );
      }
    } finally {
      await page.browserContext().close();
    }
  });

  test('the home page makes a password folder with a one-download limit; a visitor unlocks it once', async () => {
    const { dir, firefox, server } = suite;
    const content = bytes(3000, 74);
    const owner = await firefox.page();
    let folderLink: string;
    try {
      await owner.goto(`${server.baseUrl}/`);
      await waitFor(owner, '#new-mode');
      await shot(owner, 'home');
      await owner.select('#new-mode', 'share');
      await owner.type('#new-title', 'Firefox locked');
      await owner.type('#new-limit', '1');
      await owner.type('#new-password', 'tulip anchor violet seven');
      await owner.type('#new-note', 'For your eyes only');
      await owner.click('button[type=submit]');
      await waitFor(owner, '#role[data-role="owner"]');
      folderLink = owner.url();
      await pick(owner, [await writeTemp(dir, 'locked.txt', content)]);
      await waitFor(owner, '#upload-status[data-state="complete"]');
      await waitFor(owner, '#files li[data-file-id]');
      await shot(owner, 'owner');
    } finally {
      await owner.browserContext().close();
    }

    const visitor = await firefox.page();
    try {
      await firefox.clearDownloads();
      await visitor.goto(folderLink);
      await waitFor(visitor, '#folder-password');
      await visitor.type('#folder-password', 'tulip anchor violet');
      await visitor.click('#unlock');
      await waitFor(visitor, '#password-status .error');
      // The page selects the refused password, so typing replaces it.
      await visitor.type('#folder-password', 'tulip anchor violet seven');
      await visitor.click('#unlock');
      await waitFor(visitor, '#files li[data-file-id] button.download:not([disabled])');
      assert.equal(await visitor.$eval('#role', (e) => e.getAttribute('data-role')), 'visitor');
      assert.equal(await visitor.$eval('#note', (e) => e.textContent), 'For your eyes only');
      assert.equal(await clickDownload(visitor, '#files li button.download'), 'service-worker');
      assert.equal(sha256(await firefox.downloaded('locked.txt', content.length)), sha256(content));
      await waitFor(visitor, '#files li .count[data-left="0"]');
    } finally {
      await visitor.browserContext().close();
    }
  });
});
