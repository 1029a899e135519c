import assert from 'node:assert/strict';
import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { chunkBody, chunkUrl, createDirect, createEmpty, getJson, putChunk } from '../support/api.js';
import { until } from '../support/poll.js';
import { startServer, tempDir } from '../support/server.js';

const HOUR = 3600;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Expiry on a real server: folders are created with the real clock, then the service starts again
 * on the same DATA_DIR with its clock shifted forward (CLOCK_OFFSET_SECONDS), and its start-up sweep
 * must delete exactly what is due.
 */
test('an empty ownerless folder is gone after 24 h; a fresh one and a live upload stay', {
  timeout: 60_000,
}, async () => {
  const dataDir = await tempDir();
  try {
    let srv = await startServer({ DATA_DIR: dataDir, FREE_DOWNLOAD_HOURS: '48', CHUNK_SIZE_MIB: '5' });
    const empty = await createEmpty(srv.baseUrl);
    const direct = await createDirect(srv.baseUrl, [1000, 2000]);
    const [done, pending] = direct.files;
    assert.equal(
      (await putChunk(chunkUrl(done!.uploadUrls, 1), done!.uploadUrls.headers, chunkBody(1000, done!.chunkSize, 1)))
        .status,
      200,
    );
    await srv.close();

    // 23 h later: nothing is due yet.
    srv = await startServer({ DATA_DIR: dataDir, FREE_DOWNLOAD_HOURS: '48', CLOCK_OFFSET_SECONDS: String(23 * HOUR) });
    await srv.server.services.store.getFolder(empty.folderId).then((f) => assert.ok(f, 'still there at 23 h'));
    await srv.close();

    // 25 h later: the empty folder is deleted; the direct upload lives on (files last 48 h).
    srv = await startServer({ DATA_DIR: dataDir, FREE_DOWNLOAD_HOURS: '48', CLOCK_OFFSET_SECONDS: String(25 * HOUR) });
    await until(
      'the empty folder to be swept',
      async () => (await srv.server.services.store.getFolder(empty.folderId)) === null,
    );
    assert.ok(await srv.server.services.store.getFolder(direct.folderId));
    const status = await getJson(`${srv.baseUrl}/v2/folders/${direct.folderId}/files/${done!.fileId}/upload-status`);
    assert.equal(status.status, 200);
    await srv.close();

    // 49 h later: every file has expired, so the folder goes with every byte.
    srv = await startServer({ DATA_DIR: dataDir, FREE_DOWNLOAD_HOURS: '48', CLOCK_OFFSET_SECONDS: String(49 * HOUR) });
    // The folder reads as absent from the moment its deletion begins; its bytes go right after.
    await until(
      'the expired folder to be swept',
      async () => (await srv.server.services.store.getFolder(direct.folderId)) === null,
    );
    await until(
      'no folder left due',
      async () => (await srv.server.services.store.foldersDue(Number.MAX_SAFE_INTEGER, 1000)).length === 0,
    );
    const gone = await getJson<{ error: string }>(
      `${srv.baseUrl}/v2/folders/${direct.folderId}/files/${pending!.fileId}/upload-status`,
    );
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error, 'folder not found');
    assert.equal(await exists(join(dataDir, 'blobs', direct.folderId)), false, 'bytes deleted with the folder');
    await srv.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
