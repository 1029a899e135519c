import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkBody, chunkUrl, createDirect, getJson, postJson, putChunk } from '../support/api.js';
import { startServer } from '../support/server.js';

test('past the limit a client gets 429 with Retry-After and {error}, per bucket', async () => {
  const srv = await startServer({ RATE_LIMIT_CREATE: '3', RATE_LIMIT_STATUS: '2', RATE_LIMIT_WINDOW_SECONDS: '60' });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await postJson(`${srv.baseUrl}/v2/folders`)).status, 200);
    const limited = await postJson<{ error: string }>(`${srv.baseUrl}/v2/folders`);
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(limited.body.error, /^too many requests: retry in \d+ seconds$/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    // Another bucket is counted apart.
    const statusUrl = `${srv.baseUrl}/v2/folders/AAAAAAAAAAAAAAAA/files/AAAAAAAAAAAAAAAA/upload-status`;
    assert.equal((await getJson(statusUrl)).status, 404);
    assert.equal((await getJson(statusUrl)).status, 404);
    assert.equal((await getJson(statusUrl)).status, 429);
    // Discovery documents are not limited.
    assert.equal((await getJson(`${srv.baseUrl}/openapi.json`)).status, 200);
  } finally {
    await srv.close();
  }
});

test('a bucket is one counter per client across all the routes that spend from it', async () => {
  const srv = await startServer({ RATE_LIMIT_SITE: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  try {
    const folder = (await postJson<{ folderId: string }>(`${srv.baseUrl}/v2/folders`)).body.folderId;
    const info = `${srv.baseUrl}/api/site/folders/${folder}`;
    const page = `${srv.baseUrl}/f/${folder}`;
    assert.equal((await fetch(info)).status, 200);
    assert.equal((await fetch(`${info}/files`)).status, 200);
    assert.equal((await fetch(page)).status, 200);
    for (const url of [info, `${info}/files`, page]) {
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      assert.equal(res.status, 429, url);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
    }
  } finally {
    await srv.close();
  }
});

test('chunk downloads count as chunk transfers, not against the site bucket', async () => {
  const srv = await startServer({ RATE_LIMIT_SITE: '2', RATE_LIMIT_WINDOW_SECONDS: '60' });
  try {
    const created = await createDirect(srv.baseUrl, [100]);
    const file = created.files[0]!;
    assert.equal(
      (await putChunk(chunkUrl(file.uploadUrls, 1), file.uploadUrls.headers, chunkBody(100, file.chunkSize, 1))).status,
      200,
    );
    const chunk = `${srv.baseUrl}/api/site/folders/${created.folderId}/files/${file.fileId}/chunks/00001`;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(chunk);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    const info = `${srv.baseUrl}/api/site/folders/${created.folderId}`;
    assert.equal((await fetch(info)).status, 200);
    assert.equal((await fetch(info)).status, 200);
    assert.equal((await fetch(info)).status, 429, 'the site bucket still counts the page calls');
  } finally {
    await srv.close();
  }
});
