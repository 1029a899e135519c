import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { upload } from '../../src/client/node/index.js';
import { isUnavailable, type S3Service, startS3 } from '../support/services.js';
import { newContext, SKIP, useBrowserFixture, watch, writeTemp } from './browser.js';
import { playsAndSeeks, png, webm } from './media.js';

/**
 * The viewer on the S3 backend, in Chromium: the service worker fetches a video's RFC 8188 records
 * with ranged GETs of presigned bucket URLs (cross-origin), under exactly the narrow CORS rule
 * docs/site.md gives operators, and the video plays and seeks to the middle and the last chunk; an
 * image uploaded there by the page gets its thumbnail stored in the bucket, shown in the grid.
 */
const MIB = 1024 * 1024;
const s3 = await startS3();
if (SKIP && !isUnavailable(s3)) await s3.stop();
const skip = SKIP || (isUnavailable(s3) ? s3.skip : false);
const storage = s3 as S3Service;
const bucket = isUnavailable(s3) ? '' : storage.freshBucket();

describe('site on S3: streamed video seeks by record ranges (Chromium)', { skip }, () => {
  const fx = useBrowserFixture(isUnavailable(s3) ? {} : storage.env(bucket));
  after(async () => {
    if (!isUnavailable(s3)) await storage.stop();
  });

  test('plays and seeks under the narrowest documented CORS rule; a page upload stores its thumbnail', async () => {
    const video = await webm(fx.browser, fx.server.baseUrl, 11 * MIB);
    const client = new S3Client({
      endpoint: storage.endpoint,
      region: storage.region,
      forcePathStyle: true,
      credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
    });
    try {
      const rule = {
        AllowedOrigins: [new URL(fx.server.baseUrl).origin],
        AllowedMethods: ['PUT', 'GET'],
        AllowedHeaders: ['content-type'],
        ExposeHeaders: ['ETag'],
      };
      await client.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: [rule] } }));
    } finally {
      client.destroy();
    }
    const paths = [await writeTemp(fx.dir, 'clip.webm', video)];
    const { link } = await upload(paths, { server: fx.server.baseUrl, mode: 'share' });
    const context = await newContext(fx.browser);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(link);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.locator('#files button.open', { hasText: 'clip.webm' }).click();
    await page.locator('#viewer-media').waitFor();
    await playsAndSeeks(page);
    await page.keyboard.press('Escape');

    // An image uploaded from the page into the same folder: its thumbnail is in the bucket.
    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'photo.png', png(200, 100))]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    const { services } = fx.server.server;
    const folderId = new URL(link).pathname.split('/').pop()!;
    const files = await services.store.listFiles(folderId, { limit: 10, liveAt: Date.now() });
    const photo = files.find((f) => f.filesize < video.length)!;
    assert.ok(await services.blobs.readThumbnail({ folderId, fileId: photo.id }), 'stored in the bucket');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
