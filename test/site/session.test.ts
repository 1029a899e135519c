import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { downloadStream } from '../../src/transfer/download.js';
import { WebfolderError } from '../../src/transfer/errors.js';
import type { Fetch } from '../../src/transfer/retry.js';
import { createFolder } from '../../src/transfer/v2.js';
import {
  type FolderSession,
  isExpired,
  type OpenFailure,
  openSession,
  parseFragment,
  type SessionOptions,
  type SiteStore,
  type UploadProgress,
} from '../../web/src/state/index.js';
import { startServer, useServer } from '../support/server.js';
import { exhaustCreateBudget } from './budget.js';
import { memoryStore } from './memory-store.js';

/**
 * The page's session without a browser: the same module the folder page renders, driven by
 * node:test against a real server, with a Map for the browser's storage and fetch for its chunk
 * transport. Claim, upload queue, resume arithmetic, cancel, key checks and download.
 */
const MIB = 1024 * 1024;
const server = useServer({ CHUNK_SIZE_MIB: '5' });

async function newFolder(mode: 'send' | 'share' = 'send'): Promise<{ folderId: string; link: string }> {
  const created = await createFolder({ server: server.baseUrl, mode, title: 'Session' });
  return { folderId: created.folderId, link: created.folderUrl };
}

function options(store: SiteStore, extra: Partial<SessionOptions> = {}): SessionOptions {
  return { siteApi: `${server.baseUrl}/api/site`, store, ...extra };
}

async function open(link: string, folderId: string, opts: SessionOptions): Promise<FolderSession> {
  const session = await openSession(folderId, parseFragment(new URL(link).hash), opts);
  assert.ok('client' in session, `opened: ${JSON.stringify(session)}`);
  return session;
}

function file(content: Uint8Array, name: string): File {
  return new File([content as Uint8Array<ArrayBuffer>], name, { lastModified: 1_700_000_000_000 });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

/** fetch as the chunk transport, counting chunk PUTs by number. */
function countingTransport(fail?: (n: number) => boolean): { transport: Fetch; puts: number[] } {
  const puts: number[] = [];
  const transport: Fetch = async (url, init) => {
    const n = Number(/\/(\d{5})\?/.exec(url)?.[1]);
    if (init.method === 'PUT' && fail?.(n)) throw new TypeError('network error (test)');
    const response = await fetch(url, init);
    if (init.method === 'PUT' && response.ok) puts.push(n);
    return response;
  };
  return { transport, puts };
}

describe('folder session (no browser)', () => {
  test('the first upload claims the folder; a visitor lists and downloads the same bytes', async () => {
    const { folderId, link } = await newFolder('send');
    const store = memoryStore();
    const session = await open(link, folderId, options(store));
    assert.equal(session.info.owned, false);
    // A session in a log or a message shows its folder, never its secrets.
    const shown = JSON.stringify(session);
    assert.ok(shown.includes(folderId) && !shown.includes(session.secret), shown);
    const claimed: string[] = [];
    const progress: UploadProgress[] = [];
    session.uploads.on('claimed', (role) => claimed.push(role));
    const stop = session.uploads.on('progress', (p) => progress.push(p));
    const content = randomBytes(11 * MIB + 5);
    const outcome = await session.uploads.upload([
      { file: file(content, 'big.bin'), path: 'big.bin' },
      { file: file(new Uint8Array(), 'empty.txt'), path: 'empty.txt' },
    ]);
    stop();
    assert.equal(outcome.state, 'complete');
    assert.equal(outcome.skippedEmpty, 1);
    assert.deepEqual(claimed, ['owner']);
    assert.equal(session.info.isOwner, true);
    assert.ok(store.ownerSecretOf(folderId), 'the owner secret is kept');
    assert.deepEqual(store.pendingUploads(folderId), [], 'nothing is left to resume');
    assert.equal(progress.at(-1)!.sent, content.length);
    assert.ok(
      session.ownerLink('https://x.example/f/id#old')?.startsWith(`https://x.example/f/id#${session.secret}&owner=`),
    );

    const visitor = await open(link, folderId, options(memoryStore()));
    assert.equal(visitor.info.isOwner, false);
    assert.equal(visitor.info.rights.upload, false);
    const [listed] = await visitor.reader.listFiles();
    assert.equal(listed!.name, 'big.bin');
    assert.ok((await readAll(downloadStream(visitor.reader.downloadFile(listed!)))).equals(content));
  });

  test('resume: after a failed upload only the missing chunks are sent, and what was stored counts as sent', async () => {
    const { folderId, link } = await newFolder('share');
    const store = memoryStore();
    const content = randomBytes(3 * 5 * MIB);
    const first = countingTransport((n) => n !== 1);
    const session = await open(
      link,
      folderId,
      options(store, { transport: first.transport, http: { retry: { retries: 0 } } }),
    );
    const failed = await session.uploads.upload([{ file: file(content, 'r.bin'), path: 'r.bin' }]);
    assert.equal(failed.state, 'failed');
    assert.deepEqual(first.puts, [1]);
    assert.equal(store.pendingUploads(folderId).length, 1, 'the unfinished upload is remembered');

    const second = countingTransport();
    const again = await open(link, folderId, options(store, { transport: second.transport }));
    assert.equal(again.info.isOwner, true, 'the owner secret survived');
    const progress: UploadProgress[] = [];
    again.uploads.on('progress', (p) => progress.push(p));
    const done = await again.uploads.upload([{ file: file(content, 'r.bin'), path: 'r.bin' }]);
    assert.equal(done.state, 'complete');
    assert.deepEqual(second.puts.sort(), [2, 3]);
    assert.equal(progress[0]!.sent, 5 * MIB, 'chunk 1 was already on the server');
    assert.deepEqual(store.pendingUploads(folderId), []);
    const [listed] = await again.reader.listFiles();
    assert.ok((await readAll(downloadStream(again.reader.downloadFile(listed!)))).equals(content));
  });

  test('cancel stops the upload and keeps it resumable', async () => {
    const { folderId, link } = await newFolder('share');
    const store = memoryStore();
    let session!: FolderSession;
    // Every PUT fails, so the upload is surely in flight when cancelled.
    const { transport } = countingTransport(() => {
      session.uploads.cancel();
      return true;
    });
    session = await open(link, folderId, options(store, { transport }));
    const outcome = await session.uploads.upload([{ file: file(randomBytes(6 * MIB), 'c.bin'), path: 'c.bin' }]);
    assert.equal(outcome.state, 'cancelled');
    assert.equal(outcome.files[0]!.state, 'cancelled');
    assert.equal(store.pendingUploads(folderId).length, 1);
  });

  test('keys: none, damaged, wrong; unknown folder', async () => {
    const { folderId, link } = await newFolder('send');
    const owner = await open(link, folderId, options(memoryStore()));
    await owner.uploads.upload([{ file: file(randomBytes(100), 'a.txt'), path: 'a.txt' }]);
    const kind = async (hash: string, id = folderId) =>
      ((await openSession(id, parseFragment(hash), options(memoryStore()))) as OpenFailure).kind;
    assert.equal(await kind(''), 'no-key');
    assert.equal(await kind('#short'), 'bad-key');
    assert.equal(await kind(`#${'A'.repeat(22)}`), 'wrong-key');
    assert.equal(await kind(new URL(link).hash, 'AAAAAAAAAAAAAAAA'), 'not-found');
  });

  test('an expired folder opens as "expired" (server clock 25 hours ahead)', async () => {
    const { folderId, link } = await newFolder('send');
    // The sweeper stays off: it runs at start and would delete the folder before the open reads it.
    const later = await startServer(
      { DATA_DIR: server.dataDir, CLOCK_OFFSET_SECONDS: String(25 * 3600) },
      { sweeper: false },
    );
    try {
      const opened = await openSession(folderId, parseFragment(new URL(link).hash), {
        siteApi: `${later.baseUrl}/api/site`,
        store: memoryStore(),
      });
      assert.equal((opened as OpenFailure).kind, 'expired');
    } finally {
      await later.close();
    }
  });

  test('expiry is read from the error code, never from the words', () => {
    assert.equal(isExpired(new WebfolderError(404, 'gone', 'open folder', null, 'expired')), true);
    assert.equal(isExpired(new WebfolderError(404, 'folder not found', 'open folder', null, 'not_found')), false);
    assert.equal(isExpired(new WebfolderError(404, 'folder has expired', 'open folder', null, 'not_found')), false);
    assert.equal(isExpired(new WebfolderError(404, 'folder has expired', 'open folder')), false);
  });
});

describe('folder session under a tiny create budget', () => {
  // One create a window: with it spent, the registration is answered 429 with a Retry-After.
  const limited = useServer({ CHUNK_SIZE_MIB: '5', RATE_LIMIT_CREATE: '1', RATE_LIMIT_WINDOW_SECONDS: '6' });

  test('a registration answered 429 waits for Retry-After through the retry policy, tells the view, and goes on', async () => {
    const created = await createFolder({ server: limited.baseUrl, mode: 'send', title: 'Busy' });
    const session = await open(created.folderUrl, created.folderId, {
      siteApi: `${limited.baseUrl}/api/site`,
      store: memoryStore(),
    });
    const waits: Array<{ operation: string; status: number | null; seconds: number }> = [];
    session.on('waiting', (w) => waits.push(w));
    await exhaustCreateBudget(limited.baseUrl);
    const content = randomBytes(1234);
    const outcome = await session.uploads.upload([{ file: file(content, 'after-wait.txt'), path: 'after-wait.txt' }]);
    assert.equal(outcome.state, 'complete');
    assert.ok(waits.length >= 1, 'the registration waited');
    assert.equal(waits[0]!.operation, 'register files');
    assert.equal(waits[0]!.status, 429);
    assert.ok(waits[0]!.seconds >= 1 && waits[0]!.seconds <= 7, `waits the Retry-After (${waits[0]!.seconds} s)`);
    const [listed] = await session.reader.listFiles();
    assert.ok((await readAll(downloadStream(session.reader.downloadFile(listed!)))).equals(content));
  });
});
