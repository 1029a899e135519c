import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { chunkUrl, createDirect, createEmpty, putChunk } from '../support/api.js';
import { serverOnTmpfs } from '../support/tmpfs.js';

/**
 * A full disk on a real, small filesystem (a tmpfs this test mounts). A chunk is
 * acknowledged only when exactly its bytes are durably stored; a full disk answers 507 and keeps
 * nothing under the chunk's name; below the free-space floor (DISK_FREE_MIN_MIB) new registrations
 * and uploads are refused up front. Mounting needs root: elsewhere the suite skips, unless
 * TEST_REQUIRE_MOUNT=1 (CI), where it fails instead.
 */
const MIB = 1024 * 1024;
const CHUNK = 5 * MIB;

async function chunkFiles(dataDir: string, folderId: string, fileId: string): Promise<Map<string, number>> {
  const dir = join(dataDir, 'blobs', folderId, fileId);
  const names = await readdir(dir).catch(() => [] as string[]);
  return new Map(await Promise.all(names.map(async (n) => [n, (await stat(join(dir, n))).size] as [string, number])));
}

/** The suite's server on a tmpfs of `sizeMiB`, with the free-space floor at `diskFreeMinMiB`. */
function onTmpfs(sizeMiB: number, diskFreeMinMiB: number) {
  return serverOnTmpfs(sizeMiB, {
    DISK_FREE_MIN_MIB: String(diskFreeMinMiB),
    // Every registration here comes from one address: no share cap per client (test/api/disk-reservations.test.ts).
    DISK_RESERVATION_SHARE_PERCENT: '100',
  });
}

describe('disk full', () => {
  // The floor is off: the disk itself runs out, mid-write.
  const fx = onTmpfs(12, 0);

  test('a chunk that does not fit answers 507 and leaves nothing under its name; stored chunks are exact', async (t) => {
    if (!fx.mount) return void t.skip(fx.skip);
    const { server } = fx;
    const created = await createDirect(server.baseUrl, [3 * CHUNK]);
    const file = created.files[0]!;
    const length = encryptedLength(CHUNK);
    const answers: number[] = [];
    for (let n = 1; n <= 3; n++) {
      const res = await putChunk(chunkUrl(file.uploadUrls, n), file.uploadUrls.headers, randomBytes(length));
      answers.push(res.status);
      if (res.status !== 200) {
        assert.equal(res.status, 507, JSON.stringify(res.body));
        assert.match((res.body as { error: string }).error, /disk is full|out of storage/);
        assert.equal((res.body as { code: string }).code, 'insufficient_storage');
      }
    }
    // 12 MiB hold two chunks of 5 MiB (and the database), never three.
    assert.deepEqual(answers, [200, 200, 507]);
    const stored = await chunkFiles(server.dataDir, created.folderId, file.fileId);
    assert.deepEqual([...stored.keys()].sort(), ['00001', '00002']);
    for (const size of stored.values()) assert.equal(size, length, 'every acknowledged chunk is whole');
    assert.deepEqual(await readdir(join(server.dataDir, 'blobs', '.incoming')), []);
    const status = await fetch(`${server.baseUrl}/v2/folders/${created.folderId}/files/${file.fileId}/upload-status`);
    assert.deepEqual(await status.json(), { complete: false, missing: [3] });
  });
});

describe('free-space floor', () => {
  const fx = onTmpfs(24, 8);

  test('below DISK_FREE_MIN_MIB registrations and chunk uploads are refused with 507; above it they work', async (t) => {
    if (!fx.mount) return void t.skip(fx.skip);
    const { server, mount } = fx;
    const filler = join(mount, 'filler');
    const owner = randomBytes(32).toString('base64url');
    const register = (folderId: string) =>
      fetch(`${server.baseUrl}/api/site/folders/${folderId}/files`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-owner-token': owner },
        body: JSON.stringify({ files: [{ filename: 'f', filesize: CHUNK }], ske: 'ske' }),
      });
    const folder = await createEmpty(server.baseUrl);
    // Fill the disk to about 6 MiB free: under the floor.
    await writeFile(filler, Buffer.alloc(18 * MIB));
    const refused = await register(folder.folderId);
    assert.equal(refused.status, 507);
    const body = (await refused.json()) as { error: string; code: string };
    assert.match(body.error, /out of storage/);
    assert.equal(body.code, 'insufficient_storage');
    await rm(filler);
    const accepted = await register(folder.folderId);
    assert.equal(accepted.status, 200);
    const urls = ((await accepted.json()) as { files: Array<{ uploadUrls: Parameters<typeof chunkUrl>[0] }> }).files[0]!
      .uploadUrls;
    // About 12 MiB free: a 5 MiB chunk would leave less than 8.
    await writeFile(filler, Buffer.alloc(12 * MIB));
    const tooMuch = await putChunk(chunkUrl(urls, 1), urls.headers, randomBytes(encryptedLength(CHUNK)));
    assert.equal(tooMuch.status, 507);
    assert.equal((tooMuch.body as { code: string }).code, 'insufficient_storage');
    await rm(filler);
    const stored = await putChunk(chunkUrl(urls, 1), urls.headers, randomBytes(encryptedLength(CHUNK)));
    assert.equal(stored.status, 200);
  });
});

describe('registered bytes count against the free space', () => {
  const fx = onTmpfs(40, 8);

  test('a file larger than the free space is refused; of racing registrations only what fits passes; a deleted file gives its space back', async (t) => {
    if (!fx.mount) return void t.skip(fx.skip);
    const { server, mount } = fx;
    const owner = randomBytes(32).toString('base64url');
    const headers = { 'content-type': 'application/json', 'x-owner-token': owner };
    const register = async (folderId: string, filesize: number) => {
      const res = await fetch(`${server.baseUrl}/api/site/folders/${folderId}/files`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ files: [{ filename: 'f', filesize }], ske: 'ske' }),
      });
      return { status: res.status, body: (await res.json()) as { code?: string; files?: { fileId: string }[] } };
    };
    const usable = async () => (await statfs(mount)).bavail * (await statfs(mount)).bsize - 8 * MIB;
    // Over 30 MiB above the floor, the disk is above its floor now; a 50 MiB file still cannot fit.
    assert.ok((await usable()) > 30 * MIB);
    const big = await register((await createEmpty(server.baseUrl)).folderId, 50 * MIB);
    assert.equal(big.status, 507);
    assert.equal(big.body.code, 'insufficient_storage');
    // Eight racing registrations of 10 MiB: only as many as the space above the floor holds.
    const each = 2 * encryptedLength(CHUNK);
    const fits = Math.floor((await usable()) / each);
    assert.ok(fits >= 1 && fits < 8, `${fits} fit`);
    const folders = await Promise.all(Array.from({ length: 8 }, () => createEmpty(server.baseUrl)));
    const raced = await Promise.all(folders.map((f) => register(f.folderId, 2 * CHUNK)));
    const accepted = raced.flatMap((r, i) => (r.status === 200 ? [folders[i]!.folderId] : []));
    // The database grows a little during the race: one fewer may fit, never one more.
    assert.ok(accepted.length <= fits && accepted.length >= fits - 1, `${accepted.length} of 8 accepted, ${fits} fit`);
    assert.ok(raced.every((r) => r.status === 200 || r.body.code === 'insufficient_storage'));
    assert.equal((await register(folders[0]!.folderId, 2 * CHUNK)).status, 507, 'the space is taken');
    // The owner deletes a folder whose file was never uploaded: its reservation goes with it.
    const gone = await fetch(`${server.baseUrl}/api/site/folders/${accepted[0]}`, {
      method: 'DELETE',
      headers: { 'x-owner-token': owner },
    });
    assert.equal(gone.status, 204, await gone.text());
    const again = await register((await createEmpty(server.baseUrl)).folderId, 2 * CHUNK);
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });
});
