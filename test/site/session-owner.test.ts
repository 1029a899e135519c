import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { downloadStream } from '../../src/transfer/download.js';
import { WebfolderError } from '../../src/transfer/errors.js';
import { createFolder } from '../../web/src/state/create.js';
import {
  type FolderSession,
  openSession,
  type PasswordRequired,
  parseFragment,
  type SessionOptions,
  type SiteStore,
} from '../../web/src/state/index.js';
import { useServer } from '../support/server.js';
import { memoryStore } from './memory-store.js';

/**
 * The page's issue-12 protocols without a browser (web/src/state/create.ts, web/src/state) against a
 * real server: create and claim in one step, the password, tickets, owner settings, receipts and
 * the live-update poll.
 */
const server = useServer({ CHUNK_SIZE_MIB: '5' });

const siteApi = () => `${server.baseUrl}/api/site`;
const options = (store: SiteStore): SessionOptions => ({ siteApi: siteApi(), store });

async function open(link: string, folderId: string, store: SiteStore) {
  return openSession(folderId, parseFragment(new URL(link).hash), options(store));
}

function file(content: Uint8Array, name: string): File {
  return new File([content as Uint8Array<ArrayBuffer>], name, { lastModified: 1_700_000_000_000 });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe('folder session: owner controls (no browser)', () => {
  test('create and claim: owned at once, settings stored, the note encrypted and read back', async () => {
    const store = memoryStore();
    const created = await createFolder(siteApi(), store, {
      mode: 'send',
      title: 'Made here',
      expiresInHours: 24,
      maxDownloads: 2,
      note: 'Für dich — 안녕',
    });
    assert.ok(store.ownerSecretOf(created.folderId), 'the owner secret is kept before the page opens');
    assert.equal(created.unlocked, undefined);
    const session = (await open(created.link, created.folderId, store)) as FolderSession;
    assert.ok('client' in session);
    assert.equal(session.info.isOwner, true);
    assert.equal(session.info.createdBy, 'site');
    assert.equal(session.info.maxDownloads, 2);
    assert.ok(session.info.note && !session.info.note.includes('dich'), 'the server holds ciphertext');
    assert.equal(await session.note(), 'Für dich — 안녕');
    await session.ownerActions.updateFolder({ note: 'changed' });
    assert.equal(await session.note(), 'changed');
    await session.ownerActions.updateFolder({ note: null });
    assert.equal(session.info.note, null);
    // A visitor reads the same folder as a visitor.
    const visitor = (await open(created.link, created.folderId, memoryStore())) as FolderSession;
    assert.equal(visitor.info.isOwner, false);
  });

  test('password: the link alone does not open it; wrong is null, right decrypts; the creator skips it', async () => {
    const store = memoryStore();
    const created = await createFolder(siteApi(), store, { mode: 'share', password: 'four random words here' });
    assert.ok(created.unlocked, 'the creator gets the derived secret');
    assert.ok(!created.link.includes(created.unlocked!), 'the link carries only the link secret');
    const owner = (await openSession(created.folderId, parseFragment(new URL(created.link).hash), {
      ...options(store),
      unlocked: created.unlocked!,
    })) as FolderSession;
    assert.ok('client' in owner, 'opened without asking');
    const content = randomBytes(6 * 1024 * 1024);
    assert.equal(
      (await owner.uploads.upload([{ file: file(content, 'secret.bin'), path: 'secret.bin' }])).state,
      'complete',
    );
    assert.ok(owner.shareLink('https://x.example/f/id').endsWith(`#${owner.linkSecret}`));
    assert.notEqual(owner.secret, owner.linkSecret);

    const locked = (await open(created.link, created.folderId, memoryStore())) as PasswordRequired;
    assert.equal(locked.kind, 'password');
    assert.equal(await locked.unlock('four random words HERE'), null);
    const visitor = await locked.unlock('four random words here');
    assert.ok(visitor);
    const [listed] = await visitor.reader.listFiles();
    assert.equal(listed!.name, 'secret.bin');
    assert.ok((await readAll(downloadStream(await visitor.reader.startDownload(listed!)))).equals(content));
  });

  test('tickets: each download counts; past the limit the server refuses; the owner is not counted', async () => {
    const store = memoryStore();
    const created = await createFolder(siteApi(), store, { mode: 'send', maxDownloads: 1 });
    const owner = (await open(created.link, created.folderId, store)) as FolderSession;
    const content = randomBytes(1000);
    await owner.uploads.upload([{ file: file(content, 'once.txt'), path: 'once.txt' }]);
    const visitor = (await open(created.link, created.folderId, memoryStore())) as FolderSession;
    const [listed] = await visitor.reader.listFiles();
    assert.equal(listed!.file.downloadsLeft, 1);
    // Without a ticket the chunks of a limited file are refused.
    await assert.rejects(readAll(downloadStream(visitor.reader.downloadFile(listed!))), /ticket|403/i);
    const ticketed = await visitor.reader.startDownload(listed!);
    assert.ok(ticketed.credentials['x-download-ticket'], 'the ticket travels with the credentials');
    assert.ok((await readAll(downloadStream(ticketed))).equals(content));
    // Until the page says the download is over, the reader keeps its ticket for a retry by hand:
    // asking again reuses it, uncounted, so a broken download does not spend the file's only one.
    const again = await visitor.reader.startDownload(listed!);
    assert.equal(again.credentials['x-download-ticket'], ticketed.credentials['x-download-ticket']);
    visitor.reader.finished([listed!.file.fileId]);
    await assert.rejects(visitor.reader.startDownload(listed!), (error: unknown) => {
      assert.ok(error instanceof WebfolderError);
      assert.equal(error.status, 410);
      assert.equal(error.serverCode, 'download_limit_reached');
      return true;
    });
    const [mine] = await owner.reader.listFiles();
    assert.ok((await readAll(downloadStream(await owner.reader.startDownload(mine!)))).equals(content));
    const [after] = await owner.reader.listFiles();
    assert.equal(after!.file.downloads, 1, "the owner's download is not counted");
    const { events } = await owner.ownerActions.activity();
    assert.deepEqual(
      events.map((e) => e.kind),
      ['download', 'upload'],
    );
    // A file's own limit wins over the folder's: raising it lets the visitor download again.
    await owner.ownerActions.updateFile(mine!.file.fileId, 2);
    assert.ok(await visitor.reader.startDownload(listed!));
  });

  test('request mode: a visitor keeps a receipt; the owner opens the sealed file; delete file and folder', async () => {
    const store = memoryStore();
    const created = await createFolder(siteApi(), store, { mode: 'request', password: 'ignored in request mode' });
    assert.equal(created.unlocked, undefined, 'request folders take no password');
    const owner = (await open(created.link, created.folderId, store)) as FolderSession;
    assert.ok(owner.info.ownerPublicKey);
    const visitorStore = memoryStore();
    const visitor = (await open(created.link, created.folderId, visitorStore)) as FolderSession;
    const content = randomBytes(2000);
    assert.equal((await visitor.uploads.upload([{ file: file(content, 'cv.pdf'), path: 'cv.pdf' }])).state, 'complete');
    const receipts = visitor.uploads.receipts();
    assert.deepEqual(
      receipts.map((r) => [r.name, r.size]),
      [['cv.pdf', 2000]],
    );
    assert.deepEqual(visitorStore.receipts(created.folderId), receipts, 'kept in the browser store');
    assert.deepEqual(owner.uploads.receipts(), [], "the owner's uploads get no receipt");

    // The owner's poll notices the new file ('changed': same rights, other files).
    const changed = new Promise<number>((resolve) => owner.on('changed', (info) => resolve(info.fileCount)));
    const stop = owner.watch(50);
    assert.equal(await changed, 1);
    stop();
    const [sealed] = await owner.reader.listFiles();
    assert.equal(sealed!.name, 'cv.pdf');
    assert.ok((await readAll(downloadStream(await owner.reader.startDownload(sealed!)))).equals(content));

    await owner.ownerActions.deleteFile(sealed!.file.fileId);
    assert.equal(owner.info.fileCount, 0);
    // The deletion's line carries the sealed name: the owner reads it, in a fresh session too.
    const again = (await open(created.link, created.folderId, store)) as FolderSession;
    const { deletedNames } = await again.ownerActions.activity();
    assert.deepEqual([...deletedNames], [[sealed!.file.fileId, 'cv.pdf']]);
    await owner.ownerActions.deleteFolder();
    assert.equal(store.ownerSecretOf(created.folderId), null, 'the owner secret is forgotten');
    assert.equal(((await open(created.link, created.folderId, memoryStore())) as { kind: string }).kind, 'not-found');
  });
});
