import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  backoffDelay,
  DEFAULT_RETRY,
  InputError,
  isRetryableStatus,
  parseRetryAfter,
  parseShareLink,
  parseUploadState,
  shareLink,
  siteApiFor,
} from '../../src/client/index.js';
import { safeName } from '../../src/client/node/download.js';
import { formatBytes, formatDuration, ProgressView } from '../../src/client/progress.js';

/** The client's pure rules: retry policy, links, state parsing, file names, progress lines. */
describe('retry policy', () => {
  test('retries network-ish statuses only', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) assert.equal(isRetryableStatus(s), true, String(s));
    for (const s of [400, 401, 403, 404, 409, 411, 413]) assert.equal(isRetryableStatus(s), false, String(s));
  });
  test('Retry-After in seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('7'), 7);
    assert.equal(parseRetryAfter(null), null);
    assert.equal(parseRetryAfter('soon'), null);
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    assert.equal(parseRetryAfter(new Date(now + 30_000).toUTCString(), now), 30);
  });
  test('backoff is full jitter under an exponential ceiling', () => {
    const r = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      backoffDelay(0, r, () => 0.999),
      99,
    );
    assert.equal(
      backoffDelay(3, r, () => 0.5),
      400,
    );
    assert.equal(
      backoffDelay(10, r, () => 0.999),
      999,
      'capped at maxDelayMs',
    );
    assert.equal(
      backoffDelay(5, r, () => 0),
      0,
    );
  });
});

describe('links', () => {
  test('share link round trip', () => {
    const link = shareLink('https://files.example.com/f/AbC123', 'q_-x');
    assert.equal(link, 'https://files.example.com/f/AbC123#q_-x');
    assert.deepEqual(parseShareLink(link), {
      folderUrl: 'https://files.example.com/f/AbC123',
      origin: 'https://files.example.com',
      folderId: 'AbC123',
      secret: 'q_-x',
    });
  });
  test('a link without its secret or id is refused with a clear message', () => {
    assert.throws(
      () => parseShareLink('https://files.example.com/f/AbC123'),
      (e: unknown) => e instanceof InputError && /no secret/.test(e.message),
    );
    assert.throws(() => parseShareLink('not a link'), InputError);
    assert.throws(() => parseShareLink('https://files.example.com/#abc'), InputError);
  });
  test('the site API follows the path of the link', () => {
    assert.equal(siteApiFor('https://h.example/f/X'), 'https://h.example/api/site');
    assert.equal(siteApiFor('https://h.example/app/f/X'), 'https://h.example/app/api/site');
    assert.equal(
      siteApiFor('https://h.example/f/X', 'https://other.example/web/'),
      'https://other.example/web/api/site',
    );
  });
});

describe('upload state', () => {
  const valid = {
    version: 1,
    server: 'http://127.0.0.1:8080',
    folderId: 'F',
    folderUrl: 'http://127.0.0.1:8080/f/F',
    uploadAuth: 'U',
    secret: 'S',
    files: [
      {
        path: '/tmp/a',
        name: 'a',
        fileId: 'A',
        size: 10,
        mtime: 1,
        chunkSize: 5 * 1024 * 1024,
        chunks: 1,
        uploadUrls: { head: 'h', path: 'p', tail: 't', signatures: ['s'], headers: {} },
      },
    ],
  };
  test('a valid state parses', () => {
    assert.deepEqual(parseUploadState(JSON.parse(JSON.stringify(valid))), valid);
  });
  test('broken states name the problem', () => {
    assert.throws(() => parseUploadState({ ...valid, version: 2 }), /version/);
    assert.throws(() => parseUploadState({ ...valid, uploadAuth: '' }), /uploadAuth/);
    assert.throws(() => parseUploadState({ ...valid, files: [] }), /files/);
    // mode is optional (state files written before it existed have none), and must be a real mode.
    assert.deepEqual(parseUploadState({ ...valid, mode: 'request' }), { ...valid, mode: 'request' });
    assert.throws(() => parseUploadState({ ...valid, mode: 'public' }), /mode must be one of send, share, request/);
    assert.throws(() => parseUploadState({ ...valid, files: [{ ...valid.files[0], chunks: 0 }] }), /chunks/);
    assert.throws(() => parseUploadState(null), InputError);
  });
});

describe('download names', () => {
  test('decrypted names become plain file names', () => {
    assert.equal(safeName('report.pdf', 'id'), 'report.pdf');
    assert.equal(safeName('../../etc/passwd', 'id'), 'passwd');
    assert.equal(safeName('dir\\evil.exe', 'id'), 'evil.exe');
    assert.equal(safeName('..', 'id'), 'id');
    assert.equal(safeName('', 'id'), 'id');
    assert.equal(safeName('a\u0000b\nc', 'id'), 'a_b_c');
  });
});

describe('progress', () => {
  test('plain lines without a terminal, no secrets, no control sequences', () => {
    let out = '';
    const view = new ProgressView({ write: (t: string) => (out += t) }, false);
    view.handle({
      type: 'registered',
      folderId: 'F',
      totalBytes: 100,
      doneBytes: 0,
      files: [{ name: 'a.bin', size: 100, fileId: 'A', chunks: 10, doneBytes: 0 }],
    });
    for (let i = 1; i <= 10; i++)
      view.handle({
        type: 'chunk',
        file: 0,
        chunk: i,
        bytes: 10,
        fileDoneBytes: i * 10,
        doneBytes: i * 10,
        totalBytes: 100,
      });
    view.handle({ type: 'file-complete', file: 0 });
    view.finish();
    assert.ok(!out.includes('\x1b'), 'no escape sequences');
    assert.match(out, /uploading 1 file\(s\), 100 bytes/);
    assert.match(out, /done: a\.bin/);
    assert.ok(out.split('\n').length < 20, 'a line per 10 %, not per chunk');
  });
  test('bars on a terminal', () => {
    let out = '';
    const view = new ProgressView({ write: (t: string) => (out += t), isTTY: true, columns: 100 }, true);
    view.handle({
      type: 'registered',
      folderId: 'F',
      totalBytes: 100,
      doneBytes: 50,
      files: [{ name: 'a.bin', size: 100, fileId: 'A', chunks: 2, doneBytes: 50 }],
    });
    assert.match(out, /a\.bin\s+\[#+-+\]\s+50%/);
    assert.match(out, /total/);
  });
  test('formats', () => {
    // Decimal units, as the site writes them: the same file shows the same size everywhere.
    assert.equal(formatBytes(5_000_000), '5.00 MB');
    assert.equal(formatBytes(1536), '1.54 kB');
    assert.equal(formatBytes(12_345_678_901), '12.3 GB');
    assert.equal(formatBytes(999), '999 bytes');
    assert.equal(formatDuration(65), '1:05');
    assert.equal(formatDuration(3725), '1:02:05');
    assert.equal(formatDuration(NaN), '--:--');
  });
});
