import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSION } from '../../src/ops/version.js';
import { chunkBody, chunkUrl, createDirect, postJson, putChunk } from '../support/api.js';
import { freePort, startServer } from '../support/server.js';

/** /healthz, /readyz and /metrics on a real server. */

test('healthz and readyz answer 200 with each check named, and are not rate-limited', async () => {
  const srv = await startServer({ RATE_LIMIT_SITE: '1', RATE_LIMIT_STATUS: '1', RATE_LIMIT_CREATE: '1' });
  try {
    for (let i = 0; i < 30; i++) {
      const health = await fetch(`${srv.baseUrl}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
    }
    const ready = await fetch(`${srv.baseUrl}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', checks: { store: 'ok', blobs: 'ok' } });
    assert.equal(ready.headers.get('cache-control'), 'no-store');
  } finally {
    await srv.close();
  }
});

test('readyz stays 200 and names Redis as down when the configured Redis is down; healthz stays 200', async () => {
  // Redis holds only rate-limit counters, which fail open: every node still serves correctly, and a
  // load balancer must not drop them all over it.
  const port = await freePort(); // nothing listens there
  const srv = await startServer({ REDIS_URL: `redis://127.0.0.1:${port}` });
  try {
    const ready = await fetch(`${srv.baseUrl}/readyz`);
    assert.equal(ready.status, 200);
    const body = (await ready.json()) as { status: string; checks: Record<string, string> };
    assert.equal(body.status, 'ready');
    assert.equal(body.checks.store, 'ok');
    assert.equal(body.checks.blobs, 'ok');
    assert.match(body.checks.redis!, /^down: /);
    assert.equal((await fetch(`${srv.baseUrl}/healthz`)).status, 200);
  } finally {
    await srv.close();
  }
});

const TOKEN = 'metrics-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

test('metrics count requests by family and status, creates, registrations, chunk bytes, latency and 429s', async () => {
  const srv = await startServer({ RATE_LIMIT_STATUS: '2', METRICS_TOKEN: TOKEN });
  try {
    const created = await createDirect(srv.baseUrl, [1000, 2000]);
    const file = created.files[0]!;
    const body = chunkBody(1000, file.chunkSize, 1);
    assert.equal((await putChunk(chunkUrl(file.uploadUrls, 1), {}, body)).status, 200);
    await postJson(`${srv.baseUrl}/v2/folders`);
    const status = `${srv.baseUrl}/v2/folders/${created.folderId}/files/${file.fileId}/upload-status`;
    for (let i = 0; i < 3; i++) await fetch(status);
    const res = await fetch(`${srv.baseUrl}/metrics`, { headers: bearer });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const has = (re: RegExp) => assert.match(text, re);
    has(/webfolder_http_requests_total\{family="create",status="200"\} 2\b/);
    has(/webfolder_http_requests_total\{family="chunk_upload",status="200"\} 1\b/);
    has(/webfolder_http_requests_total\{family="upload_status",status="429"\} 1\b/);
    has(/webfolder_rate_limited_total\{family="upload_status"\} 1\b/);
    has(/webfolder_folders_created_total\{flow="direct"\} 1\b/);
    has(/webfolder_folders_created_total\{flow="empty"\} 1\b/);
    has(/webfolder_files_registered_total 2\b/);
    has(/webfolder_files_completed_total 1\b/);
    has(new RegExp(`webfolder_chunk_bytes_received_total ${body.length}\\b`));
    has(/webfolder_chunk_put_duration_seconds_count 1\b/);
    has(/webfolder_chunk_uploads_in_flight 0\b/);
    has(/webfolder_stored_bytes 3000\b/);
    has(/webfolder_open_uploads 1\b/);
    has(/webfolder_folders 2\b/);
    has(/webfolder_sweeps_total \d+/);
    has(/webfolder_process_resident_memory_bytes \d+/);
    // The request-duration histogram by family, and the build's version and Node's.
    has(/webfolder_http_request_duration_seconds_bucket\{le="\+Inf",family="create"\} 2\b/);
    has(/webfolder_http_request_duration_seconds_count\{family="upload_status"\} 3\b/);
    has(
      new RegExp(
        `webfolder_build_info\\{version="${VERSION.replace(/\./g, '\\.')}",node="${process.versions.node}"\\} 1\\b`,
      ),
    );
    assert.notEqual(VERSION, 'unknown');
    // Labels carry route families, never ids from the URL.
    assert.ok(!text.includes(created.folderId));
  } finally {
    await srv.close();
  }
});

test('by default /metrics is not served at all (stored bytes, folder counts and free disk are not public)', async () => {
  const srv = await startServer();
  try {
    const res = await fetch(`${srv.baseUrl}/metrics`);
    assert.equal(res.status, 404);
    await res.arrayBuffer();
    const guessed = await fetch(`${srv.baseUrl}/metrics`, { headers: bearer });
    assert.equal(guessed.status, 404);
    await guessed.arrayBuffer();
    assert.equal((await fetch(`${srv.baseUrl}/healthz`)).status, 200);
  } finally {
    await srv.close();
  }
});

test('METRICS_TOKEN: /metrics needs the bearer token; health checks do not', async () => {
  const token = TOKEN;
  const srv = await startServer({ METRICS_TOKEN: token });
  try {
    const none = await fetch(`${srv.baseUrl}/metrics`);
    assert.equal(none.status, 401);
    assert.match(((await none.json()) as { error: string }).error, /METRICS_TOKEN/);
    const wrong = await fetch(`${srv.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}x` } });
    assert.equal(wrong.status, 401);
    await wrong.arrayBuffer();
    const right = await fetch(`${srv.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(right.status, 200);
    assert.match(await right.text(), /webfolder_http_requests_total/);
    assert.equal((await fetch(`${srv.baseUrl}/healthz`)).status, 200);
  } finally {
    await srv.close();
  }
});

test('METRICS_PORT: /metrics is served on its own port, not on the main one', async () => {
  const metricsPort = await freePort();
  const srv = await startServer({ METRICS_PORT: String(metricsPort) });
  try {
    const main = await fetch(`${srv.baseUrl}/metrics`);
    assert.equal(main.status, 404);
    await main.arrayBuffer();
    const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(own.status, 200);
    assert.match(await own.text(), /webfolder_http_requests_total/);
    const other = await fetch(`http://127.0.0.1:${metricsPort}/v2/folders`);
    assert.equal(other.status, 404);
    await other.arrayBuffer();
  } finally {
    await srv.close();
  }
});

test('METRICS_PORT listens on loopback by default, even when HOST is every interface; METRICS_HOST opens it', async () => {
  const metricsPort = await freePort();
  const srv = await startServer({ HOST: '0.0.0.0', METRICS_PORT: String(metricsPort) });
  try {
    // 127.0.0.2 is this machine too, but not the address the listener is bound to.
    await assert.rejects(fetch(`http://127.0.0.2:${metricsPort}/metrics`), 'not reachable on another address');
    assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status, 200);
  } finally {
    await srv.close();
  }
  const open = await startServer({ METRICS_PORT: String(metricsPort), METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN });
  try {
    const res = await fetch(`http://127.0.0.2:${metricsPort}/metrics`, { headers: bearer });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const none = await fetch(`http://127.0.0.2:${metricsPort}/metrics`);
    assert.equal(none.status, 401, 'the token holds on the metrics listener too');
    await none.arrayBuffer();
  } finally {
    await open.close();
  }
});
