import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FileRecord, FolderRecord, MetadataStore } from '../../src/store/metadata-store.js';
import { NO_SETTINGS } from '../../src/store/sql/rows.js';
import { accountFolderTests } from './account-folders.suite.js';
import { accountStoreTests } from './accounts.suite.js';
import { downloadTicketTests } from './downloads.suite.js';
import { opsStoreTests } from './ops-store.suite.js';
import { storageQuotaTests } from './quota.suite.js';

/**
 * The MetadataStore contract (src/store/metadata-store.ts), one suite run unchanged against every
 * implementation. A backend provides a fresh, empty store per test and a second store over the same
 * data (a second connection or pool: what another node would have), so races are run between two
 * "nodes" as well as within one.
 */
export interface StoreHarness {
  /** A fresh empty store, and a second handle on the same data. */
  open(): Promise<{ store: MetadataStore; peer: MetadataStore }>;
  /** Releases everything the harness started. */
  stop(): Promise<void>;
}

export type HarnessFactory = () => Promise<StoreHarness | { skip: string }>;

const HOUR = 3_600_000;
const T0 = 1_800_000_000_000; // 2027-01-15: well past 2^31, so 32-bit columns would break
const BIG_FILE = 1_098_437_885_952; // the spec's largest file: past 2^32

let counter = 0;
function id(): string {
  // 16 characters of the id alphabet, unique within the run.
  return `t${String(++counter).padStart(6, '0')}${Math.random().toString(36).slice(2, 11).padEnd(9, 'x')}`.slice(0, 16);
}

function folder(overrides: Partial<FolderRecord> = {}): FolderRecord {
  return {
    id: id(),
    mode: 'send',
    title: 'Folder of 15 January 2027',
    flow: 'empty',
    createdAt: T0,
    ske: null,
    uploadAuthHash: null,
    ownerTokenHash: null,
    ownerPublicKey: null,
    deleteAfter: T0 + 24 * HOUR,
    settings: NO_SETTINGS,
    createdBy: 'api',
    accountId: null,
    fileCount: 0,
    takeDown: null,
    ...overrides,
  };
}

function file(folderId: string, position: number, overrides: Partial<FileRecord> = {}): FileRecord {
  return {
    id: id(),
    folderId,
    position,
    filename: `encrypted-name-${position}`,
    mimetype: 'application/pdf',
    filesize: 1234,
    chunkSize: 10 * 1024 * 1024,
    chunks: 1,
    createdAt: T0,
    completedAt: null,
    expiresAt: T0 + 72 * HOUR,
    uploaderTag: null,
    sealedKey: null,
    maxDownloads: null,
    downloads: 0,
    sendingUntil: null,
    ...overrides,
  };
}

/** Limits far above what a test adds, unless the test is about them. */
const ROOMY = { limits: { maxFiles: 1_000_000, maxChunks: 1_000_000_000 } };

function unpositioned(f: FileRecord): Omit<FileRecord, 'position'> {
  const { position: _position, ...rest } = f;
  return rest;
}

export function metadataStoreSuite(name: string, factory: HarnessFactory): void {
  describe(`MetadataStore contract: ${name}`, () => {
    let harness: StoreHarness | null = null;
    let skip: string | null = null;

    before(async () => {
      const made = await factory();
      if ('skip' in made) skip = made.skip;
      else harness = made;
    });
    after(async () => {
      await harness?.stop();
    });

    /** A test body that receives a fresh store; skipped (with the reason) without the backend. */
    const it = (title: string, body: (store: MetadataStore, peer: MetadataStore) => Promise<void>) =>
      test(title, async (t) => {
        if (!harness) {
          t.skip(skip ?? 'backend unavailable');
          return;
        }
        const { store, peer } = await harness.open();
        // Closed with the test, not the file: two pools a test, kept open for 38 tests, took every
        // one of the throwaway PostgreSQL cluster's connections ("too many clients already").
        try {
          await body(store, peer);
        } finally {
          await Promise.allSettled([store.close(), peer.close()]);
        }
      });

    it('createFolder then getFolder, getFile and listFiles return exactly what was stored', async (store) => {
      const f = folder({
        flow: 'direct',
        ske: 'ske-value',
        uploadAuthHash: 'auth-hash',
        mode: 'request',
        title: 'x'.repeat(200),
      });
      const files = [
        file(f.id, 0, { filesize: BIG_FILE, chunkSize: 110 * 1024 * 1024, chunks: 9523, mimetype: null }),
        file(f.id, 1, { completedAt: T0 + 5, uploaderTag: 'tag', sealedKey: 'sealed' }),
      ];
      await store.createFolder(f, files);
      assert.deepEqual(await store.getFolder(f.id), { ...f, fileCount: 2 });
      assert.deepEqual(await store.getFile(f.id, files[0]!.id), files[0]);
      assert.deepEqual(await store.getFile(f.id, files[1]!.id), files[1]);
      assert.deepEqual(await store.listFiles(f.id), files);
      const got = (await store.getFile(f.id, files[0]!.id))!;
      assert.equal(typeof got.filesize, 'number');
      assert.equal(typeof got.createdAt, 'number');
    });

    it('getFileInFolder reads the file with its folder, and nothing once the folder is being deleted', async (store) => {
      const f = folder({ title: 'both', uploadAuthHash: 'auth-hash' });
      const other = folder();
      const files = [file(f.id, 0, { completedAt: T0 + 5, uploaderTag: 'tag', sealedKey: 'sealed' }), file(f.id, 1)];
      await store.createFolder(f, files);
      await store.createFolder(other, []);
      // The two tables share column names (id, created_at, expires_at, max_downloads): each keeps its own.
      assert.deepEqual(await store.getFileInFolder(f.id, files[0]!.id), {
        file: files[0],
        folder: { ...f, fileCount: 2 },
      });
      assert.equal(await store.getFileInFolder(other.id, files[0]!.id), null);
      assert.equal(await store.getFileInFolder(f.id, id()), null);
      assert.ok(await store.beginOwnerDeletion(f.id, T0 + 10));
      assert.equal(await store.getFileInFolder(f.id, files[1]!.id), null);
    });

    it('unknown ids read as null or empty; a file is found only under its own folder', async (store) => {
      const a = folder();
      const b = folder();
      const fa = file(a.id, 0);
      await store.createFolder(a, [fa]);
      await store.createFolder(b, []);
      assert.equal(await store.getFolder(id()), null);
      assert.equal(await store.getFile(a.id, id()), null);
      assert.equal(await store.getFile(b.id, fa.id), null);
      assert.deepEqual(await store.listFiles(b.id), []);
      assert.deepEqual(await store.listFiles(id()), []);
    });

    it('createFolder fails for an existing id and is all-or-nothing', async (store) => {
      const f = folder();
      await store.createFolder(f, []);
      await assert.rejects(store.createFolder({ ...f, title: 'other' }, []));
      assert.equal((await store.getFolder(f.id))!.title, f.title);
      // A second file with a taken file id fails the whole create: no folder, no first file.
      const h = folder();
      const taken = file(h.id, 0);
      await store.createFolder(h, [taken]);
      const g = folder();
      await assert.rejects(store.createFolder(g, [file(g.id, 0), { ...file(g.id, 1), id: taken.id }]));
      assert.equal(await store.getFolder(g.id), null);
      assert.deepEqual(await store.listFiles(g.id), []);
    });

    it('addFiles appends at the next positions and sets deleteAfter; absent for an unknown folder', async (store) => {
      const f = folder();
      await store.createFolder(f, [file(f.id, 0, { expiresAt: T0 + 100 * HOUR })]);
      const added = [file(f.id, 99, { expiresAt: T0 + 500 * HOUR }), file(f.id, 99)].map(unpositioned);
      assert.equal(await store.addFiles(f.id, added, ROOMY), 'added');
      const listed = await store.listFiles(f.id);
      assert.deepEqual(
        listed.map((x) => x.position),
        [0, 1, 2],
      );
      assert.deepEqual(
        listed.slice(1).map((x) => x.id),
        added.map((x) => x.id),
      );
      // The folder lives as long as its last file (domain/lifecycle.ts).
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 500 * HOUR);
      // A file expiring earlier than the last one does not shorten the folder's life.
      assert.equal(await store.addFiles(f.id, [unpositioned(file(f.id, 0, { expiresAt: T0 + HOUR }))], ROOMY), 'added');
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 500 * HOUR);
      assert.equal(await store.addFiles(id(), [unpositioned(file('nope', 0))], ROOMY), 'absent');
    });

    it("addFiles to a folder without files replaces its empty-folder deadline with its files' expiry", async (store) => {
      const f = folder({ deleteAfter: T0 + 24 * HOUR });
      await store.createFolder(f, []);
      await store.addFiles(f.id, [unpositioned(file(f.id, 0, { expiresAt: T0 + 2 * HOUR }))], ROOMY);
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 2 * HOUR);
    });

    it('addFiles refuses past the folder limits, all or nothing, and counts files the sweeper deletes', async (store) => {
      const f = folder();
      await store.createFolder(f, [file(f.id, 0, { chunks: 5 }), file(f.id, 1, { chunks: 5 })]);
      const limits = { maxFiles: 4, maxChunks: 20 };
      const three = [file(f.id, 0), file(f.id, 0), file(f.id, 0)].map(unpositioned);
      assert.equal(await store.addFiles(f.id, three, { limits }), 'too-many-files');
      assert.equal((await store.listFiles(f.id)).length, 2);
      assert.equal(
        await store.addFiles(f.id, [unpositioned(file(f.id, 0, { chunks: 11 }))], { limits }),
        'too-many-chunks',
      );
      const two = [file(f.id, 0, { chunks: 5 }), file(f.id, 0, { chunks: 5 })].map(unpositioned);
      assert.equal(await store.addFiles(f.id, two, { limits }), 'added');
      assert.equal(
        await store.addFiles(f.id, [unpositioned(file(f.id, 0, { chunks: 1 }))], { limits }),
        'too-many-files',
      );
      // A deleted file frees its place and its chunks.
      const listed = await store.listFiles(f.id);
      assert.equal(await store.deleteFile(f.id, listed[0]!.id), true);
      assert.equal(
        await store.addFiles(f.id, [unpositioned(file(f.id, 0, { chunks: 6 }))], { limits }),
        'too-many-chunks',
      );
      assert.equal(await store.addFiles(f.id, [unpositioned(file(f.id, 0, { chunks: 5 }))], { limits }), 'added');
    });

    it('concurrent addFiles on two nodes never pass the folder limit together', async (store, peer) => {
      const f = folder();
      await store.createFolder(f, []);
      const limits = { maxFiles: 5, maxChunks: 1000 };
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? peer : store).addFiles(f.id, [unpositioned(file(f.id, 0))], { limits }),
        ),
      );
      assert.equal(results.filter((r) => r === 'added').length, 5);
      assert.equal((await store.listFiles(f.id)).length, 5);
    });

    it('addFiles with a claim: owner and files in one transaction; a refused or lost claim changes nothing', async (store) => {
      const f = folder();
      await store.createFolder(f, []);
      const claim = { ownerTokenHash: 'owner-1', ownerPublicKey: 'pk-1', ske: 'ske-1' };
      // Refused by the limits: the folder stays ownerless.
      const tooMany = [file(f.id, 0), file(f.id, 0)].map(unpositioned);
      assert.equal(
        await store.addFiles(f.id, tooMany, { limits: { maxFiles: 1, maxChunks: 100 }, claim }),
        'too-many-files',
      );
      assert.equal((await store.getFolder(f.id))!.ownerTokenHash, null);
      assert.equal((await store.getFolder(f.id))!.ske, null);
      // A failing insert (a taken file id) rolls the claim back too.
      const other = folder();
      const taken = file(other.id, 0);
      await store.createFolder(other, [taken]);
      await assert.rejects(
        store.addFiles(f.id, [unpositioned({ ...file(f.id, 0), id: taken.id })], { ...ROOMY, claim }),
      );
      assert.equal((await store.getFolder(f.id))!.ownerTokenHash, null);
      assert.deepEqual(await store.listFiles(f.id), []);
      // Accepted: owner and files together.
      const first = unpositioned(file(f.id, 0));
      assert.equal(await store.addFiles(f.id, [first], { ...ROOMY, claim }), 'added');
      const owned = (await store.getFolder(f.id))!;
      assert.equal(owned.ownerTokenHash, 'owner-1');
      assert.equal(owned.ownerPublicKey, 'pk-1');
      assert.equal(owned.ske, 'ske-1');
      // A second claim loses and adds nothing.
      const second = { ownerTokenHash: 'owner-2', ownerPublicKey: null, ske: 'ske-2' };
      assert.equal(
        await store.addFiles(f.id, [unpositioned(file(f.id, 0))], { ...ROOMY, claim: second }),
        'claim-lost',
      );
      assert.equal((await store.getFolder(f.id))!.ownerTokenHash, 'owner-1');
      assert.deepEqual(
        (await store.listFiles(f.id)).map((x) => x.id),
        [first.id],
      );
    });

    it('addFiles with a claim: of many concurrent claimers on two nodes exactly one wins', async (store, peer) => {
      const f = folder();
      await store.createFolder(f, []);
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 ? peer : store).addFiles(f.id, [unpositioned(file(f.id, 0))], {
            ...ROOMY,
            claim: { ownerTokenHash: `owner-${i}`, ownerPublicKey: null, ske: `ske-${i}` },
          }),
        ),
      );
      const winners = results.flatMap((r, i) => (r === 'added' ? [i] : []));
      assert.equal(winners.length, 1, results.join(','));
      assert.ok(results.every((r) => r === 'added' || r === 'claim-lost'));
      assert.equal((await store.getFolder(f.id))!.ownerTokenHash, `owner-${winners[0]}`);
      assert.equal((await store.listFiles(f.id)).length, 1);
    });

    it('listFiles pages by position, skips files not live at liveAt, and reads any depth', async (store) => {
      const f = folder();
      const files = Array.from({ length: 7 }, (_, i) =>
        file(f.id, i, { expiresAt: i === 2 ? T0 - 1 : T0 + 72 * HOUR }),
      );
      await store.createFolder(f, files);
      const page1 = await store.listFiles(f.id, { limit: 3, liveAt: T0 });
      assert.deepEqual(
        page1.map((x) => x.position),
        [0, 1, 3],
      );
      const page2 = await store.listFiles(f.id, { after: 3, limit: 3, liveAt: T0 });
      assert.deepEqual(
        page2.map((x) => x.position),
        [4, 5, 6],
      );
      assert.deepEqual(await store.listFiles(f.id, { after: 6, limit: 3, liveAt: T0 }), []);
      assert.equal((await store.listFiles(f.id)).length, 7);
    });

    it('concurrent addFiles from two nodes keep positions unique and dense', async (store, peer) => {
      const f = folder();
      await store.createFolder(f, []);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? peer : store).addFiles(f.id, [unpositioned(file(f.id, 0))], ROOMY),
        ),
      );
      assert.ok(results.every((r) => r === 'added'));
      assert.deepEqual(
        (await store.listFiles(f.id)).map((x) => x.position),
        Array.from({ length: 12 }, (_, i) => i),
      );
    });

    it('claimOwner: the first claim wins and stores ske only when none is set', async (store) => {
      const f = folder();
      await store.createFolder(f, []);
      assert.equal(await store.claimOwner(f.id, 'owner-1', 'pubkey-1', 'ske-1'), true);
      assert.equal(await store.claimOwner(f.id, 'owner-2', 'pubkey-2', 'ske-2'), false);
      const got = (await store.getFolder(f.id))!;
      assert.equal(got.ownerTokenHash, 'owner-1');
      assert.equal(got.ownerPublicKey, 'pubkey-1');
      assert.equal(got.ske, 'ske-1');
      const withSke = folder({ ske: 'creator-ske' });
      await store.createFolder(withSke, []);
      assert.equal(await store.claimOwner(withSke.id, 'owner', null, 'other-ske'), true);
      assert.equal((await store.getFolder(withSke.id))!.ske, 'creator-ske');
      assert.equal(await store.claimOwner(id(), 'owner', null, null), false);
    });

    it('claimOwner: of many concurrent claimers on two nodes exactly one wins', async (store, peer) => {
      for (let round = 0; round < 5; round++) {
        const f = folder();
        await store.createFolder(f, []);
        const claims = Array.from({ length: 24 }, (_, i) =>
          (i % 2 ? peer : store).claimOwner(f.id, `owner-${i}`, null, `ske-${i}`),
        );
        const results = await Promise.all(claims);
        const winners = results.flatMap((won, i) => (won ? [i] : []));
        assert.equal(winners.length, 1, `round ${round}: winners ${winners.join(',')}`);
        const got = (await store.getFolder(f.id))!;
        assert.equal(got.ownerTokenHash, `owner-${winners[0]}`);
        assert.equal(got.ske, `ske-${winners[0]}`);
      }
    });

    it('setSendingUntil: the heartbeat of files still arriving, never of complete ones', async (store) => {
      const f = folder({ flow: 'direct' });
      const [a, b, done] = [file(f.id, 0), file(f.id, 1), file(f.id, 2)];
      await store.createFolder(f, [a, b, done]);
      await store.markComplete(f.id, done.id, T0 + 1, T0 + HOUR);
      assert.equal((await store.getFile(f.id, a.id))!.sendingUntil, null, 'no browser said anything yet');
      await store.setSendingUntil(f.id, [a.id, b.id, done.id, id()], T0 + 120_000);
      assert.equal((await store.getFile(f.id, a.id))!.sendingUntil, T0 + 120_000);
      assert.equal((await store.getFile(f.id, b.id))!.sendingUntil, T0 + 120_000);
      assert.equal((await store.getFile(f.id, done.id))!.sendingUntil, null, 'a complete file keeps none');
      // The sender stops one: until now.
      await store.setSendingUntil(f.id, [b.id], T0 + 5);
      assert.equal((await store.getFile(f.id, b.id))!.sendingUntil, T0 + 5);
      const other = folder({ flow: 'direct' });
      await store.createFolder(other, []);
      await store.setSendingUntil(other.id, [a.id], T0 + 9);
      assert.equal((await store.getFile(f.id, a.id))!.sendingUntil, T0 + 120_000, 'another folder cannot touch it');
      const listed = await store.listFiles(f.id, {});
      assert.deepEqual(
        listed.map((x) => x.sendingUntil),
        [T0 + 120_000, T0 + 5, null],
      );
    });

    it('markComplete: only the first call has an effect', async (store) => {
      const f = folder({ flow: 'direct' });
      const a = file(f.id, 0);
      await store.createFolder(f, [a]);
      assert.equal(await store.markComplete(f.id, a.id, T0 + 10, T0 + 101 * HOUR), true);
      assert.equal(await store.markComplete(f.id, a.id, T0 + 20, T0 + 201 * HOUR), false);
      const got = (await store.getFile(f.id, a.id))!;
      assert.equal(got.completedAt, T0 + 10);
      assert.equal(got.expiresAt, T0 + 101 * HOUR);
      // The folder lives until its last file expires: the completed file's new expiry.
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 101 * HOUR);
      assert.equal(await store.markComplete(f.id, id(), T0, T0), false);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.markComplete(f.id, a.id, T0 + i, T0)),
      );
      assert.equal(results.filter(Boolean).length, 0);
      const b = file(f.id, 1);
      await store.addFiles(f.id, [unpositioned(b)], ROOMY);
      const race = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.markComplete(f.id, b.id, T0 + i, T0 + HOUR)),
      );
      assert.equal(race.filter(Boolean).length, 1);
      // An earlier expiry of another file does not shorten the folder's life.
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 101 * HOUR);
    });

    it('foldersDue lists due folders (oldest first, up to limit), including ones under deletion', async (store) => {
      const due = [folder({ deleteAfter: T0 - 3 }), folder({ deleteAfter: T0 - 2 }), folder({ deleteAfter: T0 })];
      const notDue = folder({ deleteAfter: T0 + 1 });
      for (const f of [...due, notDue]) await store.createFolder(f, []);
      assert.deepEqual(
        await store.foldersDue(T0, 10),
        due.map((f) => f.id),
      );
      assert.deepEqual(
        await store.foldersDue(T0, 2),
        due.slice(0, 2).map((f) => f.id),
      );
      assert.equal(await store.beginFolderDeletion(due[0]!.id, T0, HOUR), true);
      assert.deepEqual(
        await store.foldersDue(T0, 10),
        due.map((f) => f.id),
      );
    });

    it('expiredFiles lists expired files of folders that are not themselves due', async (store) => {
      const living = folder({ deleteAfter: T0 + 10 * HOUR });
      const expired = [file(living.id, 0, { expiresAt: T0 - 1 }), file(living.id, 1, { expiresAt: T0 })];
      const fresh = file(living.id, 2, { expiresAt: T0 + 1 });
      const dueFolder = folder({ deleteAfter: T0 - 1 });
      await store.createFolder(living, [...expired, fresh]);
      await store.createFolder(dueFolder, [file(dueFolder.id, 0, { expiresAt: T0 - 5 })]);
      const got = await store.expiredFiles(T0, 10);
      assert.deepEqual(got.map((r) => r.fileId).sort(), expired.map((f) => f.id).sort());
      assert.ok(got.every((r) => r.folderId === living.id));
      assert.equal((await store.expiredFiles(T0, 1)).length, 1);
    });

    it('deleteFile deletes once', async (store) => {
      const f = folder();
      const [a, b] = [file(f.id, 0), file(f.id, 1)];
      await store.createFolder(f, [a, b]);
      assert.equal(await store.deleteFile(f.id, a.id), true);
      assert.equal(await store.deleteFile(f.id, a.id), false);
      assert.equal(await store.getFile(f.id, a.id), null);
      assert.deepEqual(
        (await store.listFiles(f.id)).map((x) => x.id),
        [b.id],
      );
      assert.equal(await store.deleteFile(id(), b.id), false);
    });

    it('beginFolderDeletion: only when due; the folder then reads as absent; lease; finish removes it with its files', async (store) => {
      const notDue = folder({ deleteAfter: T0 + 1 });
      await store.createFolder(notDue, []);
      assert.equal(await store.beginFolderDeletion(notDue.id, T0, HOUR), false);
      assert.notEqual(await store.getFolder(notDue.id), null);
      assert.equal(await store.beginFolderDeletion(id(), T0, HOUR), false);

      const f = folder({ deleteAfter: T0 });
      const a = file(f.id, 0);
      await store.createFolder(f, [a]);
      assert.equal(await store.beginFolderDeletion(f.id, T0, HOUR), true);
      // A tombstone: absent to readers, not claimable, no appends.
      assert.equal(await store.getFolder(f.id), null);
      assert.equal(await store.getFile(f.id, a.id), null);
      assert.deepEqual(await store.listFiles(f.id), []);
      assert.equal(await store.claimOwner(f.id, 'late-owner', null, null), false);
      assert.equal(await store.addFiles(f.id, [unpositioned(file(f.id, 0))], ROOMY), 'absent');
      // Within the lease nobody else takes it; after it, another sweeper may finish the job.
      assert.equal(await store.beginFolderDeletion(f.id, T0 + HOUR - 1, HOUR), false);
      assert.equal(await store.beginFolderDeletion(f.id, T0 + HOUR, HOUR), true);
      await store.finishFolderDeletion(f.id);
      assert.deepEqual(await store.foldersDue(T0 + 2 * HOUR, 10), [notDue.id]);
      // The record and its files are gone: the same ids can be created again.
      await store.createFolder({ ...f, deleteAfter: T0 + 10 * HOUR }, [a]);
      assert.deepEqual(
        (await store.listFiles(f.id)).map((x) => x.id),
        [a.id],
      );
      await store.finishFolderDeletion(id()); // unknown id: no error
    });

    it('beginFolderDeletion: a folder that is no longer due at `now` survives', async (store) => {
      const f = folder({ deleteAfter: T0 });
      await store.createFolder(f, []);
      // It gains a file (the browser's first upload) before the sweeper gets to it.
      await store.addFiles(f.id, [unpositioned(file(f.id, 0, { expiresAt: T0 + 72 * HOUR }))], ROOMY);
      assert.equal(await store.beginFolderDeletion(f.id, T0 + 1, HOUR), false);
      assert.notEqual(await store.getFolder(f.id), null);
    });

    it('beginFolderDeletion: of many concurrent sweepers on two nodes exactly one wins', async (store, peer) => {
      for (let round = 0; round < 5; round++) {
        const f = folder({ deleteAfter: T0 });
        await store.createFolder(f, [file(f.id, 0)]);
        const results = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            (i % 2 ? peer : store).beginFolderDeletion(f.id, T0 + (i % 3), 10 * 60_000),
          ),
        );
        assert.equal(results.filter(Boolean).length, 1, `round ${round}`);
      }
    });

    // ---- The owner's controls ---------------------------------------------------------------------
    it('createFolder keeps settings and createdBy; new records default to none and "api"', async (store) => {
      const settings = {
        expiresAt: T0 + 5 * HOUR,
        maxDownloads: 3,
        note: 'encrypted note',
        password: '{"kdf":"scrypt"}',
      };
      const owned = folder({ settings, createdBy: 'site', ownerTokenHash: 'owner' });
      await store.createFolder(owned, []);
      assert.deepEqual(await store.getFolder(owned.id), owned);
      const { settings: _s, createdBy: _c, fileCount: _n, ...bare } = folder();
      await store.createFolder(bare, [{ ...file(bare.id, 0), maxDownloads: undefined, downloads: undefined }]);
      const got = (await store.getFolder(bare.id))!;
      assert.deepEqual(got.settings, NO_SETTINGS);
      assert.equal(got.createdBy, 'api');
      const f = (await store.listFiles(bare.id))[0]!;
      assert.equal(f.maxDownloads, null);
      assert.equal(f.downloads, 0);
    });

    it('updateFolder: a chosen expiry becomes every file’s and deleteAfter, later files’ too, and may shorten', async (store) => {
      const f = folder({ deleteAfter: T0 + 72 * HOUR });
      await store.createFolder(f, [file(f.id, 0), file(f.id, 1, { completedAt: T0 + 1, expiresAt: T0 + 80 * HOUR })]);
      const chosen = T0 + 200 * HOUR;
      const updated = await store.updateFolder(f.id, { expiresAt: chosen }, T0);
      assert.ok(typeof updated === 'object');
      assert.equal(updated.settings.expiresAt, chosen);
      assert.equal(updated.deleteAfter, chosen);
      assert.deepEqual(
        (await store.listFiles(f.id)).map((x) => x.expiresAt),
        [chosen, chosen],
      );
      // A file added later and a completion take the chosen expiry, not their own.
      const later = file(f.id, 2, { expiresAt: T0 + 3 * HOUR });
      assert.equal(await store.addFiles(f.id, [unpositioned(later)], ROOMY), 'added');
      assert.equal((await store.getFile(f.id, later.id))!.expiresAt, chosen);
      assert.equal(await store.markComplete(f.id, later.id, T0 + 10, T0 + 9 * HOUR), true);
      assert.equal((await store.getFile(f.id, later.id))!.expiresAt, chosen);
      assert.equal((await store.getFolder(f.id))!.deleteAfter, chosen);
      // Shortening.
      const shorter = T0 + 2 * HOUR;
      await store.updateFolder(f.id, { expiresAt: shorter }, T0);
      assert.equal((await store.getFolder(f.id))!.deleteAfter, shorter);
      assert.ok((await store.listFiles(f.id)).every((x) => x.expiresAt === shorter));
      assert.equal(await store.updateFolder('unknownfolder123', { note: 'x' }, T0), 'absent');
    });

    it('updateFolder on an empty folder keeps its upload deadline unless the choice is earlier', async (store) => {
      const f = folder({ deleteAfter: T0 + 24 * HOUR });
      await store.createFolder(f, []);
      await store.updateFolder(f.id, { expiresAt: T0 + 100 * HOUR }, T0);
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 24 * HOUR);
      await store.updateFolder(f.id, { expiresAt: T0 + 2 * HOUR }, T0);
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 2 * HOUR);
      // Its first file then takes the chosen expiry, and so does the folder.
      assert.equal(await store.addFiles(f.id, [unpositioned(file(f.id, 0))], ROOMY), 'added');
      assert.equal((await store.getFolder(f.id))!.deleteAfter, T0 + 2 * HOUR);
    });

    it('updateFolder: limit, note and the password once, only before any file is complete', async (store) => {
      const f = folder();
      await store.createFolder(f, [file(f.id, 0)]);
      const a = await store.updateFolder(f.id, { maxDownloads: 5, note: 'n1', password: 'p1' }, T0);
      assert.ok(typeof a === 'object');
      assert.deepEqual(a.settings, { expiresAt: null, maxDownloads: 5, note: 'n1', password: 'p1' });
      // A second password is refused and nothing of the change is kept.
      assert.equal(await store.updateFolder(f.id, { password: 'p2', note: 'n2' }, T0), 'password-locked');
      const b = await store.updateFolder(f.id, { maxDownloads: null, note: null }, T0);
      assert.ok(typeof b === 'object');
      assert.deepEqual(b.settings, { expiresAt: null, maxDownloads: null, note: null, password: 'p1' });
      const g = folder();
      await store.createFolder(g, [file(g.id, 0, { completedAt: T0 + 1 })]);
      assert.equal(await store.updateFolder(g.id, { password: 'p' }, T0), 'password-locked');
      assert.equal((await store.getFolder(g.id))!.settings.password, null);
    });

    it('updateFile sets the own limit; countDownload counts up to the limit, atomically on two nodes', async (store, peer) => {
      const f = folder();
      const x = file(f.id, 0);
      await store.createFolder(f, [x]);
      assert.equal((await store.updateFile(f.id, x.id, 3))!.maxDownloads, 3);
      assert.equal(await store.updateFile(f.id, 'unknownfile12345', 3), null);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? peer : store).countDownload(f.id, x.id, { limit: 3, count: true, activity: null }),
        ),
      );
      assert.equal(results.filter((r) => r === 'limit-reached').length, 7);
      assert.deepEqual(
        results
          .filter((r) => typeof r === 'object')
          .map((r) => (r as { downloads: number }).downloads)
          .sort(),
        [1, 2, 3],
      );
      assert.equal((await store.getFile(f.id, x.id))!.downloads, 3);
      // Not counting (the owner) is never refused and changes nothing.
      assert.deepEqual(await store.countDownload(f.id, x.id, { limit: 3, count: false, activity: null }), {
        downloads: 3,
      });
      // Without a limit it counts on.
      assert.deepEqual(await store.countDownload(f.id, x.id, { limit: null, count: true, activity: null }), {
        downloads: 4,
      });
      assert.equal(
        await store.countDownload(f.id, 'unknownfile12345', { limit: null, count: true, activity: null }),
        'absent',
      );
    });

    it('activity: newest first, pruned to the newest 200, written with a counted download, deleted with the folder', async (store) => {
      const f = folder();
      const x = file(f.id, 0);
      await store.createFolder(f, [x]);
      const none = { filename: null, sealedKey: null };
      // A deletion keeps the file's stored (encrypted) name and sealed key, as given.
      const deleted = (i: number) => ({ filename: `ZW5jcnlwdGVk-${i}`, sealedKey: i % 4 ? null : `c2VhbGVk-${i}` });
      for (let i = 0; i < 205; i++)
        await store.addActivity(f.id, {
          at: T0 + i,
          kind: i % 2 ? 'upload' : 'delete',
          fileId: x.id,
          ip: null,
          ...(i % 2 ? none : deleted(i)),
        });
      await store.countDownload(f.id, x.id, {
        limit: null,
        count: true,
        activity: { at: T0 + 1000, kind: 'download', fileId: x.id, ip: '192.0.2.1', ...none },
      });
      const all = await store.listActivity(f.id, 1000);
      assert.equal(all.length, 200);
      assert.deepEqual(all[0], { at: T0 + 1000, kind: 'download', fileId: x.id, ip: '192.0.2.1', ...none });
      assert.deepEqual(all[1], { at: T0 + 204, kind: 'delete', fileId: x.id, ip: null, ...deleted(204) });
      assert.deepEqual(all[3], { at: T0 + 202, kind: 'delete', fileId: x.id, ip: null, ...deleted(202) });
      assert.deepEqual(all[2], { at: T0 + 203, kind: 'upload', fileId: x.id, ip: null, ...none });
      assert.equal(all[199]!.at, T0 + 6);
      assert.equal((await store.listActivity(f.id, 100)).length, 100);
      // Deleted with the folder; a line for a folder being deleted is dropped.
      assert.equal(await store.beginOwnerDeletion(f.id, T0 + 2000), true);
      await store.addActivity(f.id, { at: T0 + 3000, kind: 'upload', fileId: x.id, ip: null, ...none });
      await store.finishFolderDeletion(f.id);
      assert.deepEqual(await store.listActivity(f.id, 1000), []);
    });

    it('beginOwnerDeletion: whatever the deleteAfter, once; the folder reads as absent and is due at once', async (store) => {
      const f = folder({ deleteAfter: T0 + 100 * HOUR });
      await store.createFolder(f, [file(f.id, 0)]);
      assert.equal(await store.beginOwnerDeletion(f.id, T0), true);
      assert.equal(await store.beginOwnerDeletion(f.id, T0), false);
      assert.equal(await store.getFolder(f.id), null);
      assert.ok((await store.foldersDue(T0, 1000)).includes(f.id));
      assert.equal(await store.beginOwnerDeletion('unknownfolder123', T0), false);
      await store.finishFolderDeletion(f.id);
      assert.equal(await store.getFile(f.id, f.id), null);
    });

    // The ops part of the contract (outbox, notification settings, usage, admin queries).
    opsStoreTests(it, { folder, file, id });
    // "My folders": an account's folders.
    accountFolderTests(it, { folder, file });
    // The storage quotas, checked atomically with the insert.
    storageQuotaTests(it, { folder, file });
    // The downloads tickets are bound to.
    downloadTicketTests(it, { folder, file });

    accountStoreTests(it, { folder });
  });
}
