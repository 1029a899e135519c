import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sweep } from '../../src/app/sweeper.js';
import { newToken } from '../../src/domain/ids.js';
import { keyOfSecret } from '../../src/notify/signing.js';
import { chunkBody, chunkUrl, createDirect, createEmpty, postJson, putChunk } from '../support/api.js';
import { until } from '../support/poll.js';
import { type HookReceiver, startHookReceiver } from '../support/receivers.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { startPostgres, useService } from '../support/services.js';

/**
 * Operator webhooks (WEBHOOK_URL, WEBHOOK_SECRET) against real receivers on loopback that verify
 * every Standard Webhooks signature: each event reaches each endpoint, signed, without secrets or
 * titles; a failing endpoint is retried with backoff; a hanging one delays nobody; several nodes
 * deliver each event once per endpoint.
 */
const secretA = `whsec_${randomBytes(24).toString('base64')}`;
const secretB = 'a plain secret of at least thirty-two characters';
const DAY = 86_400_000;

async function download(baseUrl: string, folderId: string, fileId: string, chunk: number, headers = {}) {
  const res = await fetch(
    `${baseUrl}/api/site/folders/${folderId}/files/${fileId}/chunks/${String(chunk).padStart(5, '0')}`,
    { headers },
  );
  await res.arrayBuffer();
  return res.status;
}

/** Drives every event type once; returns what a leak check must not find in any body. */
async function everyEvent(srv: RunningServer): Promise<string[]> {
  const title = `Secret title ${randomBytes(4).toString('hex')}`;
  // folder.created (empty), then folder.claimed and file.registered by the browser that claims it.
  const empty = await createEmpty(srv.baseUrl, { title, mode: 'share' });
  const owner = newToken();
  const reg = await postJson(
    `${srv.baseUrl}/api/site/folders/${empty.folderId}/files`,
    { ske: 'ske', files: [{ filename: 'encrypted-name', filesize: 100 }] },
    { 'x-owner-token': owner },
  );
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  // folder.created (direct) + file.registered, file.completed by its chunk, file.downloaded by a visitor.
  const direct = await createDirect(srv.baseUrl, [1000], { title });
  const file = direct.files[0]!;
  const put = await putChunk(
    chunkUrl(file.uploadUrls, 1),
    { 'content-type': 'application/octet-stream' },
    chunkBody(1000, file.chunkSize, 1),
  );
  assert.equal(put.status, 200);
  assert.equal(await download(srv.baseUrl, direct.folderId, file.fileId, 1), 200);
  // folder.expired: the sweeper, a year from now.
  const result = await sweep({ ...srv.server.services, clock: () => Date.now() + 400 * DAY });
  assert.ok(result.foldersDeleted >= 2);
  return [title, direct.uploadAuth, owner, empty.folderUrl.split('#')[1]!];
}

const EXPECTED = [
  'file.completed',
  'file.downloaded',
  'file.registered',
  'file.registered',
  'folder.claimed',
  'folder.created',
  'folder.created',
  'folder.expired',
  'folder.expired',
];

let a: HookReceiver;
let b: HookReceiver;
before(async () => {
  a = await startHookReceiver(keyOfSecret(secretA));
  b = await startHookReceiver(keyOfSecret(secretB));
});
after(async () => {
  await a.close();
  await b.close();
});

test('every event reaches every endpoint once, signed, with ids and sizes and no secret or title', async () => {
  a.received.length = 0;
  b.received.length = 0;
  const srv = await startServer({ WEBHOOK_URL: `${a.url},${b.url}`, WEBHOOK_SECRET: `${secretA},${secretB}` });
  try {
    const secrets = await everyEvent(srv);
    for (const r of [a, b]) {
      await until('every event at both receivers', () => r.accepted().length >= EXPECTED.length);
      assert.deepEqual(
        r
          .accepted()
          .map((h) => h.json.type)
          .sort(),
        EXPECTED,
      );
      assert.ok(
        r.received.every((h) => h.valid),
        'every request carries a valid signature',
      );
      for (const h of r.received) {
        for (const s of secrets) assert.ok(!h.body.includes(s), `${h.json.type} body leaks ${s.slice(0, 12)}…`);
        assert.match(String(h.headers['webhook-id']), /^msg_[A-Za-z0-9_-]+$/);
        assert.equal(h.headers['content-type'], 'application/json');
        assert.match(h.json.timestamp, /^\d{4}-\d\d-\d\dT/);
        assert.equal(typeof h.json.data.folderId, 'string');
      }
    }
    // The same event has the same id (and body) at both endpoints; ids differ between events.
    const idsA = a.accepted().map((h) => h.headers['webhook-id']);
    const idsB = b.accepted().map((h) => h.headers['webhook-id']);
    assert.deepEqual([...idsA].sort(), [...idsB].sort());
    assert.equal(new Set(idsA).size, EXPECTED.length);
    const completed = a.accepted().find((h) => h.json.type === 'file.completed')!.json.data;
    assert.deepEqual(Object.keys(completed).sort(), ['by', 'chunks', 'fileId', 'folderId', 'mode', 'size']);
    assert.equal(completed.size, 1000);
    assert.equal(completed.by, 'owner');
    const downloaded = a.accepted().find((h) => h.json.type === 'file.downloaded')!.json.data;
    assert.equal(downloaded.by, 'visitor');
    const created = a
      .accepted()
      .filter((h) => h.json.type === 'folder.created')
      .map((h) => h.json.data.flow);
    assert.deepEqual(created.sort(), ['direct', 'empty']);
    // The receiver has answered; the sender counts the delivery once it has recorded it.
    await until('18 deliveries counted', async () =>
      /webfolder_notifications_delivered_total\{target="webhook"\} 18\b/.test(await srv.server.metrics.text()),
    );
  } finally {
    await srv.close();
  }
});

test('a download through a ticket is reported once, with its count; a refused ticket reports nothing', async () => {
  a.received.length = 0;
  const srv = await startServer({ WEBHOOK_URL: a.url, WEBHOOK_SECRET: secretA });
  try {
    const direct = await createDirect(srv.baseUrl, [1000]);
    const file = direct.files[0]!;
    const put = await putChunk(
      chunkUrl(file.uploadUrls, 1),
      file.uploadUrls.headers,
      chunkBody(1000, file.chunkSize, 1),
    );
    assert.equal(put.status, 200);
    const site = `${srv.baseUrl}/api/site/folders/${direct.folderId}/files/${file.fileId}`;
    const limited = await fetch(site, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-upload-auth': direct.uploadAuth },
      body: JSON.stringify({ maxDownloads: 1 }),
    });
    assert.equal(limited.status, 200, await limited.text());
    const start = () => fetch(`${site}/downloads`, { method: 'POST' });
    const first = await start();
    assert.equal(first.status, 200);
    const { ticket } = (await first.json()) as { ticket: string };
    // Its chunks, fetched with the ticket (twice: a resumed download), add no event.
    for (let i = 0; i < 2; i++)
      assert.equal(await download(srv.baseUrl, direct.folderId, file.fileId, 1, { 'x-download-ticket': ticket }), 200);
    assert.equal((await start()).status, 410, 'the limit is reached');
    // Every event recorded so far delivered: the outbox is empty (a row goes once its receiver answered).
    await until('the outbox to be delivered', async () => {
      const text = await srv.server.metrics.text();
      return (
        a.accepted().some((h) => h.json.type === 'file.downloaded') && /webfolder_notifications_pending 0\b/.test(text)
      );
    });
    const downloads = a.accepted().filter((h) => h.json.type === 'file.downloaded');
    assert.equal(downloads.length, 1, 'one download, reported when its ticket was counted');
    assert.deepEqual([downloads[0]!.json.data.fileId, downloads[0]!.json.data.by], [file.fileId, 'visitor']);
  } finally {
    await srv.close();
  }
});

test('titles are sent only when the operator opts in', async () => {
  a.received.length = 0;
  const srv = await startServer({ WEBHOOK_URL: a.url, WEBHOOK_SECRET: secretA, WEBHOOK_INCLUDE_TITLES: 'true' });
  try {
    await createEmpty(srv.baseUrl, { title: 'Holiday photos' });
    const hook = await until('the event', () => a.accepted()[0]);
    assert.equal(hook.json.data.title, 'Holiday photos');
  } finally {
    await srv.close();
  }
});

test('a failing endpoint is retried with backoff until it accepts; same id and body each time', async () => {
  a.received.length = 0;
  a.failFirst(2);
  const srv = await startServer({ WEBHOOK_URL: a.url, WEBHOOK_SECRET: secretA, WEBHOOK_RETRY_BASE_SECONDS: '1' });
  try {
    const folder = await createEmpty(srv.baseUrl);
    await until('the delivery to succeed', () => a.accepted().length === 1);
    assert.deepEqual(
      a.received.map((h) => h.answered),
      [500, 500, 200],
    );
    assert.equal(new Set(a.received.map((h) => h.headers['webhook-id'])).size, 1);
    assert.equal(new Set(a.received.map((h) => h.body)).size, 1);
    assert.equal(a.accepted()[0]!.json.data.folderId, folder.folderId);
    // The signature is made per attempt (fresh timestamp) and is valid each time.
    assert.ok(a.received.every((h) => h.valid));
    // The outbox gauges are store readings the metrics cache for a moment, so the pending count may
    // trail the delivery counter: wait for both.
    const metrics = await until('the delivery counted and the outbox empty', async () => {
      const text = await srv.server.metrics.text();
      return (
        /webfolder_notifications_delivered_total\{target="webhook"\} 1\b/.test(text) &&
        /webfolder_notifications_pending 0\b/.test(text) &&
        text
      );
    });
    assert.match(metrics, /webfolder_notification_failures_total\{target="webhook",final="false"\} 2\b/);
  } finally {
    a.failFirst(0);
    await srv.close();
  }
});

test('an endpoint that never answers delays no request and no other endpoint; it is given up after its attempts', async () => {
  a.received.length = 0;
  b.received.length = 0;
  a.hang(true);
  const srv = await startServer({
    WEBHOOK_URL: `${a.url},${b.url}`,
    WEBHOOK_SECRET: `${secretA},${secretB}`,
    WEBHOOK_TIMEOUT_SECONDS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: '1',
    WEBHOOK_MAX_ATTEMPTS: '2',
  });
  try {
    for (let i = 0; i < 5; i++) assert.equal((await postJson(`${srv.baseUrl}/v2/folders`)).status, 200);
    await until('the healthy endpoint to get all five', () => b.accepted().length === 5);
    const failed = await until('the hanging endpoint to be given up', async () => {
      const text = await srv.server.metrics.text();
      return /webfolder_notifications_failed 5\b/.test(text) && text;
    });
    assert.match(failed, /webfolder_notification_failures_total\{target="webhook",final="true"\} 5\b/);
  } finally {
    a.hang(false);
    await srv.close();
  }
});

async function multiNode(env: Record<string, string>, receiver: HookReceiver) {
  receiver.received.length = 0;
  const common = { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secretA, ...env };
  const one = await startServer(common);
  const two = await startServer(common);
  try {
    const folders = await Promise.all(
      Array.from({ length: 30 }, (_, i) => createEmpty((i % 2 ? one : two).baseUrl).then((f) => f.folderId)),
    );
    await until('all 30 events', () => receiver.accepted().length >= 30);
    // Give both loops a further round to deliver anything twice: each polls every second.
    await Promise.all([one.server.notifier.deliverDue(), two.server.notifier.deliverDue()]);
    const ids = receiver.received.map((h) => h.headers['webhook-id']);
    assert.equal(ids.length, 30, 'each event delivered once, not once per node');
    assert.equal(new Set(ids).size, 30);
    assert.deepEqual(receiver.received.map((h) => h.json.data.folderId).sort(), [...folders].sort());
  } finally {
    await one.close();
    await two.close();
  }
}

test('two nodes on one SQLite file deliver each event once per endpoint', async () => {
  const dir = await tempDir();
  await multiNode({ DATA_DIR: dir }, a);
});

const postgres = useService(startPostgres);

test('two nodes on one PostgreSQL database deliver each event once per endpoint', async (t) => {
  const pg = postgres.service;
  if (!pg) return void t.skip(postgres.skip);
  const dir = await tempDir();
  await multiNode({ DATABASE_URL: await pg.freshDatabase(), DATA_DIR: dir }, a);
});
