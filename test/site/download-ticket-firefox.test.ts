import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'puppeteer-core';
import { until } from '../support/poll.js';
import { bytes } from './browser.js';
import { MISSING, SKIP, sendFolderWithFile, sha256, shot, useGatedFirefox } from './firefox.js';
import { chunkRequest } from './gated.js';

/**
 * Issue #24 item 2 in Firefox (ESR over WebDriver BiDi): a limited download says when it waits
 * during an outage and completes; one that failed is started again by hand with its kept ticket
 * (a one-download file: a second count would be refused); the viewer's preview and its Download
 * are one download. The site is reached through the gate, which cuts or answers chunk requests.
 */
describe('site: one download per ticket in Firefox', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useGatedFirefox('webfolder-firefox-ticket-');

  const text = (page: Page, css: string) => page.$eval(css, (e) => e.textContent ?? '');

  const folderWithFile = (limit: string, content: Buffer, name: string) =>
    sendFolderWithFile(suite, limit, content, name);

  test('an outage: the line says it waits, with the attempt; the one download then completes', async () => {
    const content = bytes(2 * 1024 * 1024 + 3, 61);
    const { firefox, gate } = suite;
    const link = await folderWithFile('1', content, 'ff-wait.bin');
    const visitor = await firefox.page();
    try {
      await firefox.clearDownloads();
      await visitor.goto(link);
      await visitor.waitForSelector('#files li .count[data-left="1"]');
      gate.hold(chunkRequest);
      await visitor.click('#files li button.download');
      let told = '';
      await until(
        'the page says it waits',
        async () => {
          if (gate.held().length > 0) {
            gate.drop();
            gate.hold(chunkRequest);
          }
          const [state, line] = await visitor.$eval('#download-status', (e) => [
            (e as HTMLElement).dataset.downloadState ?? '',
            e.textContent ?? '',
          ]);
          if (state === 'waiting') told = line ?? '';
          return state === 'waiting';
        },
        120_000,
      );
      assert.match(
        told,
        /^Waiting: (the server did not answer|this device is offline); retrying in \d+ s \(attempt \d+\)/,
      );
      await shot(visitor, 'download-waiting');
      gate.release();
      assert.equal(sha256(await firefox.downloaded('ff-wait.bin', content.length)), sha256(content));
      await visitor.waitForSelector('#download-status[data-download-state="done"]', { timeout: 60_000 });
    } finally {
      gate.release();
      await visitor.browserContext().close();
    }
  });

  test("the viewer's preview and its Download are one download", async () => {
    const words = 'seen in Firefox, then kept';
    const { firefox } = suite;
    const link = await folderWithFile('2', Buffer.from(words), 'ff-keep.txt');
    const visitor = await firefox.page();
    try {
      await firefox.clearDownloads();
      await visitor.goto(link);
      await visitor.waitForSelector('#files li .count[data-left="2"]');
      await visitor.click('#files button.open');
      await visitor.waitForSelector('#viewer-open');
      await visitor.click('#viewer-open');
      await visitor.waitForSelector('#viewer-text');
      assert.equal(await text(visitor, '#viewer-text'), words);
      await visitor.click('#viewer-download');
      assert.equal((await firefox.downloaded('ff-keep.txt', Buffer.byteLength(words))).toString(), words);
      await visitor.waitForSelector('#download-status[data-download-path="viewer"]');
      await visitor.click('#viewer-close');
      await visitor.reload();
      await visitor.waitForSelector('#files li .count[data-left="1"]');
    } finally {
      await visitor.browserContext().close();
    }
  });

  test('a failed one-download download, started again by hand, goes on with its kept ticket', async () => {
    const content = bytes(1024 * 1024 + 9, 62);
    const { firefox, gate } = suite;
    const link = await folderWithFile('1', content, 'ff-again.bin');
    const visitor = await firefox.page();
    // Firefox may tell a failed download with an alert: dismissed (it is the browser's, not the page's).
    visitor.on('dialog', (d) => void d.dismiss().catch(() => {}));
    try {
      await firefox.clearDownloads();
      await visitor.goto(link);
      await visitor.waitForSelector('#files li .count[data-left="1"]');
      gate.hold(chunkRequest);
      await visitor.click('#files li button.download');
      await until('the chunk request at the gate', () => gate.held().length > 0, 60_000);
      gate.answer(404);
      await visitor.waitForSelector('#download-status[data-download-state="failed"]');
      // Counted once, none left for anyone; this page may finish its own download with its ticket.
      await visitor.waitForSelector('#files li .count[data-left="0"]');
      await visitor.waitForSelector('#files li button.download:not([disabled])');
      await visitor.click('#files li button.download');
      const saved = await firefox.downloadedAgain('ff-again.bin', content.length);
      assert.equal(sha256(saved), sha256(content));
      await visitor.waitForSelector('#download-status[data-download-state="done"]', { timeout: 60_000 });
      await visitor.waitForSelector('#files li button.download[disabled]');
    } finally {
      gate.release();
      await visitor.browserContext().close();
    }
  });
});
