import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { chunkUrl, createEmpty, putChunk } from '../support/api.js';
import { until } from '../support/poll.js';
import { serverOnTmpfs } from '../support/tmpfs.js';

/**
 * What a registration reserves of the local disk, on a real small filesystem (a tmpfs this test
 * mounts): registered-but-unwritten bytes count against the free space, but a registration whose
 * folder makes no progress for DISK_RESERVATION_IDLE_SECONDS stops holding it (its chunks are checked
 * again as they arrive), and one folder or one client may reserve only DISK_RESERVATION_SHARE_PERCENT
 * of the space above the floor. The v2 create answers only what its contract lists (500 for a full
 * disk, with the code).
 */
const MIB = 1024 * 1024;
const CHUNK = 5 * MIB;
const FLOOR_MIB = 10;

interface Registered {
  status: number;
  body: { code?: string; error?: string; files?: { fileId: string; uploadUrls: Parameters<typeof chunkUrl>[0] }[] };
}

function onTmpfs(sizeMiB: number, env: Record<string, string>) {
  const fx = serverOnTmpfs(sizeMiB, {
    DISK_FREE_MIN_MIB: String(FLOOR_MIB),
    RATE_LIMIT_SITE: '100000',
    RATE_LIMIT_CREATE: '100000',
    TRUST_PROXY: 'true',
    ...env,
  });
  const usable = async () => {
    const s = await statfs(fx.mount!);
    return s.bavail * s.bsize - FLOOR_MIB * MIB;
  };
  const owners = new Map<string, string>();
  /** A site registration of one file of `filesize` bytes into `folderId`, from client address `client`. */
  const register = async (folderId: string, filesize: number, client = '203.0.113.1'): Promise<Registered> => {
    const res = await fetch(`${fx.server.baseUrl}/api/site/folders/${folderId}/files`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        // The folder's owner, whichever client address it calls from.
        'x-owner-token':
          owners.get(folderId) ?? owners.set(folderId, randomBytes(32).toString('base64url')).get(folderId)!,
        'x-forwarded-for': client,
      },
      body: JSON.stringify({ files: [{ filename: 'f', filesize }], ske: 'ske' }),
    });
    return { status: res.status, body: (await res.json()) as Registered['body'] };
  };
  /** A v2 create of one file, as an anonymous program would make it. */
  const create = (filesize: number, client = '198.51.100.7') =>
    fetch(`${fx.server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ encryption: { ske: 'ske' }, files: [{ filename: 'big', filesize }] }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Registered['body'] }));
  return { fx, usable, register, create };
}

/** A whole number of chunks, about `fraction` of `bytes`. */
const chunksOf = (bytes: number, fraction: number) => Math.max(1, Math.floor((bytes * fraction) / CHUNK)) * CHUNK;

describe('a registration that makes no progress stops holding the disk', () => {
  const { fx, usable, register, create } = onTmpfs(100, {
    DISK_RESERVATION_IDLE_SECONDS: '2',
    DISK_RESERVATION_SHARE_PERCENT: '100',
  });

  test('one anonymous create of nearly all the free space blocks others only until it lapses; its chunks are then checked again', async (t) => {
    if (!fx.mount) return void t.skip(fx.skip);
    const space = await usable();
    // One file just under what the disk can take: accepted, and its bytes reserved.
    const hog = await create(chunksOf(space, 0.9));
    assert.equal(hog.status, 200, JSON.stringify(hog.body));
    const hogFile = hog.body.files![0]!;
    // Anyone else's registration of a third of the space is refused while the reservation holds.
    const victim = (await createEmpty(fx.server.baseUrl)).folderId;
    const refused = await register(victim, chunksOf(space, 0.3));
    assert.equal(refused.status, 507, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'insufficient_storage');
    // No chunk of the hog's folder arrives: its reservation lapses and the same registration passes.
    // It takes all but 3 MiB above the floor, less than one of the hog's 5 MiB chunks.
    const accepted = await until('the stalled reservation to lapse', async () => {
      const r = await register(victim, (await usable()) - 3 * MIB);
      return r.status === 200 ? r : r.status === 507 ? undefined : assert.fail(JSON.stringify(r.body));
    });
    assert.equal(accepted.body.files?.length, 1);
    // The hog's chunk comes late: checked against the free space now, which the other upload holds.
    const late = await putChunk(
      chunkUrl(hogFile.uploadUrls, 1),
      hogFile.uploadUrls.headers,
      randomBytes(encryptedLength(CHUNK)),
    );
    assert.equal(late.status, 507, JSON.stringify(late.body));
    assert.equal((late.body as { code: string }).code, 'insufficient_storage');
    // The upload that holds the space goes on: its chunk fits in what it reserved.
    const file = accepted.body.files![0]!;
    const stored = await putChunk(
      chunkUrl(file.uploadUrls, 1),
      file.uploadUrls.headers,
      randomBytes(encryptedLength(CHUNK)),
    );
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
  });
});

describe('one folder or one client reserves at most a share of the free space', () => {
  const { fx, usable, register, create } = onTmpfs(100, { DISK_RESERVATION_SHARE_PERCENT: '50' });

  test('past half the space above the floor: the v2 create answers 500 insufficient_storage, the site 507', async (t) => {
    if (!fx.mount) return void t.skip(fx.skip);
    const space = await usable();
    // More than half in one request: refused, though the disk could take it.
    const tooMuch = await create(chunksOf(space, 0.65));
    assert.equal(tooMuch.status, 500, JSON.stringify(tooMuch.body));
    assert.equal(tooMuch.body.code, 'insufficient_storage');
    assert.match(tooMuch.body.error ?? '', /one (folder|client) may reserve at most/);
    const third = chunksOf(space, 0.3);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createEmpty(fx.server.baseUrl).then((f) => f.folderId)));
    // Client X: one third in folder A passes; another third in folder B would give it two thirds.
    assert.equal((await register(a!, third, '203.0.113.10')).status, 200);
    const second = await register(b!, third, '203.0.113.10');
    assert.equal(second.status, 507, JSON.stringify(second.body));
    assert.equal(second.body.code, 'insufficient_storage');
    assert.match(second.body.error ?? '', /one client may reserve at most/);
    // Another client may take folder B's third: the space is there.
    assert.equal((await register(b!, third, '203.0.113.20')).status, 200);
    // A third client adding a third to folder A would give that folder two thirds.
    const crowded = await register(a!, third, '203.0.113.30');
    assert.equal(crowded.status, 507, JSON.stringify(crowded.body));
    assert.match(crowded.body.error ?? '', /one folder may reserve at most/);
    // Small registrations of a fresh folder still pass.
    assert.equal((await register(c!, CHUNK, '203.0.113.30')).status, 200);
  });
});
