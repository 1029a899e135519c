import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ElementHandle } from 'puppeteer-core';
import { bytes, writeTemp } from './browser.js';
import { MISSING, SKIP, sha256, shot, useFirefox } from './firefox.js';

/**
 * Drop and go (issue 24, item 1) in Firefox: a file picked on the home page makes the folder and
 * uploads at once; the owner's grid keeps Manage inside its tile; a visitor downloads the bytes.
 */
describe('site: drop and go in Firefox', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useFirefox('webfolder-firefox-go-');

  test('a file picked on the home page uploads into a new folder; a visitor downloads it', async () => {
    const { dir, firefox, server } = suite;
    const content = bytes(6 * 1024 * 1024 + 5, 91);
    const owner = await firefox.page();
    let link: string;
    try {
      await owner.goto(`${server.baseUrl}/`);
      await owner.waitForSelector('#new-title');
      await owner.type('#new-title', 'Firefox drop');
      const input = (await owner.$('#file-input')) as ElementHandle<HTMLInputElement> | null;
      assert.ok(input, 'the home page has a file input');
      await input.uploadFile(await writeTemp(dir, 'ff-go.bin', content));
      await owner.waitForSelector('#upload-status[data-state="complete"]', { timeout: 60_000 });
      await owner.waitForSelector('#role[data-role="owner"]');
      assert.equal(await owner.$eval('#folder-title', (e) => e.textContent), 'Firefox drop');
      assert.match(owner.url(), /\/f\/[A-Za-z0-9_-]{16}#/);
      link = owner.url();
      await shot(owner, 'drop-and-go-owner');
    } finally {
      await owner.browserContext().close();
    }
    const visitor = await firefox.page();
    try {
      await firefox.clearDownloads();
      await visitor.goto(link);
      await visitor.waitForSelector('#files li[data-file-id] button.download:not([disabled])');
      await visitor.click('#files li[data-file-id] button.download');
      assert.equal(sha256(await firefox.downloaded('ff-go.bin', content.length)), sha256(content));
    } finally {
      await visitor.browserContext().close();
    }
  });
});
