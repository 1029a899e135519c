import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createResponseSchema } from '../../src/contract/schemas.js';
import { compileShapeValidator } from '../../src/contract/validation.js';
import { encryptedLength, planChunks } from '../../src/domain/chunk-plan.js';
import { newId } from '../../src/domain/ids.js';
import { MAX_FILE_SIZE } from '../../src/domain/limits.js';
import { chunkUrl, createEmpty, putChunk } from '../support/api.js';
import { type RunningServer, useServer } from '../support/server.js';

/**
 * Bounded work on a real server over real files: what one request may cost (chunk URLs
 * signed, the bucket it spends from, compression), folders with very many files (limits, O(1)
 * bookkeeping, a paged listing), and a registration that fails after the claim.
 */
const token = () => randomBytes(32).toString('base64url');
const MIB = 1024 * 1024;

interface Answer {
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON an endpoint answers, field by field
  json: any;
  status: number;
  headers: Headers;
}

async function site(
  server: RunningServer,
  method: string,
  path: string,
  opts: { owner?: string; visitor?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.owner) headers['x-owner-token'] = opts.owner;
  if (opts.visitor) headers['x-visitor-token'] = opts.visitor;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.baseUrl}/api/site${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

const files = (n: number, filesize = 1000) =>
  Array.from({ length: n }, (_, i) => ({ filename: `name-${i}`, filesize }));

describe('bounded work per request', () => {
  // The floor off: the largest creates register more than this disk holds (what is measured is their signing).
  const server = useServer({
    CHUNK_SIZE_MIB: '5',
    DISK_FREE_MIN_MIB: '0',
    RATE_LIMIT_CREATE: '1000',
    RATE_LIMIT_SITE: '1000',
  });

  test('a site registration may sign at most as many chunk URLs as the largest v2 create: 413, nothing claimed', async () => {
    const folder = await createEmpty(server.baseUrl);
    const owner = token();
    // Eleven files of the largest size: 110,000 chunk URLs, where a v2 create signs at most 100,000.
    const res = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(11, MAX_FILE_SIZE), ske: 'ske' },
    });
    assert.equal(res.status, 413, JSON.stringify(res.json));
    assert.equal(res.json.code, 'payload_too_large');
    const perFile = planChunks(MAX_FILE_SIZE, 5).chunks;
    assert.match(res.json.error, new RegExp(`${11 * perFile} chunk upload URLs.*at most 100000`));
    const info = await site(server, 'GET', `/folders/${folder.folderId}`, { owner });
    assert.equal(info.json.owned, false, 'a refused registration claims nothing');
    // Ten such files are what a create may have: accepted, every URL signed.
    const ok = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(10, MAX_FILE_SIZE), ske: 'ske' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.files.length, 10);
    for (const f of ok.json.files) assert.equal(f.uploadUrls.signatures.length, f.chunks);
  });

  test('the v2 create with ten files of the largest size is answered whole, streamed and uncompressed; a small one compressed', async () => {
    // Compressing 6.7 MB of random hex cost ~250 ms of server CPU to save half of it: not worth it.
    const body = JSON.stringify({ encryption: { ske: 'ske' }, files: files(10, MAX_FILE_SIZE) });
    for (const acceptEncoding of ['gzip', 'br, gzip', 'identity']) {
      const res = await fetch(`${server.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': acceptEncoding },
        body,
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-encoding'), null, acceptEncoding);
      const raw = Buffer.from(await res.arrayBuffer());
      // Streamed one file at a time (src/http/answers/large-json.ts): no Content-Length, the JSON arrives whole.
      assert.equal(res.headers.get('transfer-encoding'), 'chunked');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const created = JSON.parse(raw.toString());
      // Streamed without the route's schema serializer: the contract's schema still holds, no extra field.
      const checked = compileShapeValidator(createResponseSchema)(created);
      assert.ok(checked.ok, checked.ok ? '' : checked.error);
      assert.equal(created.files.length, 10);
      const perFile = planChunks(MAX_FILE_SIZE, 5).chunks;
      for (const f of created.files) {
        assert.equal(f.chunks, perFile);
        assert.equal(f.uploadUrls.signatures.length, perFile);
        assert.ok(f.uploadUrls.signatures.every((s: string) => /^[0-9a-f]{64}$/.test(s)));
      }
    }
    const small = await fetch(`${server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ encryption: { ske: 'ske' }, files: files(1, 1000 * MIB) }),
    });
    assert.equal(small.status, 200);
    assert.equal(small.headers.get('content-encoding'), 'gzip');
    assert.equal(((await small.json()) as { files: unknown[] }).files.length, 1);
  });

  test('chunk bodies are never compressed', async () => {
    const folder = await createEmpty(server.baseUrl);
    const owner = token();
    const reg = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(1, 200_000), ske: 'ske' },
    });
    const f = reg.json.files[0];
    const body = Buffer.alloc(encryptedLength(200_000), 7); // very compressible, still not compressed
    const put = await putChunk(chunkUrl(f.uploadUrls, 1), f.uploadUrls.headers, body);
    assert.equal(put.status, 200);
    const res = await fetch(`${server.baseUrl}/api/site/folders/${folder.folderId}/files/${f.fileId}/chunks/1`, {
      headers: { 'x-owner-token': owner, 'accept-encoding': 'gzip, br' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), null);
    assert.equal(Buffer.from(await res.arrayBuffer()).length, body.length);
  });

  test('upload-urls signs only the chunks not yet stored', async () => {
    const folder = await createEmpty(server.baseUrl);
    const owner = token();
    const filesize = 3 * 5 * MIB;
    const reg = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: [{ filename: 'x', filesize }], ske: 'ske' },
    });
    const f = reg.json.files[0];
    assert.equal(f.chunks, 3);
    const put = await putChunk(chunkUrl(f.uploadUrls, 2), f.uploadUrls.headers, randomBytes(encryptedLength(5 * MIB)));
    assert.equal(put.status, 200);
    const fresh = await site(server, 'POST', `/folders/${folder.folderId}/files/${f.fileId}/upload-urls`, { owner });
    assert.equal(fresh.status, 200);
    const sigs: string[] = fresh.json.uploadUrls.signatures;
    assert.equal(sigs.length, 3);
    assert.equal(sigs[1], '', 'the stored chunk is not signed again');
    assert.match(sigs[0]!, /^[0-9a-f]{64}$/);
    assert.match(sigs[2]!, /^[0-9a-f]{64}$/);
    // The fresh URLs work.
    const last = await putChunk(
      chunkUrl(fresh.json.uploadUrls, 3),
      f.uploadUrls.headers,
      randomBytes(encryptedLength(5 * MIB)),
    );
    assert.equal(last.status, 200);
  });
});

describe('registration spends from the create budget', () => {
  const server = useServer({ RATE_LIMIT_CREATE: '3', RATE_LIMIT_SITE: '1000' });

  test('site registrations and upload-urls count against RATE_LIMIT_CREATE, not RATE_LIMIT_SITE', async () => {
    const owner = token();
    const folder = await createEmpty(server.baseUrl); // 1 of 3
    const reg = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(1), ske: 'ske' },
    }); // 2 of 3
    assert.equal(reg.status, 200);
    const urls = await site(
      server,
      'POST',
      `/folders/${folder.folderId}/files/${reg.json.files[0].fileId}/upload-urls`,
      {
        owner,
      },
    ); // 3 of 3
    assert.equal(urls.status, 200);
    const refused = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(1) },
    });
    assert.equal(refused.status, 429);
    assert.equal(refused.json.code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    // The site's cheap calls still have their own budget.
    const info = await site(server, 'GET', `/folders/${folder.folderId}`, { owner });
    assert.equal(info.status, 200);
  });
});

describe('folders with many files', () => {
  const server = useServer({
    MAX_FILES_PER_FOLDER: '200000',
    RATE_LIMIT_CREATE: '1000',
    RATE_LIMIT_SITE: '1000',
    CHUNK_SIZE_MIB: '5',
  });

  test('registration and completion in a folder of 125,000 files: no per-file work, no stack overflow', async () => {
    const folder = await createEmpty(server.baseUrl);
    const owner = token();
    const first = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(1), ske: 'ske' },
    });
    assert.equal(first.status, 200);
    // Filled straight through the store (the API would take minutes): 125,000 records.
    const { store, clock } = server.server.services;
    const now = clock();
    const limits = { maxFiles: 1_000_000, maxChunks: 1_000_000_000 };
    for (let batch = 0; batch < 125; batch++) {
      const records = Array.from({ length: 1000 }, (_, i) => ({
        id: newId(),
        folderId: folder.folderId,
        filename: `bulk-${batch}-${i}`,
        mimetype: null,
        filesize: 1000,
        chunkSize: 5 * MIB,
        chunks: 1,
        createdAt: now,
        completedAt: null,
        expiresAt: now + 72 * 3_600_000,
        uploaderTag: null,
        sealedKey: null,
      }));
      assert.equal(await store.addFiles(folder.folderId, records, { limits }), 'added');
    }
    // A registration, then the completion of a file: both used to read every file of the folder and
    // take Math.max(...expiries), a RangeError past ~123,500 files.
    const reg = await site(server, 'POST', `/folders/${folder.folderId}/files`, { owner, body: { files: files(1) } });
    assert.equal(reg.status, 200, JSON.stringify(reg.json));
    const f = reg.json.files[0];
    const put = await putChunk(chunkUrl(f.uploadUrls, 1), f.uploadUrls.headers, randomBytes(encryptedLength(1000)));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const status = await fetch(`${server.baseUrl}/v2/folders/${folder.folderId}/files/${f.fileId}/upload-status`);
    assert.equal(status.status, 200);
    assert.deepEqual(await status.json(), { complete: true, missing: [] });
    const completed = await store.getFile(folder.folderId, f.fileId);
    assert.notEqual(completed!.completedAt, null);
    const record = await store.getFolder(folder.folderId);
    assert.equal(record!.deleteAfter, completed!.expiresAt, 'the folder lives until its last file expires');
    // The listing answers one page, with a cursor for the next.
    const page = await site(server, 'GET', `/folders/${folder.folderId}/files`, { owner });
    assert.equal(page.status, 200);
    assert.equal(page.json.files.length, 1000);
    assert.equal(typeof page.json.nextCursor, 'string');
  });
});

describe('folder limits and the paged listing', () => {
  const server = useServer({ MAX_FILES_PER_FOLDER: '10', RATE_LIMIT_CREATE: '1000', RATE_LIMIT_SITE: '1000' });

  test('a registration past MAX_FILES_PER_FOLDER is refused whole; the first one leaves the folder ownerless', async () => {
    const folder = await createEmpty(server.baseUrl);
    const owner = token();
    const over = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(11), ske: 'ske' },
    });
    assert.equal(over.status, 409, JSON.stringify(over.json));
    assert.equal(over.json.code, 'conflict');
    assert.match(over.json.error, /at most 10 files/);
    // The claim and the insert are one transaction: refused together.
    const info = await site(server, 'GET', `/folders/${folder.folderId}`, { owner });
    assert.equal(info.json.owned, false);
    assert.equal(info.json.isOwner, false);
    // Another browser can still claim it.
    const other = token();
    const ok = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner: other,
      body: { files: files(6), ske: 'ske' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.claimed, true);
    assert.equal(ok.json.role, 'owner');
    const more = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner: other,
      body: { files: files(5) },
    });
    assert.equal(more.status, 409);
    const fits = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner: other,
      body: { files: files(4) },
    });
    assert.equal(fits.status, 200);
  });

  test('the listing pages with a cursor; a bad cursor or limit is a 400', async () => {
    const folder = await createEmpty(server.baseUrl);
    const owner = token();
    const reg = await site(server, 'POST', `/folders/${folder.folderId}/files`, {
      owner,
      body: { files: files(7), ske: 'ske' },
    });
    const ids: string[] = reg.json.files.map((f: { fileId: string }) => f.fileId);
    const all = await site(server, 'GET', `/folders/${folder.folderId}/files`, { owner });
    assert.deepEqual(
      all.json.files.map((f: { fileId: string }) => f.fileId),
      ids,
    );
    assert.equal(all.json.nextCursor, null);
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const q: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await site(server, 'GET', `/folders/${folder.folderId}/files${q}`, { owner });
      assert.equal(page.status, 200);
      assert.ok(page.json.files.length <= 3);
      seen.push(...page.json.files.map((f: { fileId: string }) => f.fileId));
      cursor = page.json.nextCursor;
      pages++;
    }
    assert.deepEqual(seen, ids);
    assert.equal(pages, 3);
    for (const q of ['?limit=0', '?limit=1001', '?limit=x', '?limit=01', '?cursor=zzz', '?cursor=p-1']) {
      const bad = await site(server, 'GET', `/folders/${folder.folderId}/files${q}`, { owner });
      assert.equal(bad.status, 400, q);
      assert.equal(bad.json.code, 'invalid_request', q);
      assert.match(
        bad.json.error,
        q.startsWith('?limit') ? /^limit must be a whole number between 1 and 1000$/ : /^cursor is malformed/,
        q,
      );
    }
    for (const q of ['?limit=1000', '?limit=', '?cursor=']) {
      const good = await site(server, 'GET', `/folders/${folder.folderId}/files${q}`, { owner });
      assert.equal(good.status, 200, q);
    }
  });
});
