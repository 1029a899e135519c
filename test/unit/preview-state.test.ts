import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SiteFile } from '../../src/contract/site.js';
import type { OpenedFile } from '../../web/src/state/index.js';
import {
  arriving,
  canThumbnail,
  downloadable,
  isImageFolder,
  MEMORY_LIMIT,
  previewPlan,
  previewType,
  TEXT_LIMIT,
  THUMBNAIL_SOURCE_LIMIT,
  thumbnailSize,
  typeIcon,
  Viewer,
  viewerKey,
} from '../../web/src/state/preview.js';

/** The viewer's DOM-free state (web/src/state/preview.ts): kinds, safe types, ways, next/previous, keys. */

describe('previewType', () => {
  test('the extension decides first, then the uploader’s type', () => {
    assert.deepEqual(previewType('a/b/Photo.JPG', null), { kind: 'image', type: 'image/jpeg' });
    assert.deepEqual(previewType('x.avif', 'application/octet-stream'), { kind: 'image', type: 'image/avif' });
    assert.deepEqual(previewType('clip.webm', null), { kind: 'video', type: 'video/webm' });
    assert.deepEqual(previewType('song.mp3', null), { kind: 'audio', type: 'audio/mpeg' });
    assert.deepEqual(previewType('paper.pdf', null), { kind: 'pdf', type: 'application/pdf' });
    assert.deepEqual(previewType('README.md', null), { kind: 'markdown', type: 'text/plain' });
    assert.deepEqual(previewType('main.rs', null), { kind: 'text', type: 'text/plain' });
    assert.deepEqual(previewType('Makefile', null), { kind: 'text', type: 'text/plain' });
    assert.deepEqual(previewType('noext', 'image/png'), { kind: 'image', type: 'image/png' });
    assert.deepEqual(previewType('noext', 'text/csv; charset=utf-8'), { kind: 'text', type: 'text/plain' });
    assert.deepEqual(previewType('data.bin', null), { kind: 'none', type: 'application/octet-stream' });
  });
  test('nothing is ever handed to the browser as a document type', () => {
    for (const [name, mime] of [
      ['page.html', 'text/html'],
      ['page.htm', null],
      ['page.xhtml', 'application/xhtml+xml'],
      ['noext', 'text/html'],
      ['noext', 'application/xhtml+xml'],
      ['feed.xml', 'application/xml'],
      ['x.txt', 'text/html'],
    ] as const) {
      const { kind, type } = previewType(name, mime);
      assert.equal(kind, 'text', `${name} ${mime}`);
      assert.equal(type, 'text/plain');
    }
    assert.deepEqual(previewType('drawing.svg', 'text/html'), { kind: 'image', type: 'image/svg+xml' });
    assert.deepEqual(previewType('noext', 'image/svg+xml'), { kind: 'image', type: 'image/svg+xml' });
  });
});

describe('previewPlan', () => {
  test('media streams with a service worker, from memory under the limit without one', () => {
    assert.equal(previewPlan('v.mp4', null, 10 * MEMORY_LIMIT, true).way, 'stream');
    assert.equal(previewPlan('v.mp4', null, MEMORY_LIMIT, false).way, 'memory');
    const big = previewPlan('v.mp4', null, MEMORY_LIMIT + 1, false);
    assert.equal(big.way, 'download');
    assert.equal(big.reason, 'no-stream');
    assert.equal(big.limitMiB, MEMORY_LIMIT / (1024 * 1024));
  });
  test('images and PDFs from memory up to the limit, text up to its own', () => {
    assert.equal(previewPlan('a.png', null, MEMORY_LIMIT, true).way, 'memory');
    assert.equal(previewPlan('a.pdf', null, MEMORY_LIMIT + 1, true).way, 'download');
    assert.equal(previewPlan('a.txt', null, TEXT_LIMIT, true).way, 'memory');
    assert.equal(previewPlan('a.md', null, TEXT_LIMIT + 1, true).way, 'download');
    assert.equal(previewPlan('a.bin', null, 10, true).way, 'download');
  });
  test('a file still arriving: media streams what has arrived, the rest is shown once complete', () => {
    assert.equal(previewPlan('v.mp4', null, 10 * MEMORY_LIMIT, true, true).way, 'stream');
    assert.equal(previewPlan('a.mp3', null, MEMORY_LIMIT, true, true).way, 'stream');
    for (const [name, sw] of [
      ['a.png', true],
      ['a.pdf', true],
      ['a.txt', true],
      ['v.mp4', false],
    ] as const) {
      const plan = previewPlan(name, null, 1000, sw, true);
      assert.equal(plan.way, 'download', name);
      assert.equal(plan.reason, 'arriving', name);
    }
  });
});

function opened(id: string, complete = true, secret: string | null = 's', mine = false): OpenedFile {
  return { file: { fileId: id, complete, mine } as SiteFile, name: id, mimetype: null, secret };
}

describe('downloadable while arriving', () => {
  const visitor = { info: { isOwner: false } };
  test("a file arriving from another sender can be downloaded; one's own stopped upload cannot", () => {
    assert.equal(arriving(opened('x', false)), true);
    assert.equal(downloadable(visitor, opened('x', false)), true);
    assert.equal(arriving(opened('m', false, 's', true)), false);
    assert.equal(downloadable(visitor, opened('m', false, 's', true)), false);
    assert.equal(downloadable(visitor, opened('m', true, 's', true)), true);
    assert.equal(downloadable(visitor, opened('u', false, null)), false);
  });
});

describe('Viewer', () => {
  test("steps through readable files (arriving ones too, not one's own stopped upload), wrapping around", () => {
    const viewer = new Viewer([
      opened('a'),
      opened('b', false),
      opened('c', true, null),
      opened('m', false, 's', true),
    ]);
    viewer.add([opened('d'), opened('e')]);
    assert.deepEqual(
      viewer.files.map((f) => f.file.fileId),
      ['a', 'b', 'd', 'e'],
    );
    assert.equal(viewer.current, null);
    assert.equal(viewer.next(), null);
    assert.equal(viewer.open('c'), false);
    assert.equal(viewer.open('m'), false);
    assert.equal(viewer.open('b'), true);
    assert.equal(viewer.open('d'), true);
    assert.equal(viewer.position(), '3 of 4');
    assert.equal(viewer.next()?.file.fileId, 'e');
    assert.equal(viewer.next()?.file.fileId, 'a');
    assert.equal(viewer.previous()?.file.fileId, 'e');
    viewer.close();
    assert.equal(viewer.current, null);
    assert.equal(viewer.position(), '');
  });
  test('keys', () => {
    assert.equal(viewerKey('ArrowRight'), 'next');
    assert.equal(viewerKey('ArrowLeft'), 'previous');
    assert.equal(viewerKey('Escape'), 'close');
    assert.equal(viewerKey('a'), null);
    assert.equal(viewerKey('ArrowLeft', true), 'next', 'right to left: the left arrow goes on');
    assert.equal(viewerKey('ArrowRight', true), 'previous');
    assert.equal(viewerKey('Escape', true), 'close');
  });
});

function named(name: string | null, size = 1000, complete = true): OpenedFile {
  return { file: { fileId: name ?? 'x', complete, filesize: size } as SiteFile, name, mimetype: null, secret: 's' };
}

describe('thumbnails', () => {
  test('fit in 256 px keeping proportions, never enlarged', () => {
    assert.deepEqual(thumbnailSize(300, 200), { width: 256, height: 171 });
    assert.deepEqual(thumbnailSize(100, 400), { width: 64, height: 256 });
    assert.deepEqual(thumbnailSize(40, 30), { width: 40, height: 30 });
    assert.deepEqual(thumbnailSize(10000, 1), { width: 256, height: 1 });
  });
  test('made for raster images this browser reads, not SVG, not too large, not unfinished', () => {
    assert.equal(canThumbnail(named('a.jpg')), true);
    assert.equal(canThumbnail(named('a.svg')), false);
    assert.equal(canThumbnail(named('a.txt')), false);
    assert.equal(canThumbnail(named('a.png', THUMBNAIL_SOURCE_LIMIT + 1)), false);
    assert.equal(canThumbnail(named('a.png', 10, false)), false);
    assert.equal(canThumbnail({ ...named('a.png'), secret: null }), false);
  });
  test('a folder is a grid when at least half of its readable files are images', () => {
    assert.equal(isImageFolder([named('a.jpg'), named('b.txt')]), true);
    assert.equal(isImageFolder([named('a.jpg'), named('b.txt'), named('c.pdf')]), false);
    assert.equal(isImageFolder([named('a.jpg'), named(null), named(null)]), true);
    assert.equal(isImageFolder([named('b.txt')]), false);
    assert.equal(isImageFolder([]), false);
  });
  test('icons by type', () => {
    assert.equal(typeIcon(named('a.mp4')), 'video');
    assert.equal(typeIcon(named('a.bin')), 'none');
    assert.equal(typeIcon(named(null)), 'locked');
  });
});
