import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getJson, postJson } from '../support/api.js';
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
