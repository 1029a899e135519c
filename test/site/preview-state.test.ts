import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SiteFile } from '../../src/contract/site.js';
import { MEMORY_LIMIT, previewPlan, previewType, TEXT_LIMIT, Viewer, viewerKey } from '../../web/src/preview.js';
import type { OpenedFile } from '../../web/src/session.js';

/** The viewer's DOM-free state (web/src/preview.ts): kinds, safe types, ways, next/previous, keys. */

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
    assert.match(big.reason!, /service worker/);
  });
  test('images and PDFs from memory up to the limit, text up to its own', () => {
    assert.equal(previewPlan('a.png', null, MEMORY_LIMIT, true).way, 'memory');
    assert.equal(previewPlan('a.pdf', null, MEMORY_LIMIT + 1, true).way, 'download');
    assert.equal(previewPlan('a.txt', null, TEXT_LIMIT, true).way, 'memory');
    assert.equal(previewPlan('a.md', null, TEXT_LIMIT + 1, true).way, 'download');
    assert.equal(previewPlan('a.bin', null, 10, true).way, 'download');
  });
});

function opened(id: string, complete = true, secret: string | null = 's'): OpenedFile {
  return { file: { fileId: id, complete } as SiteFile, name: id, mimetype: null, secret };
}

describe('Viewer', () => {
  test('steps through readable complete files, wrapping around', () => {
    const viewer = new Viewer([opened('a'), opened('b', false), opened('c', true, null)]);
    viewer.add([opened('d'), opened('e')]);
    assert.deepEqual(
      viewer.files.map((f) => f.file.fileId),
      ['a', 'd', 'e'],
    );
    assert.equal(viewer.current, null);
    assert.equal(viewer.next(), null);
    assert.equal(viewer.open('b'), false);
    assert.equal(viewer.open('d'), true);
    assert.equal(viewer.position(), '2 of 3');
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
  });
});
