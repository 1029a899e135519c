import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Fetch, TransportInit } from '../../src/transfer/retry.js';
import { createFolder } from '../../src/transfer/v2.js';
import {
  type FolderSession,
  openSession,
  parseFragment,
  speedometer,
  type UploadProgress,
} from '../../web/src/state/index.js';
import { useServer } from '../support/server.js';
import { memoryStore } from './memory-store.js';

/**
 * The fixes a walk-through of the page found, in the page's session, without a browser (real server; the
 * chunk transport is a fetch that can hold a PUT half-sent until it is aborted, as a slow network
 * would): no negative speed after Cancel, "uploading" only while this page sends a file, and a
 * cancelled upload that stays silent once a newer one runs.
 */
const MIB = 1024 * 1024;
const server = useServer({ CHUNK_SIZE_MIB: '5' });

async function openNew(transport: Fetch): Promise<FolderSession> {
  const created = await createFolder({ server: server.baseUrl, mode: 'share', title: 'Walk-through' });
  const session = await openSession(created.folderId, parseFragment(new URL(created.folderUrl).hash), {
    siteApi: `${server.baseUrl}/api/site`,
    store: memoryStore(),
    transport,
  });
  assert.ok('client' in session);
  return session;
}

function file(content: Uint8Array, name: string): File {
  return new File([content as Uint8Array<ArrayBuffer>], name, { lastModified: 1_700_000_000_000 });
}

/**
 * A transport whose PUTs of files named in `hold` report half their body sent, then wait until
 * aborted (`held` resolves when the first is waiting); everything else goes to the server. With
 * `settle`, an aborted PUT rejects only once `settle` resolves (an abort that takes its time).
 */
function holdingTransport(
  hold: (url: string) => boolean,
  settle: Promise<void> = Promise.resolve(),
): { transport: Fetch; held: Promise<void> } {
  let markHeld: () => void;
  const held = new Promise<void>((resolve) => {
    markHeld = resolve;
  });
  const transport: Fetch = (url, init: TransportInit) => {
    if (init.method !== 'PUT' || !hold(url)) return fetch(url, init);
    const body = init.body as Blob | Uint8Array;
    init.onUploadProgress?.(Math.floor((body instanceof Blob ? body.size : body.byteLength) / 2));
    markHeld();
    return new Promise<Response>((_resolve, reject) => {
      const signal = init.signal;
      const abort = () => void settle.then(() => reject(new DOMException('aborted', 'AbortError')));
      if (signal?.aborted) abort();
      signal?.addEventListener('abort', abort, { once: true });
    });
  };
  return { transport, held };
}

describe('session: the walk-through fixes (no browser)', () => {
  test('Cancel drops the half-sent bytes without a negative speed; the file is no longer "uploading"', async () => {
    let fileIds: string[] = [];
    const { transport, held } = holdingTransport(() => true);
    const session = await openNew(transport);
    const progress: UploadProgress[] = [];
    session.uploads.on('progress', (p) => {
      progress.push({ ...p });
      fileIds = p.files.map((f) => f.fileId);
    });
    const running = session.uploads.upload([{ file: file(randomBytes(6 * MIB), 'a.bin'), path: 'a.bin' }]);
    await held;
    assert.ok(fileIds.length === 1 && session.uploads.isUploading(fileIds[0]!), 'uploading while this page sends it');
    assert.ok(
      progress.some((p) => p.sent > 0),
      'half-sent bytes counted',
    );
    session.uploads.cancel();
    const outcome = await running;
    assert.equal(outcome.state, 'cancelled');
    const last = progress.at(-1)!;
    assert.equal(last.sent, 0, 'the unfinished bytes are dropped');
    for (const p of progress) assert.ok(p.speed >= 0, `speed ${p.speed}`);
    assert.deepEqual(progress.map((p) => p.files[0]!.state).slice(-1), ['cancelled']);
    assert.equal(session.uploads.isUploading(fileIds[0]!), false, 'a cancelled file is not "uploading"');
  });

  test('files picked right after Cancel: the cancelled upload reports nothing once the new one runs', async () => {
    // The cancelled upload's PUT settles only after the new upload is done.
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const { transport, held } = holdingTransport((url) => firstIds.some((id) => url.includes(id)), settled);
    let firstIds: string[] = [];
    const session = await openNew(transport);
    const seen: Array<readonly string[]> = [];
    session.uploads.on('progress', (p) => {
      seen.push(p.files.map((f) => f.name));
      if (firstIds.length === 0) firstIds = p.files.map((f) => f.fileId);
    });
    const first = session.uploads.upload([{ file: file(randomBytes(6 * MIB), 'first.bin'), path: 'first.bin' }]);
    await held;
    // Cancel and pick again in the same turn, as a quick person does.
    session.uploads.cancel();
    const second = session.uploads.upload([{ file: file(randomBytes(3000), 'second.txt'), path: 'second.txt' }]);
    const b = await second;
    settle();
    const a = await first;
    assert.equal(a.state, 'cancelled');
    assert.equal(b.state, 'complete');
    const secondStarted = seen.findIndex((names) => names[0] === 'second.txt');
    assert.ok(secondStarted > 0);
    assert.deepEqual(
      seen.slice(secondStarted).filter((names) => names[0] !== 'second.txt'),
      [],
      'no progress of the cancelled upload after the new one started',
    );
  });

  test('the speed never goes below zero when bytes are dropped (explicit times)', () => {
    let now = 0;
    const speed = speedometer(() => now);
    assert.equal(speed(0), 0);
    now = 6000;
    assert.equal(speed(10 * MIB), (10 * MIB * 1000) / 6000);
    // Cancel 1 s later: 8 MiB of unfinished chunks dropped; the oldest sample in the window is 10 MiB.
    now = 7000;
    assert.equal(speed(2 * MIB), 0);
    now = 8000;
    assert.equal(speed(3 * MIB), 0, "still below the window's start: 0, not negative");
  });
});
