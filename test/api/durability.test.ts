import assert from 'node:assert/strict';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { UploadStatusResponse } from '../../src/contract/types.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { chunkBody, chunkUrl, createDirect, createEmpty, getJson, putChunk, rawPut } from '../support/api.js';
import { until } from '../support/poll.js';
import { spawnServer, tempDir } from '../support/server.js';

/**
 * "Nothing that was stored is lost on a crash or a restart": the service runs as a child process,
 * is killed with SIGKILL, and a new process on the same DATA_DIR must see every folder, file and
 * fully written chunk, and report a chunk that was mid-write as missing.
 */
test('folders, files and chunks survive kill -9; a chunk cut off mid-write is missing', {
  timeout: 120_000,
}, async () => {
  const dataDir = await tempDir();
  const env = { DATA_DIR: dataDir, CHUNK_SIZE_MIB: '5', LOG_LEVEL: 'warn' };
  try {
    let node = await spawnServer(env);
    const size = 11 * MIB;
    const created = await createDirect(node.baseUrl, [size, 100]);
    const empty = await createEmpty(node.baseUrl, { mode: 'share' });
    const [big, small] = created.files;
    for (const n of [1, 3])
      assert.equal(
        (await putChunk(chunkUrl(big!.uploadUrls, n), big!.uploadUrls.headers, chunkBody(size, big!.chunkSize, n)))
          .status,
        200,
      );
    assert.equal(
      (await putChunk(chunkUrl(small!.uploadUrls, 1), small!.uploadUrls.headers, chunkBody(100, small!.chunkSize, 1)))
        .status,
      200,
    );
    // Chunk 2 is being written when the process dies: declared length sent in part, never finished.
    // The kill comes once the server has written some of those bytes into its incoming file (it
    // writes in batches), so a write is provably in flight when the process dies: the file exists
    // and has grown, and the chunk is not stored.
    const body2 = chunkBody(size, big!.chunkSize, 2);
    const sent = 3 * MIB;
    const cut = rawPut(
      chunkUrl(big!.uploadUrls, 2),
      { 'content-length': String(body2.length) },
      body2.subarray(0, sent),
      { endEarly: false },
    );
    const incoming = join(dataDir, 'blobs', '.incoming');
    const partial = await until('the incoming file of chunk 2 to grow', async () => {
      for (const name of await readdir(incoming)) {
        if (!name.startsWith(`${big!.fileId}-2-`)) continue;
        const written = await stat(join(incoming, name)).then(
          (s) => s.size,
          () => 0,
        );
        if (written > 0 && written <= sent) return name;
      }
      return undefined;
    });
    const before = await getJson<UploadStatusResponse>(
      `${node.baseUrl}/v2/folders/${created.folderId}/files/${big!.fileId}/upload-status?uploadAuth=${created.uploadAuth}`,
    );
    assert.deepEqual(before.body, { complete: false, missing: [2] }, 'chunk 2 is not stored while it is written');
    await node.kill();
    assert.equal(await cut, 'reset');
    assert.ok(
      (await readdir(incoming)).includes(partial),
      'the killed process left its partial write behind (the next start must clean it up)',
    );

    node = await spawnServer(env, node.port);
    const status = (fileId: string) =>
      getJson<UploadStatusResponse>(
        `${node.baseUrl}/v2/folders/${created.folderId}/files/${fileId}/upload-status?uploadAuth=${created.uploadAuth}`,
      );
    assert.deepEqual((await status(big!.fileId)).body, { complete: false, missing: [2] });
    assert.deepEqual((await status(small!.fileId)).body, { complete: true, missing: [] });
    assert.deepEqual(
      await readdir(join(dataDir, 'blobs', '.incoming')),
      [],
      'the interrupted write was cleaned up at start',
    );
    // The URLs handed out before the crash still work after it (the signing key persists).
    assert.equal((await putChunk(chunkUrl(big!.uploadUrls, 2), big!.uploadUrls.headers, body2)).status, 200);
    assert.deepEqual((await status(big!.fileId)).body, { complete: true, missing: [] });
    await node.kill();

    node = await spawnServer(env, node.port);
    assert.deepEqual((await status(big!.fileId)).body, { complete: true, missing: [] });
    // The empty folder survived too: its (unguessable) status path answers "file not found", not "folder not found".
    const emptyStatus = await getJson<{ error: string }>(
      `${node.baseUrl}/v2/folders/${empty.folderId}/files/AAAAAAAAAAAAAAAA/upload-status`,
    );
    assert.equal(emptyStatus.body.error, 'file not found');
    assert.equal(await node.stop(), 0, 'SIGTERM shuts down cleanly');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
