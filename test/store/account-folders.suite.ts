import assert from 'node:assert/strict';
import type { AccountFolderPage } from '../../src/store/account-folders.js';
import type { FileRecord, FolderRecord, MetadataStore } from '../../src/store/metadata-store.js';

/**
 * "My folders" (src/store/account-folders.ts) on every store: only the account's live
 * folders, with their figures, in either sort, a page at a time without gaps or repeats.
 */
type It = (title: string, body: (store: MetadataStore, peer: MetadataStore) => Promise<void>) => void;
type Make = {
  folder(overrides?: Partial<FolderRecord>): FolderRecord;
  file(folderId: string, position: number, overrides?: Partial<FileRecord>): FileRecord;
};

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;
const NOW = T0 + HOUR;

/** Every folder of the account, page by page, in the order the store answers. */
async function walk(store: MetadataStore, account: string, sort: AccountFolderPage['sort'], limit: number) {
  const seen: string[] = [];
  let after: AccountFolderPage['after'];
  for (let pages = 0; pages < 20; pages++) {
    const page = await store.listings.accountFolders(account, NOW, { sort, limit, after });
    seen.push(...page.map((f) => f.id));
    const last = page.at(-1);
    if (page.length < limit || !last) return seen;
    after = { key: sort === 'newest' ? last.createdAt : last.deleteAfter, id: last.id };
  }
  throw new Error('paging did not end');
}

export function accountFolderTests(it: It, make: Make): void {
  it('accountFolders: the account’s live folders with their figures, newest first or soonest gone', async (store) => {
    const mine = 'account-a';
    // Created at T0+1..T0+5; deleted (delete_after) in a different order; two share a creation time.
    const a = make.folder({ accountId: mine, createdAt: T0 + 1, deleteAfter: T0 + 50 * HOUR, title: 'Alpha' });
    const b = make.folder({ accountId: mine, createdAt: T0 + 2, deleteAfter: T0 + 10 * HOUR });
    const c = make.folder({ accountId: mine, createdAt: T0 + 2, deleteAfter: T0 + 30 * HOUR });
    const d = make.folder({ accountId: mine, createdAt: T0 + 4, deleteAfter: T0 + 10 * HOUR });
    const gone = make.folder({ accountId: mine, createdAt: T0 + 5, deleteAfter: NOW }); // due: not listed
    const deleting = make.folder({ accountId: mine, createdAt: T0 + 6 });
    const other = make.folder({ accountId: 'account-b', createdAt: T0 + 7 });
    const anonymous = make.folder({ createdAt: T0 + 8 });
    await store.createFolder(a, [
      make.file(a.id, 0, { filesize: 100, downloads: 2, completedAt: T0 }),
      make.file(a.id, 1, { filesize: 50, downloads: 3, completedAt: null }),
    ]);
    await store.createFolder(b, [make.file(b.id, 0, { filesize: 7, completedAt: T0 })]);
    for (const f of [c, d, gone, deleting, other, anonymous]) await store.createFolder(f, []);
    assert.equal(await store.beginOwnerDeletion(deleting.id, T0), true);
    await store.addActivity(a.id, {
      at: T0 + 10,
      kind: 'upload',
      fileId: 'f1',
      ip: null,
      filename: null,
      sealedKey: null,
    });
    await store.addActivity(a.id, {
      at: T0 + 20,
      kind: 'download',
      fileId: 'f1',
      ip: null,
      filename: null,
      sealedKey: null,
    });

    const newest = await store.listings.accountFolders(mine, NOW, { sort: 'newest', limit: 10 });
    // created_at descending, then id descending for the tie.
    const tie = [b.id, c.id].sort().reverse();
    assert.deepEqual(
      newest.map((f) => f.id),
      [d.id, ...tie, a.id],
    );
    const alpha = newest.find((f) => f.id === a.id)!;
    assert.equal(alpha.title, 'Alpha');
    assert.equal(alpha.accountId, mine);
    assert.equal(alpha.fileCount, 2);
    assert.equal(alpha.bytes, 150);
    assert.equal(alpha.downloads, 5);
    assert.equal(alpha.incompleteFiles, 1);
    assert.deepEqual(alpha.lastActivity, { at: T0 + 20, kind: 'download' });
    const beta = newest.find((f) => f.id === b.id)!;
    assert.deepEqual([beta.fileCount, beta.bytes, beta.downloads, beta.incompleteFiles], [1, 7, 0, 0]);
    assert.equal(beta.lastActivity, null);
    const empty = newest.find((f) => f.id === d.id)!;
    assert.deepEqual([empty.fileCount, empty.bytes, empty.downloads], [0, 0, 0]);

    // By expiry: delete_after ascending, id ascending for the tie (b and d both at +10 h).
    const soonest = await store.listings.accountFolders(mine, NOW, { sort: 'expiry', limit: 10 });
    assert.deepEqual(
      soonest.map((f) => f.id),
      [...[b.id, d.id].sort(), c.id, a.id],
    );
    // Pages of one and of three walk the same order, without gaps or repeats, across the ties.
    for (const limit of [1, 3]) {
      assert.deepEqual(
        await walk(store, mine, 'newest', limit),
        newest.map((f) => f.id),
        `newest, pages of ${limit}`,
      );
      assert.deepEqual(
        await walk(store, mine, 'expiry', limit),
        soonest.map((f) => f.id),
        `expiry, pages of ${limit}`,
      );
    }
    // Another account sees only its own; an unknown one nothing.
    assert.deepEqual(
      (await store.listings.accountFolders('account-b', NOW, { sort: 'newest', limit: 10 })).map((f) => f.id),
      [other.id],
    );
    assert.deepEqual(await store.listings.accountFolders('nobody', NOW, { sort: 'expiry', limit: 10 }), []);
  });
}
