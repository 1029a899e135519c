import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { GetBucketCorsCommand, ListObjectsV2Command, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { BUCKET_CORS_RULES } from '../../src/blobs/s3/s3-blob-store.js';
import { upload } from '../../src/client/node/index.js';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import {
  type BrowserFixture,
  bytes,
  createFolder,
  downloadBytes,
  newContext,
  s3ForBrowser,
  useS3BrowserFixture,
  watch,
  writeTemp,
} from './browser.js';
import { playsAndSeeks, png, webm } from './media.js';

/**
 * The browser site on the S3 backend, end to end in Chromium: the page PUTs encrypted chunks straight
 * to presigned bucket URLs and downloads by fetching presigned GET URLs, both cross-origin (the site on
 * one loopback port, the RADOS Gateway on another), so this needs the bucket's CORS rules and the site's
 * connect-src to allow the bucket's origin.
 */
const MIB = 1024 * 1024;

const suite = await s3ForBrowser();
const { skip, storage } = suite;

describe('site on S3: upload and download in Chromium', { skip }, () => {
  const fx = useS3BrowserFixture(suite);
  const { bucket } = fx;

  function client(): S3Client {
    return new S3Client({
      endpoint: storage.endpoint,
      region: storage.region,
      forcePathStyle: true,
      credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
    });
  }

  async function listKeys(prefix: string): Promise<Map<string, number>> {
    const c = client();
    try {
      const keys = new Map<string, number>();
      let token: string | undefined;
      do {
        const page = await c.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) keys.set(o.Key!, o.Size!);
        token = page.NextContinuationToken;
      } while (token);
      return keys;
    } finally {
      c.destroy();
    }
  }

  async function filesUnder(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  }

  /**
   * Creates a share folder, uploads two files in one browser (the first upload claims it), checks
   * where the chunks landed, then downloads both in a second browser and compares the bytes.
   */
  async function roundTrip(fixture: BrowserFixture, seed: number): Promise<void> {
    const folder = await createFolder(fixture.server.baseUrl, 'share', `On S3 ${seed}`);
    const big = bytes(11 * MIB + 4321, seed); // three chunks of 5 MiB
    const small = bytes(2500, seed + 1);
    const paths = [
      await writeTemp(fixture.dir, `big-${seed}.bin`, big),
      await writeTemp(fixture.dir, `small-${seed}.txt`, small),
    ];

    const ownerCtx = await newContext(fixture.browser);
    const visitorCtx = await newContext(fixture.browser);
    try {
      const page = await ownerCtx.newPage();
      const problems = watch(page);
      const res = await page.goto(folder.folderUrl);
      assert.equal(res?.status(), 200);
      const csp = res!.headers()['content-security-policy'] ?? '';
      const connect =
        csp
          .split(';')
          .map((d) => d.trim())
          .find((d) => d.startsWith('connect-src ')) ?? '';
      assert.ok(
        connect.split(' ').includes(new URL(storage.endpoint).origin),
        `connect-src allows the bucket's origin: ${connect}`,
      );
      await page.locator('#deadline').waitFor();
      assert.equal(await page.locator('#role').getAttribute('data-role'), 'unclaimed');

      await page.setInputFiles('#file-input', paths);
      // Settled either way (a chunk the bucket refuses is retried for about 30 s, then the file fails):
      // a failure then shows the page's reason instead of a timeout.
      const status = page.locator('#upload-status[data-state]');
      await status.waitFor({ timeout: 120_000 });
      assert.equal(
        await status.getAttribute('data-state'),
        'complete',
        `upload: ${await page.locator('section[aria-labelledby="upload-h"]').innerText()}`,
      );
      await page.locator('#role:not([data-role="unclaimed"])').waitFor();
      assert.equal(await page.locator('#role').getAttribute('data-role'), 'owner');
      const info = (await (await fetch(`${fixture.server.baseUrl}/api/site/folders/${folder.folderId}`)).json()) as {
        owned: boolean;
      };
      assert.equal(info.owned, true, 'the first upload claimed the folder');
      await page.locator('#files li[data-file-id] button.download:not([disabled])').first().waitFor();
      assert.deepEqual((await page.locator('#files li .name').allInnerTexts()).sort(), [
        `big-${seed}.bin`,
        `small-${seed}.txt`,
      ]);

      // The chunks are objects in the bucket (<folderId>/<fileId>/<NNNNN>): 3 + 1, each one RFC 8188
      // message of its chunk (21-byte header, 17 bytes per 64 KiB record) ...
      const keys = await listKeys(`${folder.folderId}/`);
      const sizes = [...keys.values()].sort((a, b) => a - b);
      const enc = encryptedLength;
      assert.deepEqual(
        sizes,
        [enc(2500), enc(11 * MIB + 4321 - 10 * MIB), enc(5 * MIB), enc(5 * MIB)].sort((a, b) => a - b),
        [...keys.keys()].join(', '),
      );
      for (const key of keys.keys()) assert.match(key, new RegExp(`^${folder.folderId}/[^/]+/0000[1-3]$`));
      // ... and none of them is in the server's DATA_DIR.
      const local = await filesUnder(fixture.server.dataDir);
      assert.deepEqual(
        local.filter((p) => p.includes(folder.folderId) || p.includes(`${join(fixture.server.dataDir, 'blobs')}/`)),
        [],
        'no chunk stored locally',
      );
      assert.deepEqual(problems, []);

      // A second browser downloads both files (a visitor of a share folder may).
      const v = await visitorCtx.newPage();
      const vProblems = watch(v);
      await v.goto(folder.folderUrl);
      await v.locator('#files li[data-file-id] button.download:not([disabled])').nth(1).waitFor();
      assert.equal(await v.locator('#role').getAttribute('data-role'), 'visitor');
      const gotBig = await downloadBytes(v, () =>
        v
          .locator('#files li', { hasText: `big-${seed}.bin` })
          .locator('button.download')
          .click(),
      );
      assert.equal(gotBig.name, `big-${seed}.bin`);
      assert.ok(gotBig.content.equals(big), 'the big file comes back byte for byte');
      const gotSmall = await downloadBytes(v, () =>
        v
          .locator('#files li', { hasText: `small-${seed}.txt` })
          .locator('button.download')
          .click(),
      );
      assert.equal(gotSmall.name, `small-${seed}.txt`);
      assert.ok(gotSmall.content.equals(small), 'the small file comes back byte for byte');
      assert.deepEqual(vProblems, []);
      assert.deepEqual(problems, []);
    } finally {
      await Promise.all([ownerCtx.close(), visitorCtx.close()]);
    }
  }

  test('the bucket the server created: its CORS rules; two files up to and back from the bucket', async () => {
    const c = client();
    try {
      const cors = await c.send(new GetBucketCorsCommand({ Bucket: bucket }));
      assert.deepEqual(
        // Sorted: the RADOS Gateway answers the methods in its own order.
        cors.CORSRules?.map((r) => ({ methods: [...(r.AllowedMethods ?? [])].sort(), origins: r.AllowedOrigins })),
        BUCKET_CORS_RULES.map((r) => ({ methods: [...r.AllowedMethods].sort(), origins: r.AllowedOrigins })),
        'the server set the CORS rules when it created the bucket',
      );
    } finally {
      c.destroy();
    }
    await roundTrip(fx, 11);
  });

  test('the narrowest CORS rule docs/site.md gives operators (site origin; PUT, GET; content-type; expose ETag) is enough', async () => {
    const c = client();
    try {
      const rule = {
        AllowedOrigins: [new URL(fx.server.baseUrl).origin],
        AllowedMethods: ['PUT', 'GET'],
        AllowedHeaders: ['content-type'],
        ExposeHeaders: ['ETag'],
      };
      await c.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: [rule] } }));
      const cors = await c.send(new GetBucketCorsCommand({ Bucket: bucket }));
      assert.deepEqual(
        cors.CORSRules?.map((r) => r.AllowedOrigins),
        [rule.AllowedOrigins],
      );
    } finally {
      c.destroy();
    }
    await roundTrip(fx, 21);
  });

  test('under that rule the viewer streams a video by ranged record GETs and seeks; a page upload stores its thumbnail', async () => {
    // The narrow rule of the test before is still the bucket's.
    const video = await webm(fx.browser, fx.server.baseUrl, 11 * MIB);
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
