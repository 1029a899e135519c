import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HOUR_MS } from '../../src/domain/limits.js';
import { type RunningServer, startServer } from '../support/server.js';
import { call, createOwned, PASSWORD, refused, token, uploadFile } from './owner-support.js';

/**
 * The owner's controls over a real server on loopback with the local backend: create and
 * claim, settings, limits and tickets, activity, deletions. Every refusal is a 4xx `{error, code}`
 * that changes nothing; only the owner may use a control.
 */
let server: RunningServer;
let api: string;
before(async () => {
  server = await startServer({ MAX_EXPIRES_HOURS: '48', FREE_DOWNLOAD_HOURS: '72' });
  api = `${server.baseUrl}/api/site`;
});
after(() => server.close());

const blobDir = (...parts: string[]) => join(server.dataDir, 'blobs', ...parts);

describe('create and claim in one step', () => {
  test('the folder is owned from the start, with its settings; visitors see them but are not owners', async () => {
    const owner = token();
    const before = Date.now();
    const created = await createOwned(api, owner, {
      mode: 'send',
      title: 'Holiday photos',
      expiresInHours: 24,
      maxDownloads: 3,
      note: 'ZW5jcnlwdGVkIG5vdGU',
      password: PASSWORD,
    });
    assert.equal(created.folderUrl, `${server.baseUrl}/f/${created.folderId}`);
    assert.ok(!created.folderUrl.includes('#'));
    const info = await call(api, 'GET', `/folders/${created.folderId}`, { owner });
    assert.equal(info.status, 200);
    assert.equal(info.json.isOwner, true);
    assert.equal(info.json.owned, true);
    assert.equal(info.json.createdBy, 'site');
    assert.equal(info.json.title, 'Holiday photos');
    assert.equal(info.json.ske, 'c2tlLWNoZWNr');
    assert.equal(info.json.maxDownloads, 3);
    assert.equal(info.json.note, 'ZW5jcnlwdGVkIG5vdGU');
    assert.deepEqual(info.json.password, PASSWORD);
    assert.equal(info.json.maxExpiresInHours, 48);
    assert.equal(info.json.fileCount, 0);
    assert.equal(info.json.totalSize, 0);
    assert.ok(info.json.expiresAt >= before + 24 * HOUR_MS && info.json.expiresAt <= Date.now() + 24 * HOUR_MS);
    // An empty folder still has its upload deadline: the chosen 24 h here, never more than 24 h.
    assert.equal(created.uploadDeadline, info.json.uploadDeadline);
    assert.ok(created.uploadDeadline <= Date.now() + 24 * HOUR_MS);
    const visitor = await call(api, 'GET', `/folders/${created.folderId}`, { visitor: token() });
    assert.equal(visitor.json.isOwner, false);
    assert.equal(visitor.json.owned, true);
    assert.deepEqual(visitor.json.password, PASSWORD);
    // Nobody else can claim it by uploading first.
    const other = token();
    const reg = await call(api, 'POST', `/folders/${created.folderId}/files`, {
      owner: other,
      body: { files: [{ filename: 'eA', filesize: 10 }], ske: 'b3RoZXI' },
    });
    refused(reg, 403, 'forbidden', 'another browser uploading to a send folder');
  });

  test('a request folder publishes its key at creation, so its first visitor can upload sealed', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner, { mode: 'request', ownerPublicKey: 'cHVibGljLWtleQ' });
    const info = await call(api, 'GET', `/folders/${folderId}`, { visitor: token() });
    assert.equal(info.json.ownerPublicKey, 'cHVibGljLWtleQ');
    assert.equal(info.json.rights.upload, true);
    const reg = await call(api, 'POST', `/folders/${folderId}/files`, {
      visitor: token(),
      body: { files: [{ filename: 'eA', filesize: 10, sealedKey: 'c2VhbGVk' }] },
    });
    assert.equal(reg.status, 200, reg.text);
    assert.equal(reg.json.role, 'visitor');
  });

  test('an API-made folder says createdBy "api" and is not owned until its first upload', async () => {
    const res = await fetch(`${server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"mode":"share"}',
    });
    const { folderId } = (await res.json()) as { folderId: string };
    const info = await call(api, 'GET', `/folders/${folderId}`);
    assert.equal(info.json.createdBy, 'api');
    assert.equal(info.json.owned, false);
    assert.equal(info.json.expiresAt, null);
    assert.equal(info.json.password, null);
  });

  test('bad requests are refused with 400 and create nothing', async () => {
    const count = async () => (await server.server.services.store.byteCounts.usage()).folders;
    const start = await count();
    const owner = token();
    const post = (body: unknown, who: { owner?: string } = { owner }) =>
      call(api, 'POST', '/folders', { ...who, body });
    const base = { mode: 'share', ske: 'c2tl' };
    refused(await post(base, {}), 400, 'invalid_request', 'no X-Owner-Token');
    refused(await post({ mode: 'request', ske: 'c2tl' }), 400, 'invalid_request', 'request without ownerPublicKey');
    refused(await post({ ...base, ownerPublicKey: 'cGs' }), 400, 'invalid_request', 'ownerPublicKey outside request');
    refused(
      await post({ mode: 'request', ske: 'c2tl', ownerPublicKey: 'cGs', password: PASSWORD }),
      400,
      'invalid_request',
      'a password in request mode',
    );
    refused(await post({ ...base, expiresInHours: 49 }), 400, 'invalid_request', 'past MAX_EXPIRES_HOURS');
    refused(await post({ ...base, expiresInHours: 0 }), 400, 'invalid_request', 'zero hours');
    refused(await post({ ...base, expiresInHours: 1.5 }), 400, 'invalid_request', 'a fraction of an hour');
    refused(await post({ ...base, maxDownloads: 0 }), 400, 'invalid_request', 'a limit of 0');
    refused(await post({ ...base, maxDownloads: 1_000_001 }), 400, 'invalid_request', 'a limit too large');
    refused(await post({ ...base, note: 'x'.repeat(4001) }), 400, 'invalid_request', 'a note too long');
    refused(await post({ ...base, password: { ...PASSWORD, N: 100000 } }), 400, 'invalid_request', 'N not 2^k');
    refused(await post({ ...base, password: { ...PASSWORD, N: 2 ** 21 } }), 400, 'invalid_request', 'N too large');
    refused(await post({ ...base, password: { ...PASSWORD, r: 17 } }), 400, 'invalid_request', 'r too large');
    refused(await post({ ...base, password: { ...PASSWORD, p: 5 } }), 400, 'invalid_request', 'p too large');
    refused(await post({ ...base, password: { ...PASSWORD, salt: 'c2FsdA' } }), 400, 'invalid_request', 'short salt');
    refused(await post({ ...base, password: { ...PASSWORD, kdf: 'argon2' } }), 400, 'invalid_request', 'other kdf');
    refused(await post({ ...base, password: { ...PASSWORD, extra: 1 } }), 400, 'invalid_request', 'extra field');
    refused(await post({ ...base, mode: 'drop' }), 400, 'invalid_request', 'unknown mode');
    refused(await post({ mode: 'share' }), 400, 'invalid_request', 'no ske');
    refused(await post({ ...base, admin: true }), 400, 'invalid_request', 'an unknown field');
    refused(await call(api, 'POST', '/folders', { owner, rawBody: '{"mode":' }), 400, 'invalid_json', 'bad JSON');
    const named = await post({ ...base, expiresInHours: 49 });
    assert.match(named.json.error, /expiresInHours/);
    assert.equal(await count(), start, 'no folder was created');
  });
});

describe('folder settings', () => {
  test('expiry: every file takes the chosen one, later files too; bounds are enforced and change nothing', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    const a = await uploadFile(api, folderId, { owner });
    const now = Date.now();
    const chosen = now + 30 * HOUR_MS;
    const patched = await call(api, 'PATCH', `/folders/${folderId}`, { owner, body: { expiresAt: chosen } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.expiresAt, chosen);
    assert.equal(patched.json.isOwner, true);
    const b = await uploadFile(api, folderId, { owner });
    const list = await call(api, 'GET', `/folders/${folderId}/files`, { owner });
    assert.deepEqual(
      list.json.files.map((f: { fileId: string; expiresAt: number }) => [f.fileId, f.expiresAt]),
      [
        [a.fileId, chosen],
        [b.fileId, chosen],
      ],
    );
    // Shortening is allowed.
    const shorter = Date.now() + HOUR_MS;
    assert.equal(
      (await call(api, 'PATCH', `/folders/${folderId}`, { owner, body: { expiresAt: shorter } })).status,
      200,
    );
    const bad = [
      [{ expiresAt: Date.now() - 1000 }, 'in the past'],
      [{ expiresAt: Date.now() + 49 * HOUR_MS }, 'past MAX_EXPIRES_HOURS'],
      [{ expiresAt: '2030-01-01' }, 'a string'],
      [{ expiresAt: 1.5e12 + 0.5 }, 'a fraction'],
      [{ maxDownloads: 0 }, 'a limit of 0'],
      [{ note: '' }, 'an empty note'],
      [{ note: 'x'.repeat(4001) }, 'a note too long'],
      [{}, 'no setting'],
      [{ title: 'x' }, 'an unknown setting'],
      [{ password: { ...PASSWORD, N: 3 } }, 'bad password parameters'],
    ] as const;
    for (const [body, what] of bad)
      refused(await call(api, 'PATCH', `/folders/${folderId}`, { owner, body }), 400, 'invalid_request', what);
    const info = await call(api, 'GET', `/folders/${folderId}`, { owner });
    assert.equal(info.json.expiresAt, shorter, 'the refused changes changed nothing');
    assert.equal(info.json.maxDownloads, null);
    assert.equal(info.json.note, null);
    assert.equal(info.json.fileCount, 2);
    assert.equal(info.json.totalSize, 2000);
  });

  test('limit and note change and clear; the password only once and before any complete file', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    const set = await call(api, 'PATCH', `/folders/${folderId}`, {
      owner,
      body: { maxDownloads: 5, note: 'bm90ZQ', password: PASSWORD },
    });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.json.maxDownloads, 5);
    assert.equal(set.json.note, 'bm90ZQ');
    assert.deepEqual(set.json.password, PASSWORD);
    refused(
      await call(api, 'PATCH', `/folders/${folderId}`, { owner, body: { password: PASSWORD } }),
      409,
      'conflict',
      'a second password',
    );
    const cleared = await call(api, 'PATCH', `/folders/${folderId}`, {
      owner,
      body: { maxDownloads: null, note: null },
    });
    assert.equal(cleared.json.maxDownloads, null);
    assert.equal(cleared.json.note, null);
    const other = await createOwned(api, owner);
    await uploadFile(api, other.folderId, { owner });
    refused(
      await call(api, 'PATCH', `/folders/${other.folderId}`, { owner, body: { password: PASSWORD, note: 'bm90ZQ' } }),
      409,
      'conflict',
      'a password after a complete file',
    );
    const info = await call(api, 'GET', `/folders/${other.folderId}`, { owner });
    assert.equal(info.json.password, null);
    assert.equal(info.json.note, null, 'the refused request changed nothing');
  });

  test('only the owner may change, delete, or read the activity; the creator of a direct upload is an owner', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    const { fileId } = await uploadFile(api, folderId, { owner });
    const visitor = token();
    const someone = token();
    for (const who of [{ visitor }, { owner: someone }, {}]) {
      refused(
        await call(api, 'PATCH', `/folders/${folderId}`, { ...who, body: { note: 'eA' } }),
        403,
        'forbidden',
        'PATCH',
      );
      refused(
        await call(api, 'PATCH', `/folders/${folderId}/files/${fileId}`, { ...who, body: { maxDownloads: 1 } }),
        403,
        'forbidden',
        'PATCH file',
      );
      refused(await call(api, 'DELETE', `/folders/${folderId}/files/${fileId}`, who), 403, 'forbidden', 'DELETE file');
      refused(await call(api, 'DELETE', `/folders/${folderId}`, who), 403, 'forbidden', 'DELETE folder');
      refused(await call(api, 'GET', `/folders/${folderId}/activity`, who), 403, 'forbidden', 'activity');
    }
    assert.ok(existsSync(blobDir(folderId, fileId)), 'the bytes are still there');
    const info = await call(api, 'GET', `/folders/${folderId}`, { owner });
    assert.equal(info.json.note, null);
    // The program that made a direct upload holds its uploadAuth: it is the folder's owner here.
    const direct = await fetch(`${server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'send', encryption: { ske: 'c2tl' }, files: [{ filename: 'eA', filesize: 10 }] }),
    });
    const created = (await direct.json()) as { folderId: string; uploadAuth: string };
    const byProgram = await call(api, 'PATCH', `/folders/${created.folderId}`, {
      uploadAuth: created.uploadAuth,
      body: { maxDownloads: 1, password: PASSWORD },
    });
    assert.equal(byProgram.status, 200, byProgram.text);
    assert.equal(byProgram.json.createdBy, 'api');
    assert.deepEqual(byProgram.json.password, PASSWORD);
    // Unknown folders and files.
    refused(
      await call(api, 'PATCH', '/folders/AAAAAAAAAAAAAAAA', { owner, body: { note: 'eA' } }),
      404,
      'not_found',
      'unknown',
    );
    refused(
      await call(api, 'DELETE', `/folders/${folderId}/files/AAAAAAAAAAAAAAAA`, { owner }),
      404,
      'not_found',
      'file',
    );
    refused(await call(api, 'DELETE', '/folders/bad', { owner }), 400, 'invalid_request', 'malformed id');
  });
});

describe('download limits and tickets', () => {
  test('a limit counts visitors’ downloads and refuses with 410 after N; the owner is never counted', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner, { maxDownloads: 2 });
    const { fileId, bytes } = await uploadFile(api, folderId, { owner });
    const start = (who: { owner?: string; visitor?: string }) =>
      call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, who);
    // Its encrypted thumbnail (an RFC 8188 header and one record), readable by visitors until the limit.
    const message = Buffer.alloc(21 + 64, 1);
    message.writeUInt32BE(65536, 16);
    message.writeUInt8(0, 20);
    const thumbnailPath = `${api}/folders/${folderId}/files/${fileId}/thumbnail`;
    const stored = await fetch(thumbnailPath, {
      method: 'PUT',
      headers: { 'x-owner-token': owner, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(message),
    });
    assert.equal(stored.status, 204, await stored.text());
    const thumbnail = (who: { owner?: string }) =>
      call(api, 'GET', `/folders/${folderId}/files/${fileId}/thumbnail`, who);
    assert.equal((await thumbnail({})).status, 200, 'a visitor sees the thumbnail before the limit');
    const mine = await start({ owner });
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.json.downloads, 0, "the owner's own download is not counted");
    const first = await start({ visitor: token() });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([first.json.downloads, first.json.maxDownloads], [1, 2]);
    assert.ok(first.json.expiresAt > Date.now() + 23 * HOUR_MS);
    const second = await start({});
    assert.equal(second.json.downloads, 2);
    refused(await start({ visitor: token() }), 410, 'download_limit_reached', 'the third download');
    refused(await start({}), 410, 'download_limit_reached', 'the fourth');
    // The thumbnail, a small copy of the content, goes with the file; the owner still sees it.
    refused(await thumbnail({}), 410, 'download_limit_reached', 'the thumbnail after the limit');
    assert.equal((await thumbnail({ owner })).status, 200, 'the owner sees the thumbnail');
    const list = await call(api, 'GET', `/folders/${folderId}/files`, { visitor: token() });
    assert.deepEqual([list.json.files[0].downloads, list.json.files[0].downloadsLeft], [2, 0]);
    assert.equal((await start({ owner })).status, 200, 'the owner still downloads');
    // A ticket given before the limit was reached still opens the chunks (a resumed download).
    const chunk = (opts: { ticket?: string; owner?: string }, query = '') =>
      call(api, 'GET', `/folders/${folderId}/files/${fileId}/chunks/1${query}`, opts);
    const got = await fetch(`${api}/folders/${folderId}/files/${fileId}/chunks/1`, {
      headers: { 'x-download-ticket': first.json.ticket },
    });
    assert.equal(got.status, 200);
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(bytes));
    assert.equal((await chunk({}, `?ticket=${encodeURIComponent(second.json.ticket)}`)).status, 200, '?ticket=');
    assert.equal((await chunk({ owner })).status, 200, 'the owner needs no ticket');
    refused(await chunk({}), 403, 'download_ticket_required', 'no ticket');
    const [expiry, download, mac] = (first.json.ticket as string).split('.') as [string, string, string];
    const forged = `${Number(expiry) + 1}.${download}.${mac}`;
    refused(await chunk({ ticket: forged }), 403, 'download_ticket_required', 'a ticket with a moved expiry');
    refused(
      await chunk({ ticket: `${expiry}.${download}.${'A'.repeat(43)}` }),
      403,
      'download_ticket_required',
      'a forged MAC',
    );
    refused(await chunk({ ticket: `${expiry}.${mac}` }), 403, 'download_ticket_required', 'a ticket of the old form');
    refused(await chunk({ ticket: 'nonsense' }), 403, 'download_ticket_required', 'garbage');
    // A ticket of another file does not open this one.
    const other = await uploadFile(api, folderId, { owner });
    const otherTicket = await call(api, 'POST', `/folders/${folderId}/files/${other.fileId}/downloads`, {});
    refused(await chunk({ ticket: otherTicket.json.ticket }), 403, 'download_ticket_required', "another file's ticket");
  });

  test('a used-up ticket opens nothing more: after the counted download took the file, 20 fetches by others with its ticket are refused', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner, { maxDownloads: 1 });
    const size = 3 * 1024 * 1024; // one chunk, larger than the retry allowance
    const { fileId, bytes } = await uploadFile(api, folderId, { owner }, size);
    const started = await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, { visitor: token() });
    assert.equal(started.status, 200, started.text);
    assert.equal(started.json.downloads, 1);
    const ticket = started.json.ticket as string;
    const url = `${api}/folders/${folderId}/files/${fileId}/chunks/1`;
    // The counted download goes on: a part (a seek, or the start of a download that broke), then all.
    const part = await fetch(url, { headers: { 'x-download-ticket': ticket, range: 'bytes=0-524287' } });
    assert.equal(part.status, 206);
    assert.ok(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 524288)));
    const whole = await fetch(`${url}?ticket=${encodeURIComponent(ticket)}`);
    assert.equal(whole.status, 200);
    assert.ok(Buffer.from(await whole.arrayBuffer()).equals(bytes));
    // The file went out in full: others holding the same ticket get nothing, as header or in the URL.
    const others = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? call(api, 'GET', `/folders/${folderId}/files/${fileId}/chunks/1`, { ticket, visitor: token() })
          : call(api, 'GET', `/folders/${folderId}/files/${fileId}/chunks/1?ticket=${encodeURIComponent(ticket)}`, {}),
      ),
    );
    for (const other of others) refused(other, 403, 'download_ticket_required', 'a fetch after the download');
    assert.match(others[0]!.json.error, /received the whole file already/);
    refused(
      await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, { visitor: token() }),
      410,
      'download_limit_reached',
      'a new download',
    );
    assert.equal((await call(api, 'GET', `/folders/${folderId}/files/${fileId}/chunks/1`, { owner })).status, 200);
  });

  test("a file's own limit wins over the folder's; files without a limit need no ticket", async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    const { fileId } = await uploadFile(api, folderId, { owner });
    const free = await call(api, 'GET', `/folders/${folderId}/files/${fileId}/chunks/1`, {});
    assert.equal(free.status, 200, 'no limit: no ticket needed');
    const counted = await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, {});
    assert.deepEqual([counted.json.downloads, counted.json.maxDownloads], [1, null]);
    const own = await call(api, 'PATCH', `/folders/${folderId}/files/${fileId}`, { owner, body: { maxDownloads: 1 } });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual([own.json.maxDownloads, own.json.downloads, own.json.downloadsLeft], [1, 1, 0]);
    refused(
      await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, {}),
      410,
      'download_limit_reached',
      'own limit',
    );
    refused(
      await call(api, 'GET', `/folders/${folderId}/files/${fileId}/chunks/1`, {}),
      403,
      'download_ticket_required',
      'limited',
    );
    // The folder's limit applies once the file's own is cleared; raising it lets downloads go on.
    await call(api, 'PATCH', `/folders/${folderId}`, { owner, body: { maxDownloads: 3 } });
    const back = await call(api, 'PATCH', `/folders/${folderId}/files/${fileId}`, {
      owner,
      body: { maxDownloads: null },
    });
    assert.deepEqual([back.json.maxDownloads, back.json.downloadsLeft], [null, 2]);
    assert.equal((await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, {})).json.downloads, 2);
    for (const body of [{ maxDownloads: 0 }, { maxDownloads: 'one' }, {}, { maxDownloads: 1, extra: 1 }])
      refused(
        await call(api, 'PATCH', `/folders/${folderId}/files/${fileId}`, { owner, body }),
        400,
        'invalid_request',
        JSON.stringify(body),
      );
    const list = await call(api, 'GET', `/folders/${folderId}/files`, { owner });
    assert.equal(list.json.files[0].maxDownloads, null, 'the refused changes changed nothing');
  });

  test('concurrent downloads of a one-time file: exactly one is counted', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner, { maxDownloads: 1 });
    const { fileId } = await uploadFile(api, folderId, { owner });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, {})),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 410, 410, 410, 410, 410, 410, 410]);
  });

  test('request mode: only the owner may start a download', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner, { mode: 'request', ownerPublicKey: 'cGs' });
    const { fileId } = await uploadFile(api, folderId, { owner });
    refused(
      await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, { visitor: token() }),
      403,
      'forbidden',
      'a visitor of a request folder',
    );
    assert.equal((await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, { owner })).status, 200);
  });
});

describe('activity and deletion', () => {
  test('activity lists uploads, counted downloads and deletions, newest first, without addresses by default', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    const a = await uploadFile(api, folderId, { owner });
    const b = await uploadFile(api, folderId, { owner });
    await call(api, 'POST', `/folders/${folderId}/files/${a.fileId}/downloads`, { visitor: token() });
    await call(api, 'POST', `/folders/${folderId}/files/${a.fileId}/downloads`, { owner });
    const del = await call(api, 'DELETE', `/folders/${folderId}/files/${b.fileId}`, { owner });
    assert.equal(del.status, 204, del.text);
    const activity = await call(api, 'GET', `/folders/${folderId}/activity`, { owner });
    assert.equal(activity.status, 200);
    assert.deepEqual(
      activity.json.events.map((e: { kind: string; fileId: string; ip: null }) => [e.kind, e.fileId, e.ip]),
      [
        ['delete', b.fileId, null],
        ['download', a.fileId, null],
        ['upload', b.fileId, null],
        ['upload', a.fileId, null],
      ],
    );
    const times = activity.json.events.map((e: { at: number }) => e.at);
    assert.deepEqual(
      times,
      [...times].sort((x, y) => y - x),
    );
  });

  test('deleting a file: 204 once its bytes are gone; it reads as not found after', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    const a = await uploadFile(api, folderId, { owner });
    const b = await uploadFile(api, folderId, { owner });
    assert.ok(existsSync(blobDir(folderId, a.fileId)));
    assert.equal((await call(api, 'DELETE', `/folders/${folderId}/files/${a.fileId}`, { owner })).status, 204);
    assert.equal(existsSync(blobDir(folderId, a.fileId)), false, 'its directory is gone when the call returns');
    assert.ok(existsSync(blobDir(folderId, b.fileId)), 'the other file stays');
    refused(
      await call(api, 'GET', `/folders/${folderId}/files/${a.fileId}/chunks/1`, { owner }),
      404,
      'not_found',
      'chunk',
    );
    refused(await call(api, 'DELETE', `/folders/${folderId}/files/${a.fileId}`, { owner }), 404, 'not_found', 'twice');
    const info = await call(api, 'GET', `/folders/${folderId}`, { owner });
    assert.deepEqual([info.json.fileCount, info.json.totalSize], [1, 1000]);
  });

  test('deleting the folder: 204 once every byte, its notifications and activity are gone; 404 after', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    await uploadFile(api, folderId, { owner });
    await uploadFile(api, folderId, { owner });
    const notify = await call(api, 'PUT', `/folders/${folderId}/notifications`, {
      owner,
      body: { webhookUrl: 'https://hooks.example.com/in', onDownload: true },
    });
    assert.equal(notify.status, 200, notify.text);
    const { store } = server.server.services;
    assert.ok(await store.notificationSettings.getFolderNotifications(folderId));
    assert.equal((await call(api, 'DELETE', `/folders/${folderId}`, { owner })).status, 204);
    assert.equal(existsSync(blobDir(folderId)), false, 'no byte is left');
    refused(await call(api, 'GET', `/folders/${folderId}`, { owner }), 404, 'not_found', 'the folder after');
    assert.equal(await store.notificationSettings.getFolderNotifications(folderId), null);
    assert.deepEqual(await store.listActivity(folderId, 1000), []);
    assert.equal(await store.getFolder(folderId), null);
    refused(await call(api, 'DELETE', `/folders/${folderId}`, { owner }), 404, 'not_found', 'twice');
  });
});

describe('ACTIVITY_IPS', () => {
  test('when the operator turns it on, downloads carry the client address', async () => {
    const withIps = await startServer({ ACTIVITY_IPS: 'true' });
    try {
      const api2 = `${withIps.baseUrl}/api/site`;
      const owner = token();
      const { folderId } = await createOwned(api2, owner);
      const { fileId } = await uploadFile(api2, folderId, { owner });
      await call(api2, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, {});
      const activity = await call(api2, 'GET', `/folders/${folderId}/activity`, { owner });
      assert.equal(activity.json.events[0].kind, 'download');
      assert.equal(activity.json.events[0].ip, '127.0.0.1');
    } finally {
      await withIps.close();
    }
  });
});
