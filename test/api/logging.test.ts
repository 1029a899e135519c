import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { test } from 'node:test';
import { chunkBody, chunkUrl, createDirect, createEmpty, getJson, putChunk } from '../support/api.js';
import { spawnServer, tempDir } from '../support/server.js';

test('logs never contain the fragment secret, uploadAuth or chunk signatures', { timeout: 60_000 }, async () => {
  const dataDir = await tempDir();
  const node = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
  try {
    const empty = await createEmpty(node.baseUrl);
    const secret = empty.folderUrl.split('#')[1]!;
    const direct = await createDirect(node.baseUrl, [10]);
    const file = direct.files[0]!;
    const url = chunkUrl(file.uploadUrls, 1);
    assert.equal((await putChunk(url, file.uploadUrls.headers, chunkBody(10, file.chunkSize, 1))).status, 200);
    assert.equal((await putChunk(url, file.uploadUrls.headers, chunkBody(10, file.chunkSize, 1))).status, 409);
    assert.equal(
      (
        await getJson(
          `${node.baseUrl}/v2/folders/${direct.folderId}/files/${file.fileId}/upload-status?uploadAuth=${direct.uploadAuth}`,
        )
      ).status,
      200,
    );
    assert.equal(
      (
        await getJson(
          `${node.baseUrl}/v2/folders/${direct.folderId}/files/${file.fileId}/upload-status?uploadAuth=${direct.uploadAuth}x`,
        )
      ).status,
      404,
    );
    await node.stop();
    const log = node.output();
    assert.match(log, /upload-status\?uploadAuth=\[redacted\]/, 'requests are logged, with the token redacted');
    for (const secretValue of [secret, direct.uploadAuth, file.uploadUrls.signatures[0]!])
      assert.equal(log.includes(secretValue), false, `log leaks ${secretValue.slice(0, 6)}…`);
  } finally {
    await node.kill().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  }
});
