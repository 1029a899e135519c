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

test('percent-encoded parameter names and v1 apiAuth are redacted too', { timeout: 60_000 }, async () => {
  const dataDir = await tempDir();
  const node = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
  try {
    const direct = await createDirect(node.baseUrl, [10]);
    const file = direct.files[0]!;
    const status = `${node.baseUrl}/v2/folders/${direct.folderId}/files/${file.fileId}/upload-status`;
    // The server decodes `upload%41uth` to `uploadAuth` and accepts it: the token is in use.
    assert.equal((await getJson(`${status}?upload%41uth=${direct.uploadAuth}`)).status, 200);
    assert.equal((await getJson(`${status}?UPLOADAUTH=${direct.uploadAuth}`)).status, 200);
    const signature = file.uploadUrls.signatures[0]!;
    const encoded = chunkUrl(file.uploadUrls, 1).replace('X-Amz-Signature=', 'X-Amz-%53ignature=');
    assert.equal((await putChunk(encoded, file.uploadUrls.headers, chunkBody(10, file.chunkSize, 1))).status, 200);
    const v1 = `${node.baseUrl}/v1/upload/check/${file.fileId}?webfolderId=${direct.folderId}&apiAuth=${direct.uploadAuth}`;
    assert.equal((await getJson(v1)).status, 200);
    await node.stop();
    const log = node.output();
    assert.match(log, /upload%41uth=\[redacted\]/, 'the request is logged, its value redacted');
    assert.match(log, /apiAuth=\[redacted\]/);
    assert.match(log, /X-Amz-Date=\d{8}T\d{6}Z/, 'harmless parameters stay readable');
    for (const secretValue of [direct.uploadAuth, signature])
      assert.equal(log.includes(secretValue), false, `log leaks ${secretValue.slice(0, 6)}…`);
  } finally {
    await node.kill().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  }
});
