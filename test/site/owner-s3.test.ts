import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bytes, downloadBytes, newContext, s3ForBrowser, useS3BrowserFixture, watch, writeTemp } from './browser.js';

/**
 * The page's download tickets on the S3 backend, in Chromium: a file with a one-download limit is
 * fetched by a visitor through the service worker, whose chunk requests carry the ticket to the site
 * (which answers the presigned bucket URL) and none of the credentials to the bucket; the next
 * visitor is refused in the server's words.
 */
const MIB = 1024 * 1024;

const suite = await s3ForBrowser();
const { skip, storage } = suite;

describe('site on S3: a one-download file (Chromium)', { skip }, () => {
  const fx = useS3BrowserFixture(suite);

  test('the first visitor downloads it through the service worker, the second is refused', async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    await owner.goto(`${fx.server.baseUrl}/`);
    await owner.locator('#new-limit').fill('1');
    await Promise.all([owner.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), owner.locator('button[type=submit]').click()]);
    await owner.locator('#role[data-role="owner"]').waitFor();
    const content = bytes(6 * MIB + 3, 101); // two chunks of 5 MiB
    await owner.setInputFiles('#file-input', [await writeTemp(fx.dir, 'once.bin', content)]);
    await owner.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    const link = owner.url();

    const first = await newContext(fx.browser);
    const v1 = await first.newPage();
    const problems = watch(v1);
    // What the visitor's page and its service worker send to the bucket: never a ticket or a token.
    const toBucket: string[] = [];
    first.on('request', (r) => {
      if (r.url().startsWith(storage.endpoint)) toBucket.push(JSON.stringify(r.headers()));
    });
    await v1.goto(link);
    await v1.locator('#files li .count[data-left="1"]').waitFor();
    const got = await downloadBytes(v1, () => v1.locator('#files li button.download').click());
    assert.ok(got.content.equals(content));
    assert.equal(await v1.locator('#download-status').getAttribute('data-download-path'), 'service-worker');
    assert.ok(toBucket.length >= 2, `both chunks came from the bucket (${toBucket.length} requests)`);
    assert.ok(
      toBucket.every((h) => !/x-download-ticket|x-owner-token|x-visitor-token/i.test(h)),
      'no credential or ticket goes to the bucket',
    );
    assert.deepEqual(problems, []);

    const second = await newContext(fx.browser);
    const v2 = await second.newPage();
    await v2.goto(link);
    await v2.locator('#files li .count[data-left="0"]').waitFor();
    assert.equal(await v2.locator('#files li button.download').isDisabled(), true);
    await Promise.all([ownerCtx.close(), first.close(), second.close()]);
  });
});
