import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import yauzl from 'yauzl';
import { until } from '../support/poll.js';
import { tempDir } from '../support/server.js';
import { startXvfb, XVFB } from '../support/xvfb.js';
import { bytes, CHROMIUM, CHROMIUM_ARGS, createFolder, SKIP, watch, writeTemp } from './browser.js';
import { chunkRequest, useGatedServer } from './gated.js';

/**
 * The download written straight into a file the person picks (Chromium's `showSaveFilePicker`,
 * turned on with `localStorage['webfolder.saveFile'] = '1'`): a headed Chromium on Xvfb, whose
 * native save dialog is answered as a person would (a path typed, Save pressed, or Escape), and the
 * saved file's bytes checked against what was uploaded. Also: a closed picker starts nothing, and
 * offers the browser's own download instead; a browser without the API keeps the service worker's
 * download, turned on or not.
 */
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The number of an upload's chunk PUT (`…/v2/uploads/…/00002?…`), else null. */
function putChunk(req: IncomingMessage): number | null {
  if (req.method !== 'PUT' || !/\/v2\/uploads\//.test(req.url ?? '')) return null;
  const n = /\/(\d{5})\?/.exec(req.url ?? '')?.[1];
  return n === undefined ? null : Number(n);
}
const MISSING = SKIP || (XVFB ? false : 'Xvfb not found: apt-get install -y xvfb (the file dialog needs a display)');
if (MISSING && process.env.TEST_REQUIRE_CHROMIUM === '1') throw new Error(`${MISSING} (TEST_REQUIRE_CHROMIUM=1)`);

/** The entries of a zip, by name. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error || !archive) return reject(error);
      const out = new Map<string, Buffer>();
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const parts: Buffer[] = [];
          stream.on('data', (d: Buffer) => parts.push(d));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(parts));
            archive.readEntry();
          });
        });
      });
      archive.on('end', () => resolve(out));
      archive.on('error', reject);
      archive.readEntry();
    });
  });
}

describe('site: a download saved into the file the person picks (Chromium, headed)', { skip: MISSING }, () => {
  // The server behind the gate (test/support/gate.ts), which holds or answers chunk requests; a
  // headed Chromium on its own Xvfb.
  const site = useGatedServer(
    {},
    {
      prefix: 'webfolder-save-file-',
      open: async (dir) => {
        const xvfb = await startXvfb();
        const home = join(dir, 'home');
        await mkdir(home, { recursive: true });
        const browser = await chromium.launch({
          executablePath: CHROMIUM,
          headless: false,
          // The suites' flags, headed: a file dialog can be shown.
          args: CHROMIUM_ARGS.filter((a) => a !== '--headless'),
          env: { ...process.env, DISPLAY: xvfb.display, HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
        });
        return {
          browser,
          xvfb,
          async close() {
            await browser.close();
            await xvfb.close();
          },
        };
      },
    },
  );
  let saved: string;
  let dir: string;
  before(async () => {
    dir = await tempDir('webfolder-save-file-files-');
    saved = join(dir, 'picked');
    await mkdir(saved);
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A folder holding `files`, uploaded through the page, open in a page of its owner. */
  async function folderWith(files: Record<string, Buffer>): Promise<{ page: Page; problems: string[] }> {
    const folder = await createFolder(site.gate.url, 'send', 'Picked place');
    const paths = await Promise.all(Object.entries(files).map(([name, content]) => writeTemp(dir, name, content)));
    const context = await site.browser.browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1100, height: 900 },
    });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(folder.folderUrl);
    await page.evaluate(`localStorage.setItem('webfolder.saveFile', '1')`);
    await page.setInputFiles('#file-input', paths);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 120_000 });
    await page
      .locator('#files li[data-file-id] button.download:not([disabled])')
      .nth(paths.length - 1)
      .waitFor({ timeout: 60_000 });
    return { page, problems };
  }

  /** Counts the page's download starts (each `POST …/files/<id>/downloads` is one count on the server). */
  function countStarts(page: Page): { n: number; downloads: number } {
    const counter = { n: 0, downloads: 0 };
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/files\/[^/]+\/downloads$/.test(r.url())) counter.n++;
    });
    page.on('download', () => counter.downloads++);
    return counter;
  }

  test('a file is written where the person picked it, with the uploaded bytes', async () => {
    const content = bytes(12 * 1024 * 1024 + 4321, 71); // three chunks of 5 MiB
    const { page, problems } = await folderWith({ 'picked.bin': content });
    const counter = countStarts(page);
    const target = join(saved, 'picked-copy.bin');
    const answered = site.browser.xvfb.answerDialog({ action: 'save', path: target });
    await page.locator('#files li', { hasText: 'picked.bin' }).locator('button.download').click();
    await answered;
    const status = page.locator('#download-status[data-download-state="done"]');
    await status.waitFor({ timeout: 120_000 });
    assert.equal(await page.locator('#download-status').getAttribute('data-download-path'), 'save-file');
    assert.match(await status.innerText(), /^Downloaded picked\.bin\. .*saved where you picked/);
    const got = await readFile(target);
    assert.equal(got.length, content.length);
    assert.equal(sha256(got), sha256(content));
    assert.equal(counter.n, 1, 'one download counted');
    assert.equal(counter.downloads, 0, 'nothing went through the browser’s download manager');
    assert.equal(existsSync(`${target}.crswap`), false, 'no swap file left beside it');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('Download all writes the zip where the person picked it', async () => {
    const a = bytes(6 * 1024 * 1024 + 11, 72);
    const b = bytes(70_000, 73);
    const { page, problems } = await folderWith({ 'first.bin': a, 'second.txt': b });
    const target = join(saved, 'all.zip');
    const answered = site.browser.xvfb.answerDialog({ action: 'save', path: target });
    await page.locator('#download-all').click();
    await answered;
    await page.locator('#download-status[data-download-state="done"]').waitFor({ timeout: 120_000 });
    assert.equal(await page.locator('#download-status').getAttribute('data-download-path'), 'save-file');
    const entries = await unzip(await readFile(target));
    assert.deepEqual([...entries.keys()].sort(), ['first.bin', 'second.txt']);
    assert.equal(sha256(entries.get('first.bin')!), sha256(a));
    assert.equal(sha256(entries.get('second.txt')!), sha256(b));
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a closed picker starts nothing, and offers the browser’s own download instead', async () => {
    const content = bytes(300_000, 74);
    const { page, problems } = await folderWith({ 'closed.bin': content });
    const counter = countStarts(page);
    const answered = site.browser.xvfb.answerDialog({ action: 'cancel' });
    await page.locator('#files li', { hasText: 'closed.bin' }).locator('button.download').click();
    await answered;
    const line = page.locator('#download-status[data-download-state="not-picked"]');
    await line.waitFor();
    assert.match(await line.innerText(), /Not downloaded: no place to save closed\.bin was picked/);
    assert.equal(counter.n, 0, 'no ticket asked for, nothing counted');
    // The offered way: the service worker's download, into the browser's downloads.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.locator('#download-status button.use-downloads').click(),
    ]);
    assert.equal(await download.failure(), null);
    assert.equal(sha256(await readFile(await download.path())), sha256(content));
    assert.equal(await page.locator('#download-status').getAttribute('data-download-path'), 'service-worker');
    assert.equal(counter.n, 1);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a browser without the API keeps the service worker’s download', async () => {
    const content = bytes(5 * 1024 * 1024 + 99, 75);
    const { page, problems } = await folderWith({ 'plain.bin': content });
    // As in Firefox and Safari: no showSaveFilePicker (the picked file is turned on for this page).
    await page.evaluate('delete Window.prototype.showSaveFilePicker; delete window.showSaveFilePicker');
    assert.equal(await page.evaluate('typeof showSaveFilePicker'), 'undefined');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.locator('#files li', { hasText: 'plain.bin' }).locator('button.download').click(),
    ]);
    assert.equal(sha256(await readFile(await download.path())), sha256(content));
    await page.locator('#download-status[data-download-state="done"]').waitFor();
    assert.equal(await page.locator('#download-status').getAttribute('data-download-path'), 'service-worker');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
  test('Cancel stops the save: no file is left, and the line says so, not as a failure', async () => {
    const content = bytes(11 * 1024 * 1024, 76);
    const { page, problems } = await folderWith({ 'cancelled.bin': content });
    const target = join(saved, 'cancelled.bin');
    site.gate.hold(chunkRequest);
    const answered = site.browser.xvfb.answerDialog({ action: 'save', path: target });
    await page.locator('#files li', { hasText: 'cancelled.bin' }).locator('button.download').click();
    await answered;
    await until('a chunk request at the gate', () => site.gate.held().length > 0);
    assert.ok(existsSync(target), 'the picker made the file');
    await page.locator('#download-status button.cancel-save').click();
    site.gate.release();
    const line = page.locator('#download-status[data-download-state="cancelled"]');
    await line.waitFor({ timeout: 60_000 });
    assert.match(await line.innerText(), /^Cancelled: cancelled\.bin was not saved\.$/);
    await until('the empty file removed', async () => !existsSync(target));
    assert.equal(existsSync(`${target}.crswap`), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a refused chunk fails the save in the server’s words, and removes the empty file', async () => {
    const content = bytes(7 * 1024 * 1024, 77);
    const { page, problems } = await folderWith({ 'refused.bin': content });
    const target = join(saved, 'refused.bin');
    site.gate.hold(chunkRequest);
    const answered = site.browser.xvfb.answerDialog({ action: 'save', path: target });
    await page.locator('#files li', { hasText: 'refused.bin' }).locator('button.download').click();
    await answered;
    await until('a chunk request at the gate', () => site.gate.held().length > 0);
    site.gate.answer(403, {}, { error: 'the download ticket is wrong or expired', code: 'download_ticket_required' });
    const line = page.locator('#download-status[data-download-state="failed"]');
    await line.waitFor({ timeout: 60_000 });
    assert.match(await line.innerText(), /ticket is used up or expired: downloading again counts as a new download/);
    await until('the empty file removed', async () => !existsSync(target));
    assert.deepEqual(problems, []);
    await page.context().close();
  });
  test('a file still arriving is saved as its chunks come, byte for byte', async () => {
    const content = bytes(12 * 1024 * 1024 + 7, 78); // three chunks of 5 MiB
    const folder = await createFolder(site.gate.url, 'send', 'Still arriving');
    const ownerCtx = await site.browser.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const owner = await ownerCtx.newPage();
    await owner.goto(folder.folderUrl);
    // The sender's chunk PUTs from chunk 2 on wait at the gate: the file is arriving.
    site.gate.hold((req) => {
      const n = putChunk(req);
      return n !== null && n >= 2;
    });
    await owner.setInputFiles('#file-input', [await writeTemp(dir, 'arriving.bin', content)]);
    await until(
      'chunk 2 of the upload held at the gate',
      () => site.gate.held().some((r) => putChunk(r) === 2),
      60_000,
    );
    const visitorCtx = await site.browser.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const visitor = await visitorCtx.newPage();
    const problems = watch(visitor);
    await visitor.goto(folder.folderUrl);
    await visitor.evaluate(`localStorage.setItem('webfolder.saveFile', '1')`);
    await visitor.locator('#files li .arriving[data-stored="1"]').waitFor({ timeout: 60_000 });
    const target = join(saved, 'arriving.bin');
    const answered = site.browser.xvfb.answerDialog({ action: 'save', path: target });
    await visitor.locator('#files li button.download').click();
    await answered;
    // Chunk 1 is written while the rest has not arrived.
    await visitor
      .locator('#download-status .saving', { hasText: /5\.\d+ MB of 12\.\d+ MB/ })
      .waitFor({ timeout: 60_000 });
    site.gate.release();
    await visitor.locator('#download-status[data-download-state="done"]').waitFor({ timeout: 120_000 });
    assert.equal(await visitor.locator('#download-status').getAttribute('data-download-path'), 'save-file');
    assert.equal(sha256(await readFile(target)), sha256(content));
    assert.deepEqual(problems, []);
    await visitorCtx.close();
    await ownerCtx.close();
  });
});
