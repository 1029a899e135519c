import assert from 'node:assert/strict';
import type { FileRecord, FolderRecord, MetadataStore } from '../../src/store/metadata-store.js';

/**
 * The downloads tickets are bound to (MetadataStore.countDownload's `download`, spendDownload): run
 * inside the shared store suite (metadata-store.suite.ts) with its fresh store and peer (another node).
 */
type It = (title: string, body: (store: MetadataStore, peer: MetadataStore) => Promise<void>) => void;
type Make = {
  folder(overrides?: Partial<FolderRecord>): FolderRecord;
  file(folderId: string, position: number, overrides?: Partial<FileRecord>): FileRecord;
};

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;

export function downloadTicketTests(it: It, make: Make): void {
  it('downloads: a counted download is sent at most its budget, across nodes and racing fetches; what was not sent comes back', async (store, peer) => {
    const f = make.folder({ flow: 'direct' });
    const x = make.file(f.id, 0);
    await store.createFolder(f, [x]);
    const download = { id: 'd'.repeat(22), budget: 1000, expiresAt: T0 + HOUR, now: T0 };
    const counted = await store.countDownload(f.id, x.id, { limit: 1, count: true, activity: null, download });
    assert.deepEqual(counted, { downloads: 1 });
    // 20 racing fetches of 100 bytes on two nodes: exactly 10 fit.
    const spent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? peer : store).spendDownload(x.id, download.id, 100, T0 + 1)),
    );
    assert.equal(spent.filter(Boolean).length, 10);
    assert.equal(await store.spendDownload(x.id, download.id, 1, T0 + 1), false, 'spent');
    // A broken response gives back what it did not send.
    assert.equal(await store.spendDownload(x.id, download.id, -300, T0 + 2), true);
    assert.equal(await peer.spendDownload(x.id, download.id, 300, T0 + 3), true);
    assert.equal(await peer.spendDownload(x.id, download.id, 1, T0 + 3), false);
    // Unknown, of another file, or past the ticket's life: nothing.
    assert.equal(await store.spendDownload(x.id, 'e'.repeat(22), 1, T0), false);
    const other = { ...download, id: 'f'.repeat(22) };
    await store.countDownload(f.id, x.id, { limit: null, count: true, activity: null, download: other });
    assert.equal(await store.spendDownload('otherfile1234567', other.id, 1, T0), false, 'another file');
    assert.equal(await store.spendDownload(x.id, other.id, 1, T0 + HOUR), false, 'expired');
    assert.equal(await store.spendDownload(x.id, other.id, 1, T0 + HOUR - 1), true);
  });

  it('downloads: a refused count records no download; the file takes its downloads with it; expired ones are forgotten', async (store) => {
    const f = make.folder({ flow: 'direct' });
    const x = make.file(f.id, 0, { downloads: 1 });
    await store.createFolder(f, [x]);
    const first = { id: 'a'.repeat(22), budget: 10, expiresAt: T0 + HOUR, now: T0 };
    assert.equal(
      await store.countDownload(f.id, x.id, { limit: 1, count: true, activity: null, download: first }),
      'limit-reached',
    );
    assert.equal(await store.spendDownload(x.id, first.id, 1, T0), false, 'a refused download is not recorded');
    // The owner's download (not counted) is recorded: its ticket is bound like any other.
    await store.countDownload(f.id, x.id, { limit: 1, count: false, activity: null, download: first });
    assert.equal(await store.spendDownload(x.id, first.id, 1, T0), true);
    const later = { id: 'b'.repeat(22), budget: 10, expiresAt: T0 + 3 * HOUR, now: T0 + 2 * HOUR };
    await store.countDownload(f.id, x.id, { limit: null, count: false, activity: null, download: later });
    // The first one's ticket expired before `later` started: its row is gone, whatever the clock says.
    assert.equal(await store.spendDownload(x.id, first.id, 1, T0), false);
    assert.equal(await store.deleteFile(f.id, x.id), true);
    assert.equal(await store.spendDownload(x.id, later.id, 1, T0 + 2 * HOUR), false, 'gone with its file');
  });
}
