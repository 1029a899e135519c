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
    const quota: StorageQuota = { folderBytes: 5 * MIB, instanceBytes: null };
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
    assert.equal(await store.ops.folderBytes(f.id), 5 * MIB);
    assert.equal(await store.ops.totalBytes(), 5 * MIB);
  });

  it('quota: the instance quota holds across nodes for creates and appends; a refusal writes nothing', async (store, peer) => {
    const quota: StorageQuota = { folderBytes: null, instanceBytes: 6 * MIB };
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const f = make.folder({ flow: 'direct' });
        return (i % 2 ? peer : store).createFolder(f, [make.file(f.id, 0, { filesize: MIB })], [], quota);
      }),
    );
    assert.equal(created.filter((r) => r === 'created').length, 6, JSON.stringify(created));
    assert.ok(created.every((r) => r === 'created' || r === 'instance-quota'));
    assert.equal((await store.ops.usage()).folders, 6);
    const g = make.folder();
    await store.createFolder(g, []);
    const added = await peer.addFiles(g.id, [unpositioned(make.file(g.id, 0, { filesize: 1 }))], {
      limits: ROOMY,
      quota,
    });
    assert.equal(added, 'instance-quota');
    assert.deepEqual(await store.listFiles(g.id), []);
    assert.equal(await store.ops.totalBytes(), 6 * MIB);
    // A claim refused by the quota is not kept either.
    const claim = { ownerTokenHash: 'owner-hash', ownerPublicKey: null, ske: 'ske' };
    const claimed = await store.addFiles(g.id, [unpositioned(make.file(g.id, 0, { filesize: 1 }))], {
      limits: ROOMY,
      quota,
      claim,
    });
    assert.equal(claimed, 'instance-quota');
    assert.equal((await store.getFolder(g.id))!.ownerTokenHash, null);
  });

  it('quota: deleting a file or a folder gives its bytes back to both counters', async (store) => {
    const quota: StorageQuota = { folderBytes: 3 * MIB, instanceBytes: 4 * MIB };
    const f = make.folder({ flow: 'direct' });
    const files = [make.file(f.id, 0, { filesize: 2 * MIB }), make.file(f.id, 1, { filesize: MIB })];
    assert.equal(await store.createFolder(f, files, [], quota), 'created');
    assert.equal(await store.createFolder(make.folder(), [], [], quota), 'created');
    const extra = () => [unpositioned(make.file(f.id, 0, { filesize: MIB }))];
    assert.equal(await store.addFiles(f.id, extra(), { limits: ROOMY, quota }), 'folder-quota');
    assert.equal(await store.deleteFile(f.id, files[1]!.id), true);
    assert.equal(await store.ops.folderBytes(f.id), 2 * MIB);
    assert.equal(await store.ops.totalBytes(), 2 * MIB);
    assert.equal(await store.addFiles(f.id, extra(), { limits: ROOMY, quota }), 'added');
    const g = make.folder({ flow: 'direct' });
    const big = [make.file(g.id, 0, { filesize: 2 * MIB })];
    assert.equal(await store.createFolder(g, big, [], quota), 'instance-quota');
    assert.equal(await store.createFolder(g, [make.file(g.id, 0, { filesize: 4 * MIB })], [], quota), 'folder-quota');
    assert.equal(await store.getFolder(g.id), null);
    // A folder's bytes count until its record goes (its chunks are deleted before that).
    assert.equal(await store.beginOwnerDeletion(f.id, 0), true);
    assert.equal(await store.ops.totalBytes(), 3 * MIB);
    await store.finishFolderDeletion(f.id);
    assert.equal(await store.ops.totalBytes(), 0);
    assert.equal(await store.createFolder(g, big, [], quota), 'created');
  });
}
