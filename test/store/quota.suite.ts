import assert from 'node:assert/strict';
import type { StorageQuota } from '../../src/domain/limits.js';
import type { FileRecord, FolderRecord, MetadataStore } from '../../src/store/metadata-store.js';

/**
 * The storage quotas of the store contract (src/domain/limits.ts StorageQuota): checked in the
 * transaction that inserts the files, against counters kept by every insert and delete. Run inside
 * the shared store suite (metadata-store.suite.ts) with its fresh store and peer (a second node).
 */
type It = (title: string, body: (store: MetadataStore, peer: MetadataStore) => Promise<void>) => void;
type Make = {
  folder(overrides?: Partial<FolderRecord>): FolderRecord;
  file(folderId: string, position: number, overrides?: Partial<FileRecord>): FileRecord;
};

const MIB = 1024 * 1024;
const ROOMY = { maxFiles: 1_000_000, maxChunks: 1_000_000_000 };

function unpositioned(f: FileRecord): Omit<FileRecord, 'position'> {
  const { position: _position, ...rest } = f;
  return rest;
}

export function storageQuotaTests(it: It, make: Make): void {
  it('quota: 20 racing appends of 1 MiB on two nodes fill a 5 MiB folder quota exactly, and the counters agree', async (store, peer) => {
    const f = make.folder();
    await store.createFolder(f, []);
    const quota: StorageQuota = { folderBytes: 5 * MIB, instanceBytes: null, accountBytes: null };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? peer : store).addFiles(f.id, [unpositioned(make.file(f.id, 0, { filesize: MIB }))], {
          limits: ROOMY,
          quota,
        }),
      ),
    );
    assert.equal(results.filter((r) => r === 'added').length, 5, JSON.stringify(results));
    assert.ok(results.every((r) => r === 'added' || r === 'folder-quota'));
    assert.equal((await store.listFiles(f.id)).length, 5);
    assert.equal(await store.byteCounts.folderBytes(f.id), 5 * MIB);
    assert.equal(await store.byteCounts.totalBytes(), 5 * MIB);
  });

  it('quota: the instance quota holds across nodes for creates and appends; a refusal writes nothing', async (store, peer) => {
    const quota: StorageQuota = { folderBytes: null, instanceBytes: 6 * MIB, accountBytes: null };
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const f = make.folder({ flow: 'direct' });
        return (i % 2 ? peer : store).createFolder(f, [make.file(f.id, 0, { filesize: MIB })], { quota });
      }),
    );
    assert.equal(created.filter((r) => r === 'created').length, 6, JSON.stringify(created));
    assert.ok(created.every((r) => r === 'created' || r === 'instance-quota'));
    assert.equal((await store.byteCounts.usage()).folders, 6);
    const g = make.folder();
    await store.createFolder(g, []);
    const added = await peer.addFiles(g.id, [unpositioned(make.file(g.id, 0, { filesize: 1 }))], {
      limits: ROOMY,
      quota,
    });
    assert.equal(added, 'instance-quota');
    assert.deepEqual(await store.listFiles(g.id), []);
    assert.equal(await store.byteCounts.totalBytes(), 6 * MIB);
    // A claim refused by the quota is not kept either.
    const claim = { ownerTokenHash: 'owner-hash', ownerPublicKey: null, ske: 'ske' };
    const claimed = await store.addFiles(g.id, [unpositioned(make.file(g.id, 0, { filesize: 1 }))], {
      limits: ROOMY,
      quota,
      claim,
    });
    assert.equal(claimed, 'instance-quota');
    assert.equal((await store.getFolder(g.id))!.ownerTokenHash, null);
    // Nor one refused by the folder's limits, on either node.
    const full = await peer.addFiles(g.id, [unpositioned(make.file(g.id, 0, { filesize: 1 }))], {
      limits: { ...ROOMY, maxFiles: 0 },
      claim,
    });
    assert.equal(full, 'too-many-files');
    assert.equal((await store.getFolder(g.id))!.ownerTokenHash, null);
    assert.equal(await store.byteCounts.totalBytes(), 6 * MIB);
  });

  it('quota: deleting a file or a folder gives its bytes back to both counters', async (store) => {
    const quota: StorageQuota = { folderBytes: 3 * MIB, instanceBytes: 4 * MIB, accountBytes: null };
    const f = make.folder({ flow: 'direct' });
    const files = [make.file(f.id, 0, { filesize: 2 * MIB }), make.file(f.id, 1, { filesize: MIB })];
    assert.equal(await store.createFolder(f, files, { quota }), 'created');
    assert.equal(await store.createFolder(make.folder(), [], { quota }), 'created');
    const extra = () => [unpositioned(make.file(f.id, 0, { filesize: MIB }))];
    assert.equal(await store.addFiles(f.id, extra(), { limits: ROOMY, quota }), 'folder-quota');
    assert.equal(await store.deleteFile(f.id, files[1]!.id), true);
    assert.equal(await store.byteCounts.folderBytes(f.id), 2 * MIB);
    assert.equal(await store.byteCounts.totalBytes(), 2 * MIB);
    assert.equal(await store.addFiles(f.id, extra(), { limits: ROOMY, quota }), 'added');
    const g = make.folder({ flow: 'direct' });
    const big = [make.file(g.id, 0, { filesize: 2 * MIB })];
    assert.equal(await store.createFolder(g, big, { quota }), 'instance-quota');
    assert.equal(await store.createFolder(g, [make.file(g.id, 0, { filesize: 4 * MIB })], { quota }), 'folder-quota');
    assert.equal(await store.getFolder(g.id), null);
    // A folder's bytes count until its record goes (its chunks are deleted before that).
    assert.equal(await store.beginOwnerDeletion(f.id, 0), true);
    assert.equal(await store.byteCounts.totalBytes(), 3 * MIB);
    await store.finishFolderDeletion(f.id);
    assert.equal(await store.byteCounts.totalBytes(), 0);
    assert.equal(await store.createFolder(g, big, { quota }), 'created');
  });

  /** An account as sign-in makes it (the usage listing joins the accounts table). */
  const account = async (store: MetadataStore, id: string) =>
    (
      await store.accounts.signIn({
        newId: id,
        issuer: 'https://idp.example',
        subject: `sub-${id}`,
        email: `${id}@example.org`,
        name: null,
        admin: false,
        now: 1,
      })
    ).id;
  const ACCOUNT: StorageQuota = { folderBytes: null, instanceBytes: null, accountBytes: 5 * MIB };

  it('quota: 20 racing 1 MiB creates of one account on two nodes fill its 5 MiB quota exactly; others are not counted', async (store, peer) => {
    const id = await account(store, 'acct-race-000001');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const f = make.folder({ flow: 'direct', accountId: id });
        return (i % 2 ? peer : store).createFolder(f, [make.file(f.id, 0, { filesize: MIB })], { quota: ACCOUNT });
      }),
    );
    assert.equal(results.filter((r) => r === 'created').length, 5, JSON.stringify(results));
    assert.ok(results.every((r) => r === 'created' || r === 'account-quota'));
    assert.equal((await store.usage.usage(id))?.usedBytes, 5 * MIB);
    assert.equal(await store.byteCounts.totalBytes(), 5 * MIB, 'a refusal gives the instance total back');
    // Anonymous folders and other accounts are not held by this account's quota.
    const anonymous = make.folder({ flow: 'direct' });
    assert.equal(
      await store.createFolder(anonymous, [make.file(anonymous.id, 0, { filesize: MIB })], { quota: ACCOUNT }),
      'created',
    );
    const other = await account(store, 'acct-race-000002');
    const theirs = make.folder({ flow: 'direct', accountId: other });
    assert.equal(
      await peer.createFolder(theirs, [make.file(theirs.id, 0, { filesize: MIB })], { quota: ACCOUNT }),
      'created',
    );
  });

  it("quota: appends count against the folder's account; deletes give back; an own quota replaces the default", async (store, peer) => {
    const id = await account(store, 'acct-appends-0001');
    const f = make.folder({ accountId: id });
    await store.createFolder(f, []);
    const one = () => [unpositioned(make.file(f.id, 0, { filesize: MIB }))];
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? peer : store).addFiles(f.id, one(), { limits: ROOMY, quota: ACCOUNT }),
      ),
    );
    assert.equal(racing.filter((r) => r === 'added').length, 5, JSON.stringify(racing));
    assert.ok(racing.every((r) => r === 'added' || r === 'account-quota'));
    assert.equal((await store.listFiles(f.id)).length, 5);
    assert.equal(await store.byteCounts.totalBytes(), 5 * MIB);
    // A deleted file gives its bytes back to the account.
    const [first] = await store.listFiles(f.id);
    assert.equal(await store.deleteFile(f.id, first!.id), true);
    assert.equal((await peer.usage.usage(id))?.usedBytes, 4 * MIB);
    // The account's own quota (2 MiB) replaces the default; null returns to it.
    assert.equal(await store.usage.setQuota(id, 6 * MIB), true);
    assert.equal(await peer.addFiles(f.id, [...one(), ...one()], { limits: ROOMY, quota: ACCOUNT }), 'added');
    assert.equal(await peer.addFiles(f.id, one(), { limits: ROOMY, quota: ACCOUNT }), 'account-quota');
    assert.equal(await store.usage.setQuota(id, null), true);
    assert.deepEqual(
      { ...(await store.usage.usage(id)), lastSeenAt: 0 },
      { accountId: id, email: `${id}@example.org`, name: null, lastSeenAt: 0, usedBytes: 6 * MIB, quotaBytes: null },
    );
    assert.equal(await store.usage.setQuota('no-such-account', 1), false);
    // The folder's removal gives all of its bytes back.
    assert.equal(await store.beginOwnerDeletion(f.id, 0), true);
    await store.finishFolderDeletion(f.id);
    assert.equal((await store.usage.usage(id))?.usedBytes, 0);
    assert.equal(await store.byteCounts.totalBytes(), 0);
    const listed = await store.usage.listUsage({ limit: 10 });
    assert.deepEqual(
      listed.map((a) => a.accountId),
      [id],
    );
    assert.deepEqual(await store.usage.listUsage({ after: id, limit: 10 }), []);
  });
}
