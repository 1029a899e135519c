import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { type BucketProxy, bucketReport, startBucketProxy } from '../client/bucket-proxy.js';
import { leaks, startStandIns } from '../support/stand-in.js';
import {
  bytes,
  createFolder,
  downloadBytes,
  newContext,
  s3ForBrowser,
  useS3BrowserFixture,
  watch,
  writeTemp,
} from './browser.js';

/**
 * The page keeps credentials off the bucket: on the S3 backend, with a header-logging stand-in as the
 * bucket host, the owner (X-Owner-Token) and a visitor (X-Visitor-Token) download in Chromium; the
 * bucket serves every chunk and never sees either header. (The library and the CLI:
 * test/client/redirect-credentials.test.ts.)
 * The page's bundle (its answer validators are compiled at build time) talks only to its own server:
 * a call redirected to another origin is not followed, and a foreign answer is shown as an error.
 * (Every client call over the transfer core: test/client/outbound-calls.test.ts.)
 */
const MIB = 1024 * 1024;
const suite = await s3ForBrowser();
const { skip, storage } = suite;
const proxy: BucketProxy | null = skip ? null : await startBucketProxy(storage.endpoint);

describe('site on S3: chunk downloads never carry credentials to the bucket (Chromium)', { skip }, () => {
  const fx = useS3BrowserFixture(suite, proxy ? { S3_ENDPOINT: proxy.endpoint } : {});
  after(async () => {
    await proxy?.close();
  });

  test('owner and visitor downloads reach the bucket without X-Owner-Token or X-Visitor-Token', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'No tokens to the bucket');
    const content = bytes(6 * MIB + 77, 91); // two chunks of 5 MiB
    const path = await writeTemp(fx.dir, 'tokens.bin', content);
    const ownerCtx = await newContext(fx.browser);
    const visitorCtx = await newContext(fx.browser);
    try {
      const owner = await ownerCtx.newPage();
      const problems = watch(owner);
      await owner.goto(folder.folderUrl);
      await owner.setInputFiles('#file-input', path);
      await owner.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 120_000 });
      const button = owner.locator('#files li[data-file-id] button.download:not([disabled])').first();
      await button.waitFor();
      assert.ok((await downloadBytes(owner, () => button.click())).content.equals(content));

      const visitor = await visitorCtx.newPage();
      await visitor.goto(folder.folderUrl);
      const visitorButton = visitor.locator('#files li[data-file-id] button.download:not([disabled])').first();
      await visitorButton.waitFor();
      assert.ok((await downloadBytes(visitor, () => visitorButton.click())).content.equals(content));
      assert.deepEqual(problems, []);
    } finally {
      await ownerCtx.close();
      await visitorCtx.close();
    }
    const { chunkGets, chunksServed, leaks } = bucketReport(proxy!.log, folder.folderId);
    assert.equal(chunksServed, 2, 'both chunks came from the bucket');
    assert.ok(chunkGets.length >= 4, `the bucket served both downloads: ${chunkGets.length} chunk GETs`);
    assert.deepEqual(leaks, []);
  });
  test('the page follows no redirect of its calls to another origin, and shows a foreign answer as an error', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Redirected');
    const elsewhere = await startStandIns();
    const ctx = await newContext(fx.browser);
    try {
      const apiPath = `**/api/site/folders/${folder.folderId}`;
      // A proxy that sends the page's "open folder" call (with X-Visitor-Token) to another origin.
      await ctx.route(apiPath, (route) =>
        route.fulfill({
          status: 307,
          headers: { location: `${elsewhere.elsewhere}/api/site/folders/${folder.folderId}` },
        }),
      );
      const page = await ctx.newPage();
      const problems = watch(page);
      await page.goto(folder.folderUrl);
      await page.locator('#error').waitFor();
      // Said in the page's words; what was refused (a redirect) goes to the console.
      assert.match(await page.locator('#error').innerText(), /the server answered with something this page cannot use/);
      assert.equal(elsewhere.elsewhereSeen.length, 0, 'the other origin got no request');
      // A foreign answer: refused by the bundle's validators, named, never rendered as a folder.
      await ctx.unroute(apiPath);
      await ctx.route(apiPath, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
      await page.reload();
      await page.locator('#error').waitFor();
      assert.match(await page.locator('#error').innerText(), /the server answered with something this page cannot use/);
      assert.deepEqual(problems, [], 'no page error and no CSP violation (the validators need no eval)');
      assert.deepEqual(leaks(elsewhere.elsewhereSeen), []);
    } finally {
      await ctx.close();
      await elsewhere.close();
    }
  });
});
