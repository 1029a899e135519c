import assert from 'node:assert/strict';
import type { FileRecord, FolderRecord, MetadataStore } from '../../src/store/metadata-store.js';
import type { FolderNotifications, NewOutboxEntry } from '../../src/store/ops-store.js';

/**
 * The ops part of the store contract (src/store/ops-store.ts), run inside the shared store suite
 * (metadata-store.suite.ts) with its per-test fresh store and peer.
 */
type It = (title: string, body: (store: MetadataStore, peer: MetadataStore) => Promise<void>) => void;
type Make = {
  folder(overrides?: Partial<FolderRecord>): FolderRecord;
  file(folderId: string, position: number, overrides?: Partial<FileRecord>): FileRecord;
  id(): string;
};

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;

function entry(n: number, overrides: Partial<NewOutboxEntry> = {}): NewOutboxEntry {
  return {
    id: `evt-${n}:hook:a`,
    eventId: `evt-${n}`,
    target: 'hook:a',
    folderId: null,
    payload: JSON.stringify({ type: 'folder.created', n }),
    createdAt: T0,
    nextAttemptAt: T0,
    ...overrides,
  };
}

export function opsStoreTests(it: It, make: Make): void {
  it('outbox: enqueued deliveries are claimed once per lease, finished, retried and given up', async (store) => {
    await store.outbox.enqueueOutbox([entry(1), entry(2), entry(3, { nextAttemptAt: T0 + HOUR })]);
    await store.outbox.enqueueOutbox([entry(1, { payload: 'duplicate' })]); // ignored
    assert.deepEqual(await store.outbox.outboxCounts(), { pending: 3, failed: 0 });
    const first = await store.outbox.claimOutbox(T0, 60_000, 10);
    assert.deepEqual(first.map((e) => e.id).sort(), ['evt-1:hook:a', 'evt-2:hook:a']);
    const one = first.find((e) => e.id === 'evt-1:hook:a')!;
    assert.equal(one.payload, entry(1).payload);
    assert.equal(one.eventId, 'evt-1');
    assert.equal(one.attempts, 0);
    assert.equal(typeof one.createdAt, 'number');
    // Leased: nobody else gets them until the lease runs out.
    assert.deepEqual(await store.outbox.claimOutbox(T0 + 1000, 60_000, 10), []);
    await store.outbox.finishOutbox('evt-1:hook:a');
    await store.outbox.retryOutbox('evt-2:hook:a', 1, T0 + 5000, 'HTTP 500');
    assert.deepEqual(await store.outbox.claimOutbox(T0 + 4999, 60_000, 10), []);
    const again = await store.outbox.claimOutbox(T0 + 5000, 60_000, 10);
    assert.deepEqual(
      again.map((e) => [e.id, e.attempts]),
      [['evt-2:hook:a', 1]],
    );
    await store.outbox.retryOutbox('evt-2:hook:a', 2, null, 'gave up');
    assert.deepEqual(await store.outbox.outboxCounts(), { pending: 1, failed: 1 });
    assert.deepEqual(await store.outbox.claimOutbox(T0 + 100 * HOUR, 60_000, 10).then((r) => r.map((e) => e.id)), [
      'evt-3:hook:a',
    ]);
  });

  it('outbox: a lease that ran out lets another node take the delivery', async (store, peer) => {
    await store.outbox.enqueueOutbox([entry(1)]);
    assert.equal((await store.outbox.claimOutbox(T0, 1000, 10)).length, 1);
    assert.equal((await peer.outbox.claimOutbox(T0 + 999, 1000, 10)).length, 0);
    assert.equal((await peer.outbox.claimOutbox(T0 + 1000, 1000, 10)).length, 1);
  });

  it('outbox: many concurrent claimers on two nodes take each delivery exactly once', async (store, peer) => {
    const n = 60;
    await store.outbox.enqueueOutbox(Array.from({ length: n }, (_, i) => entry(i)));
    const claims = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? peer : store).outbox.claimOutbox(T0, 60_000, 7)),
    );
    const ids = claims.flat().map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'a delivery was claimed twice');
    // Whatever the first round left is claimable, and nothing more.
    const rest = await store.outbox.claimOutbox(T0, 60_000, n);
    assert.equal(ids.length + rest.length, n);
  });

  it('outbox rows commit with the change they report, and only with a change that took effect', async (store, peer) => {
    // What the outbox gained since the last look, by event id (read through the other node, then removed).
    const recorded = async () => {
      const rows = await peer.outbox.claimOutbox(T0 + 1000 * HOUR, HOUR, 1000);
      for (const r of rows) await peer.outbox.finishOutbox(r.id);
      return rows.map((r) => r.eventId).sort();
    };
    const limits = { maxFiles: 2, maxChunks: 100 };
    const strip = (f: FileRecord) => {
      const { position: _p, ...rest } = f;
      return rest;
    };
    // createFolder: with the folder; a duplicate id, or a file that fails to insert, writes nothing.
    const a = make.folder();
    await store.createFolder(a, [], { outbox: [entry(1)] });
    await assert.rejects(store.createFolder(a, [], { outbox: [entry(2)] }));
    const b = make.folder();
    const dupFile = make.file(b.id, 0);
    await assert.rejects(store.createFolder(b, [dupFile, { ...dupFile, position: 1 }], { outbox: [entry(3)] }));
    assert.equal(await store.getFolder(b.id), null);
    const c = make.folder();
    const cFile = make.file(c.id, 0);
    await store.createFolder(c, [cFile], { outbox: [entry(4)] });
    assert.deepEqual(await recorded(), ['evt-1', 'evt-4']);
    // addFiles: refused (limits), absent, claim lost: nothing; added (with its claim): the rows.
    const many = [make.file(a.id, 0), make.file(a.id, 1), make.file(a.id, 2)].map(strip);
    assert.equal(await store.addFiles(a.id, many, { limits, outbox: [entry(5)] }), 'too-many-files');
    assert.equal(await store.addFiles(make.id(), many.slice(0, 1), { limits, outbox: [entry(6)] }), 'absent');
    const claim = { ownerTokenHash: 'owner-a', ownerPublicKey: null, ske: 'ske' };
    const one = [strip(make.file(a.id, 0))];
    assert.equal(await store.addFiles(a.id, one, { limits, claim, outbox: [entry(7)] }), 'added');
    const other = { ...claim, ownerTokenHash: 'owner-b' };
    const lost = [strip(make.file(a.id, 0))];
    assert.equal(await store.addFiles(a.id, lost, { limits, claim: other, outbox: [entry(8)] }), 'claim-lost');
    assert.deepEqual(await recorded(), ['evt-7']);
    // markComplete: the call that completes the file writes its rows; a repeated one does not.
    assert.equal(await store.markComplete(c.id, cFile.id, T0 + 1, T0 + 2 * HOUR, [entry(9)]), true);
    assert.equal(await peer.markComplete(c.id, cFile.id, T0 + 2, T0 + 2 * HOUR, [entry(10)]), false);
    // deleteFile: likewise.
    assert.equal(await store.deleteFile(a.id, one[0]!.id, [entry(11)]), true);
    assert.equal(await peer.deleteFile(a.id, one[0]!.id, [entry(12)]), false);
    assert.deepEqual(await recorded(), ['evt-11', 'evt-9']);
    // finishFolderDeletion: with the record's removal; finishing it again (a second sweeper) writes nothing.
    const d = make.folder({ deleteAfter: T0 });
    await store.createFolder(d, []);
    assert.equal(await store.beginFolderDeletion(d.id, T0, HOUR), true);
    await store.finishFolderDeletion(d.id, [entry(13)]);
    await peer.finishFolderDeletion(d.id, [entry(14)]);
    assert.deepEqual(await recorded(), ['evt-13']);
    // countDownload: with the count (or the owner's uncounted ticket); a refusal writes nothing.
    const e = make.folder();
    const eFile = make.file(e.id, 0);
    await store.createFolder(e, [eFile]);
    const ticket = (count: boolean, n: number) => ({ limit: 1, count, activity: null, outbox: [entry(n)] });
    assert.deepEqual(await store.countDownload(e.id, eFile.id, ticket(true, 15)), { downloads: 1 });
    assert.equal(await peer.countDownload(e.id, eFile.id, ticket(true, 16)), 'limit-reached');
    assert.equal(await store.countDownload(e.id, make.id(), ticket(true, 17)), 'absent');
    assert.deepEqual(await store.countDownload(e.id, eFile.id, ticket(false, 18)), { downloads: 1 });
    assert.deepEqual(await recorded(), ['evt-15', 'evt-18']);
    // Without rows, a write behaves as before and writes none.
    await store.createFolder(make.folder(), [], { outbox: [] });
    assert.deepEqual(await recorded(), []);
  });

  it('folder notifications: set, read, replace, remove; deleted with their folder', async (store) => {
    const f = make.folder();
    await store.createFolder(f, []);
    const settings: FolderNotifications = {
      email: 'owner@example.org',
      webhookUrl: 'https://hooks.example.org/x',
      webhookSecret: 'whsec_c2VjcmV0',
      onDownload: true,
      onUpload: false,
      language: 'pt-BR',
      updatedAt: T0,
    };
    assert.equal(await store.notificationSettings.getFolderNotifications(f.id), null);
    assert.equal(await store.notificationSettings.setFolderNotifications(f.id, settings), true);
    assert.deepEqual(await store.notificationSettings.getFolderNotifications(f.id), settings);
    // The language is replaced with the rest; null (English) is kept as null.
    const replaced = { ...settings, email: null, onUpload: true, language: null, updatedAt: T0 + 1 };
    assert.equal(await store.notificationSettings.setFolderNotifications(f.id, replaced), true);
    assert.deepEqual(await store.notificationSettings.getFolderNotifications(f.id), replaced);
    assert.equal(await store.notificationSettings.setFolderNotifications(f.id, null), true);
    assert.equal(await store.notificationSettings.getFolderNotifications(f.id), null);
    assert.equal(await store.notificationSettings.setFolderNotifications(make.id(), settings), false);
    // Deleted with the folder: a folder re-created under the same id has none.
    const g = make.folder({ deleteAfter: T0 });
    await store.createFolder(g, []);
    await store.notificationSettings.setFolderNotifications(g.id, settings);
    assert.equal(await store.beginFolderDeletion(g.id, T0, HOUR), true);
    assert.equal(await store.notificationSettings.getFolderNotifications(g.id), null);
    assert.equal(await store.notificationSettings.setFolderNotifications(g.id, settings), false);
    await store.finishFolderDeletion(g.id);
    await store.createFolder(g, []);
    assert.equal(await store.notificationSettings.getFolderNotifications(g.id), null);
  });

  it('usage, folderBytes, listFolders and expireFolder', async (store) => {
    const big = 1_098_437_885_952;
    const a = make.folder({ createdAt: T0 + 1 });
    const b = make.folder({ createdAt: T0 + 2, accountId: 'account-b' });
    const c = make.folder({ createdAt: T0 + 3, deleteAfter: T0 });
    await store.createFolder(a, [make.file(a.id, 0, { filesize: big }), make.file(a.id, 1, { filesize: 10 })]);
    await store.createFolder(b, [make.file(b.id, 0, { filesize: 5, completedAt: T0 })]);
    await store.createFolder(c, [make.file(c.id, 0, { filesize: 7 })]);
    assert.deepEqual(await store.byteCounts.usage(), { folders: 3, files: 4, bytes: big + 22, incompleteFiles: 3 });
    assert.equal(await store.byteCounts.folderBytes(a.id), big + 10);
    assert.equal(await store.byteCounts.folderBytes(make.id()), 0);
    const listed = await store.listings.listFolders(10);
    assert.deepEqual(
      listed.map((s) => [s.id, s.files, s.bytes]),
      [
        [c.id, 1, 7],
        [b.id, 1, 5],
        [a.id, 2, big + 10],
      ],
    );
    assert.equal(listed[2]!.title, a.title);
    // A summary is the whole folder record, as getFolder reads it, with its figures.
    assert.deepEqual(
      { ...listed[1]!, files: undefined, bytes: undefined },
      {
        ...(await store.getFolder(b.id)),
        files: undefined,
        bytes: undefined,
      },
    );
    assert.deepEqual(
      (await store.listings.listFolders(1, T0 + 3)).map((s) => s.id),
      [b.id],
    );
    // Under deletion: out of usage and listings.
    assert.equal(await store.beginFolderDeletion(c.id, T0, HOUR), true);
    assert.deepEqual(await store.byteCounts.usage(), { folders: 2, files: 3, bytes: big + 15, incompleteFiles: 3 });
    assert.equal((await store.listings.listFolders(10)).length, 2);
    // Take-down: due now, so the sweeper deletes it.
    assert.equal(await store.listings.expireFolder(b.id, T0 + 5), true);
    assert.equal((await store.getFolder(b.id))!.deleteAfter, T0 + 5);
    assert.deepEqual(await store.foldersDue(T0 + 5, 10), [c.id, b.id]);
    assert.equal(await store.listings.expireFolder(make.id(), T0), false);
    assert.equal(await store.listings.expireFolder(c.id, T0), false);
  });
}
