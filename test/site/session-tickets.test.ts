import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { downloadStream } from '../../src/transfer/download.js';
import { WebfolderError } from '../../src/transfer/errors.js';
import { createFolder } from '../../web/src/state/create.js';
import { type FolderSession, openSession, parseFragment, type SiteStore } from '../../web/src/state/index.js';
import { useServer } from '../support/server.js';
import { memoryStore } from './memory-store.js';

/**
 * The reader's kept tickets across pages (web/src/state/reader.ts), so that a broken download can be
 * retried without spending a limited file's download; without a browser, against a real server: a
 * Download's ticket is written to the page's store, a later page of the same browser (a reload, the
 * link opened again) goes on with it uncounted, a ticket a running download uses is not taken, and a
 * delivered download's ticket is forgotten. The browser's own store (localStorage and Web Locks) is
 * tested end to end in test/site/download-reload.test.ts.
 */
const server = useServer({ CHUNK_SIZE_MIB: '5' });

const siteApi = () => `${server.baseUrl}/api/site`;

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

/** A one-download send folder with one file, and a way to open it as a visitor's page on `store`. */
async function oneDownload(content: Uint8Array) {
  const ownerStore = memoryStore();
  const created = await createFolder(siteApi(), ownerStore, { mode: 'send', maxDownloads: 1 });
  const open = async (store: SiteStore) =>
    (await openSession(created.folderId, parseFragment(new URL(created.link).hash), {
      siteApi: siteApi(),
      store,
    })) as FolderSession;
  const owner = await open(ownerStore);
  const file = new File([content as Uint8Array<ArrayBuffer>], 'once.bin', { lastModified: 1_700_000_000_000 });
  await owner.uploads.upload([{ file, path: 'once.bin' }]);
  return { folderId: created.folderId, open };
}

const refusedAsUsedUp = (error: unknown) => {
  assert.ok(error instanceof WebfolderError);
  assert.equal(error.status, 410);
  assert.equal(error.serverCode, 'download_limit_reached');
  return true;
};

describe('folder session: kept tickets outlive the page (no browser)', () => {
  test('a later page goes on with the kept ticket, uncounted; delivered, it is forgotten', async () => {
    const content = randomBytes(2000);
    const { folderId, open } = await oneDownload(content);
    const store = memoryStore();
    // The first page starts the one download (counted) and is gone before it ends.
    const first = await open(store);
    const [listed] = await first.reader.listFiles();
    const started = await first.reader.startDownload(listed!, { running: true });
    const ticket = started.credentials['x-download-ticket'];
    assert.ok(ticket);
    assert.deepEqual(
      store.keptTickets!(folderId).map((t) => t.ticket),
      [ticket],
      "the Download's ticket is in the store",
    );
    // A new page of the same browser: the used-up file's Download goes on with that ticket.
    const second = await open(store);
    const [again] = await second.reader.listFiles();
    assert.equal(again!.file.downloadsLeft, 0, 'counted once, when the first page started');
    assert.equal(second.reader.holdsTicket(again!.file.fileId), true);
    const resumed = await second.reader.startDownload(again!, { running: true });
    assert.equal(resumed.credentials['x-download-ticket'], ticket, 'the same ticket, no second count');
    assert.ok((await readAll(downloadStream(resumed))).equals(content));
    second.reader.finished([again!.file.fileId]);
    assert.deepEqual(store.keptTickets!(folderId), [], 'delivered: forgotten in the store too');
    // A third page has no ticket left: its Download asks for a count, which the file refuses.
    const third = await open(store);
    const [last] = await third.reader.listFiles();
    assert.equal(third.reader.holdsTicket(last!.file.fileId), false);
    await assert.rejects(third.reader.startDownload(last!, { running: true }), refusedAsUsedUp);
  });

  test('a kept ticket that a running download uses is not taken: that Download asks for a count', async () => {
    const { folderId, open } = await oneDownload(randomBytes(1500));
    const store = memoryStore();
    const first = await open(store);
    const [listed] = await first.reader.listFiles();
    const started = await first.reader.startDownload(listed!, { running: true });
    // The first page's download runs on (in its service worker, or another tab): its lock is held.
    store.inUse.add(started.credentials['x-download-ticket']!);
    const second = await open(store);
    const [again] = await second.reader.listFiles();
    await assert.rejects(second.reader.startDownload(again!, { running: true }), refusedAsUsedUp);
    // Once it no longer runs, the ticket is free for the next page.
    store.inUse.clear();
    const third = await open(store);
    const [last] = await third.reader.listFiles();
    const resumed = await third.reader.startDownload(last!, { running: true });
    assert.equal(resumed.credentials['x-download-ticket'], started.credentials['x-download-ticket']);
    assert.equal(store.keptTickets!(folderId).length, 1);
  });

  test('a kept ticket in its last 10 minutes is not used again', async () => {
    const { folderId, open } = await oneDownload(randomBytes(1200));
    const store = memoryStore();
    const first = await open(store);
    const [listed] = await first.reader.listFiles();
    const started = await first.reader.startDownload(listed!, { running: true });
    const fileId = listed!.file.fileId;
    // The same ticket, as if kept 23 h 55 min ago: 5 minutes left, too few to finish a download with.
    store.keepTicket!(folderId, fileId, {
      fileId,
      ticket: started.credentials['x-download-ticket']!,
      expiresAt: Date.now() + 5 * 60_000,
    });
    const second = await open(store);
    const [again] = await second.reader.listFiles();
    assert.equal(second.reader.holdsTicket(fileId), false);
    await assert.rejects(second.reader.startDownload(again!, { running: true }), refusedAsUsedUp);
  });
});
