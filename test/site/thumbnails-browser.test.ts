import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { upload } from '../../src/client/node/index.js';
import { decryptChunk, importSecret } from '../../src/crypto/index.js';
import { createFolder, newContext, SKIP, screenshot, useBrowserFixture, watch, writeTemp } from './browser.js';
import { png, webm } from './media.js';

/**
 * Thumbnails made at upload (web/src/adapters/thumbnail.ts, web/src/state): the page that uploads an
 * image or a video stores an encrypted thumbnail beside it, the server holds only ciphertext, and
 * the grid shows the stored one without fetching the file; a file uploaded by the client library
 * has none, and the grid makes one from the file itself.
 */
const MAGIC: Array<[string, number[]]> = [
  ['PNG', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG', [0xff, 0xd8, 0xff]],
  ['RIFF (WebP)', [0x52, 0x49, 0x46, 0x46]],
  ['GIF', [0x47, 0x49, 0x46]],
];

/** The grid's tiles: name, thumbnail pixel size, and where the picture comes from. */
async function tiles(page: Page): Promise<Array<[string, number | null, number | null, string]>> {
  return (
    await page.locator('#files li[data-file-id]').evaluateAll((items) =>
      items.map((li) => {
        const img = li.querySelector('img.thumb-image') as HTMLImageElement | null;
        return [
          li.querySelector('.name')?.textContent ?? '',
          img?.naturalWidth ?? null,
          img?.naturalHeight ?? null,
          img ? img.src.slice(0, 5) : (li.querySelector<SVGElement>('.thumb svg')?.dataset.icon ?? ''),
        ] as [string, number | null, number | null, string];
      }),
    )
  ).sort((a, b) => a[0].localeCompare(b[0]));
}

/** Chunk and thumbnail requests the page makes, with their answers' statuses. */
function requests(page: Page): Array<{ kind: 'chunk' | 'thumbnail'; fileId: string; status: number }> {
  const seen: Array<{ kind: 'chunk' | 'thumbnail'; fileId: string; status: number }> = [];
  page.on('response', (response) => {
    const m = /\/files\/([^/]+)\/(chunks\/\d+|thumbnail)$/.exec(new URL(response.url()).pathname);
    if (m && response.request().method() === 'GET')
      seen.push({ kind: m[2] === 'thumbnail' ? 'thumbnail' : 'chunk', fileId: m[1]!, status: response.status() });
  });
  return seen;
}

describe('site: thumbnails stored at upload (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('an image and a video uploaded from the page get an encrypted thumbnail the grid shows', async () => {
    const clip = await webm(fx.browser, fx.server.baseUrl, 300_000);
    const paths = [
      await writeTemp(fx.dir, 'wide.png', png(300, 200, [10, 120, 10])),
      await writeTemp(fx.dir, 'tall.png', png(100, 400, [10, 10, 120])),
      await writeTemp(fx.dir, 'clip.webm', clip),
    ];
    const folder = await createFolder(fx.server.baseUrl, 'share');
    const context = await newContext(fx.browser);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(folder.folderUrl);
    await page.setInputFiles('#file-input', paths);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });

    // What the server stores: an RFC 8188 message, no image format, that the folder key opens to a WebP.
    const { services } = fx.server.server;
    const files = await services.store.listFiles(folder.folderId, { limit: 10, liveAt: Date.now() });
    assert.equal(files.length, 3);
    const key = await importSecret(new URL(folder.folderUrl).hash.slice(1));
    for (const f of files) {
      const stored = await services.blobs.readThumbnail({ folderId: folder.folderId, fileId: f.id });
      assert.ok(stored, `file ${f.id} has a stored thumbnail`);
      for (const [format, magic] of MAGIC)
        assert.ok(!magic.every((b, i) => stored[i] === b), `the stored bytes are not a ${format} image`);
      assert.equal(Buffer.from(stored).readUInt32BE(16), 65_536, 'an RFC 8188 header (record size 65536)');
      const image = Buffer.from(await decryptChunk(key, stored));
      assert.equal(image.subarray(0, 4).toString('latin1'), 'RIFF');
      assert.equal(image.subarray(8, 12).toString('latin1'), 'WEBP');
    }

    // Another browser opens the folder: the grid shows the stored thumbnails, fetching no chunk.
    const visitor = await newContext(fx.browser);
    const view = await visitor.newPage();
    const seen = requests(view);
    const viewProblems = watch(view);
    await view.goto(folder.folderUrl);
    await view.locator('#files.grid li').first().waitFor();
    await view.waitForFunction(() => document.querySelectorAll('#files img.thumb-image').length === 3);
    assert.deepEqual(await tiles(view), [
      ['clip.webm', 256, 144, 'blob:'],
      ['tall.png', 64, 256, 'blob:'],
      ['wide.png', 256, 171, 'blob:'],
    ]);
    assert.deepEqual(
      seen.filter((r) => r.kind === 'chunk'),
      [],
      'no chunk fetched: the thumbnails came from the server',
    );
    assert.equal(seen.filter((r) => r.kind === 'thumbnail' && r.status === 200).length, 3);
    await screenshot(view, 'folder-grid-stored-thumbnails');
    assert.deepEqual(problems, []);
    assert.deepEqual(viewProblems, []);
    await context.close();
    await visitor.close();
  });

  test("request mode: a visitor's thumbnail is under the file's own secret; the owner's grid shows it", async () => {
    const folder = await createFolder(fx.server.baseUrl, 'request');
    const ownerCtx = await newContext(fx.browser);
    const visitorCtx = await newContext(fx.browser);
    const po = await ownerCtx.newPage();
    const pv = await visitorCtx.newPage();
    const problems = [...watch(po), ...watch(pv)];
    await po.goto(folder.folderUrl);
    await po.setInputFiles('#file-input', [await writeTemp(fx.dir, 'owner.png', png(80, 60))]);
    await po.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await po.locator('#role[data-role="owner"]').waitFor();
    await pv.goto(folder.folderUrl);
    await pv.locator('#role[data-role="visitor"]').waitFor();
    await pv.setInputFiles('#file-input', [await writeTemp(fx.dir, 'visitor.png', png(90, 120))]);
    await pv.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });

    const { services } = fx.server.server;
    const files = await services.store.listFiles(folder.folderId, { limit: 10, liveAt: Date.now() });
    const sealed = files.find((f) => f.sealedKey !== null)!;
    const stored = await services.blobs.readThumbnail({ folderId: folder.folderId, fileId: sealed.id });
    assert.ok(stored, "the visitor's file has a stored thumbnail");
    const folderKey = await importSecret(new URL(folder.folderUrl).hash.slice(1));
    await assert.rejects(decryptChunk(folderKey, stored), 'not under the folder secret every visitor holds');

    await po.reload();
    // The owner's page is longer (owner link, notifications): tiles load as they scroll into view.
    await po.locator('#files li').last().scrollIntoViewIfNeeded();
    await po.waitForFunction(() => document.querySelectorAll('#files img.thumb-image').length === 2);
    assert.deepEqual(await tiles(po), [
      ['owner.png', 80, 60, 'blob:'],
      ['visitor.png', 90, 120, 'blob:'],
    ]);
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });

  test('an image uploaded with the client library has none stored; the grid makes one from the file', async () => {
    const path = await writeTemp(fx.dir, 'cli.png', png(120, 90));
    const { link } = await upload([path], { server: fx.server.baseUrl });
    const context = await newContext(fx.browser);
    const page = await context.newPage();
    const seen = requests(page);
    const problems = watch(page);
    await page.goto(link);
    await page.waitForFunction(() => document.querySelectorAll('#files img.thumb-image').length === 1);
    assert.deepEqual(await tiles(page), [['cli.png', 120, 90, 'blob:']]);
    const fileId = seen.find((r) => r.kind === 'thumbnail')?.fileId;
    assert.ok(fileId);
    assert.deepEqual(
      seen.filter((r) => r.fileId === fileId).map((r) => [r.kind, r.status]),
      [
        ['thumbnail', 404],
        ['chunk', 200],
      ],
    );
    const folderId = new URL(link).pathname.split('/').pop()!;
    assert.equal(await fx.server.server.services.blobs.readThumbnail({ folderId, fileId }), null, 'nothing stored');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
