import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { UPLOAD_PATH } from '../../src/contract/paths.js';
import type { RegisteredFile, UploadStatusResponse } from '../../src/contract/types.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { chunkBody, chunkUrl, createDirect, getJson, putChunk, rawPut } from '../support/api.js';
import { until } from '../support/poll.js';
import { useServer } from '../support/server.js';

const srv = useServer({ CHUNK_SIZE_MIB: '5' });

const statusUrl = (folderId: string, fileId: string, auth?: string) =>
  `${srv.baseUrl}/v2/folders/${folderId}/files/${fileId}/upload-status${auth === undefined ? '' : `?uploadAuth=${encodeURIComponent(auth)}`}`;
const storedChunk = (folderId: string, fileId: string, n: number) =>
  readFile(join(srv.dataDir, 'blobs', folderId, fileId, String(n).padStart(5, '0')));
const size = 12 * MIB + 12345; // 3 chunks of 5 MiB: 5, 5, 2 MiB + 12345

async function register(filesize = size): Promise<{ folderId: string; uploadAuth: string; file: RegisteredFile }> {
  const created = await createDirect(srv.baseUrl, [filesize]);
  return { folderId: created.folderId, uploadAuth: created.uploadAuth, file: created.files[0]! };
}

describe('chunk upload', () => {
  test('the local backend receives chunks: the route is registered once, for that capability', () => {
    assert.ok(srv.server.services.capabilities.chunkReceiver);
    assert.ok(srv.server.app.hasRoute({ method: 'PUT', url: `${UPLOAD_PATH}/:folderId/:fileId/:chunk` }));
  });

  test('a multi-chunk file uploaded out of order and concurrently reads back byte for byte', async () => {
    const { folderId, uploadAuth, file } = await register();
    assert.equal(file.chunks, 3);
    const bodies = [1, 2, 3].map((n) => chunkBody(size, file.chunkSize, n));
    let status = await getJson<UploadStatusResponse>(statusUrl(folderId, file.fileId, uploadAuth));
    assert.deepEqual(status.body, { complete: false, missing: [1, 2, 3] });
    // file.kiwi's clients send the first, then the last, then the rest.
    const first = await putChunk(chunkUrl(file.uploadUrls, 1), file.uploadUrls.headers, bodies[0]!);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, { chunk: 1, bytes: bodies[0]!.length, fileComplete: false });
    status = await getJson<UploadStatusResponse>(statusUrl(folderId, file.fileId, uploadAuth));
    assert.deepEqual(status.body, { complete: false, missing: [2, 3] });
    const rest = await Promise.all(
      [3, 2].map((n) => putChunk(chunkUrl(file.uploadUrls, n, n === 2), file.uploadUrls.headers, bodies[n - 1]!)),
    );
    assert.deepEqual(
      rest.map((r) => r.status),
      [200, 200],
    );
    assert.ok(
      rest.some((r) => (r.body as { fileComplete: boolean }).fileComplete),
      'the last chunk completes the file',
    );
    status = await getJson<UploadStatusResponse>(statusUrl(folderId, file.fileId, uploadAuth));
    assert.deepEqual(status.body, { complete: true, missing: [] });
    for (const n of [1, 2, 3])
      assert.ok((await storedChunk(folderId, file.fileId, n)).equals(bodies[n - 1]!), `chunk ${n}`);
    assert.deepEqual(await readdir(join(srv.dataDir, 'blobs', '.incoming')), [], 'no temporary files left');
  });

  test('a stored chunk is never replaced: the same bytes again are 200, other bytes 409 with nothing changed, before and after completion', async () => {
    const { folderId, file } = await register(6 * MIB);
    const a = chunkBody(6 * MIB, file.chunkSize, 1);
    const b = chunkBody(6 * MIB, file.chunkSize, 1);
    const put = (n: number, body: Buffer) => putChunk(chunkUrl(file.uploadUrls, n), file.uploadUrls.headers, body);
    assert.equal((await put(1, a)).status, 200);
    // An idempotent retry (a client that lost the answer sends the chunk again) is fine.
    assert.equal((await put(1, a)).status, 200);
    // A replay of the URL with other bytes of the same length is refused, and changes nothing.
    const replaced = await put(1, b);
    assert.equal(replaced.status, 409);
    assert.deepEqual(Object.keys(replaced.body as object).sort(), ['code', 'error']);
    assert.equal((replaced.body as { code: string }).code, 'conflict');
    assert.match((replaced.body as { error: string }).error, /stored already with other bytes/);
    assert.ok((await storedChunk(folderId, file.fileId, 1)).equals(a), 'the stored chunk is unchanged');
    // Two different bodies racing for an empty slot: one is stored, the other refused.
    const c = chunkBody(6 * MIB, file.chunkSize, 2);
    const d = chunkBody(6 * MIB, file.chunkSize, 2);
    const raced = await Promise.all([put(2, c), put(2, d)]);
    assert.deepEqual(raced.map((r) => r.status).sort(), [200, 409]);
    const stored = await storedChunk(folderId, file.fileId, 2);
    assert.ok(stored.equals(raced[0]!.status === 200 ? c : d), 'the accepted body is the one stored');
    const late = await put(1, a);
    assert.equal(late.status, 409);
    assert.match((late.body as { error: string }).error, /already complete/);
    assert.ok((await storedChunk(folderId, file.fileId, 1)).equals(a), 'the stored chunk is unchanged');
    assert.deepEqual(await readdir(join(srv.dataDir, 'blobs', '.incoming')), [], 'no temporary files left');
  });

  test('a tampered signature, another chunk’s signature or a forged expiry is 403 and stores nothing', async () => {
    const { folderId, file } = await register();
    const body = chunkBody(size, file.chunkSize, 1);
    const sig = file.uploadUrls.signatures[0]!;
    const flipped = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    const urls = [
      chunkUrl(file.uploadUrls, 1).replace(sig, flipped),
      chunkUrl({ ...file.uploadUrls, signatures: [file.uploadUrls.signatures[1]!] }, 1),
      chunkUrl(file.uploadUrls, 1).replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=999999999'),
      chunkUrl(file.uploadUrls, 1).replace(/&X-Amz-Signature=[0-9a-f]+/, ''),
      chunkUrl(file.uploadUrls, 1).replace(/X-Amz-Algorithm=[^&]+&/, ''),
    ];
    for (const u of urls) {
      const res = await putChunk(u, file.uploadUrls.headers, body);
      assert.equal(res.status, 403, u);
      assert.equal(typeof (res.body as { error: string }).error, 'string');
    }
    // A signature is bound to its file and folder too.
    const other = await register();
    const moved = chunkUrl(file.uploadUrls, 1).replace(
      `${folderId}/${file.fileId}`,
      `${other.folderId}/${other.file.fileId}`,
    );
    assert.equal((await putChunk(moved, file.uploadUrls.headers, body)).status, 403);
    await assert.rejects(storedChunk(folderId, file.fileId, 1));
  });

  test('wrong lengths, missing lengths and bad chunk numbers are refused before the body', async () => {
    const { folderId, file } = await register();
    const body = chunkBody(size, file.chunkSize, 3);
    const url3 = chunkUrl(file.uploadUrls, 3);
    const wrong = await putChunk(url3, file.uploadUrls.headers, body.subarray(1));
    assert.equal(wrong.status, 400);
    assert.equal((wrong.body as { error: string }).error, `Content-Length must be ${body.length} for chunk 3`);
    assert.equal(await rawPut(url3, { 'transfer-encoding': 'chunked' }, body), 411);
    for (const n of ['00000', '00004', '123456', 'x']) {
      const res = await putChunk(
        `${file.uploadUrls.head}${file.uploadUrls.path}/${n}?${file.uploadUrls.tail}&X-Amz-Signature=${file.uploadUrls.signatures[0]}`,
        {},
        body,
      );
      assert.equal(res.status, 400, n);
    }
    assert.equal((await putChunk(chunkUrl(file.uploadUrls, 1).replace(folderId, 'bad'), {}, body)).status, 400);
    const unknown = chunkUrl(file.uploadUrls, 1).replace(file.fileId, 'AAAAAAAAAAAAAAAA');
    assert.equal((await putChunk(unknown, {}, body)).status, 404);
    const status = await getJson<UploadStatusResponse>(statusUrl(folderId, file.fileId));
    assert.deepEqual(status.body.missing, [1, 2, 3]);
  });

  test('a body shorter than its declared length keeps nothing', async () => {
    const { folderId, file } = await register();
    const body = chunkBody(size, file.chunkSize, 3);
    const result = await rawPut(
      chunkUrl(file.uploadUrls, 3),
      { 'content-length': String(body.length) },
      body.subarray(0, 1000),
      { endEarly: true },
    );
    assert.equal(result, 'reset');
    // The server notices the aborted request and removes its partial file (a loaded machine may take
    // seconds); the poll fails with what it waited for if it never does.
    const incoming = join(srv.dataDir, 'blobs', '.incoming');
    await until('the partial chunk file removed', async () =>
      (await readdir(incoming)).length === 0 ? true : undefined,
    );
    const status = await getJson<UploadStatusResponse>(statusUrl(folderId, file.fileId));
    assert.deepEqual(status.body.missing, [1, 2, 3]);
  });
});

describe('upload status', () => {
  test('404 for unknown folder or file and for a wrong uploadAuth; 400 for malformed ids', async () => {
    const { folderId, uploadAuth, file } = await register();
    const other = await register();
    assert.equal((await getJson(statusUrl(folderId, file.fileId, uploadAuth))).status, 200);
    assert.equal((await getJson(statusUrl(folderId, file.fileId))).status, 200, 'uploadAuth is optional');
    const cases: Array<[string, number, string]> = [
      [statusUrl('AAAAAAAAAAAAAAAA', file.fileId), 404, 'folder not found'],
      [statusUrl(folderId, 'AAAAAAAAAAAAAAAA'), 404, 'file not found'],
      [statusUrl(folderId, other.file.fileId), 404, 'file not found'],
      [statusUrl(folderId, file.fileId, 'wrong'), 404, 'file not found'],
      [statusUrl(folderId, file.fileId, other.uploadAuth), 404, 'file not found'],
      [statusUrl('short', file.fileId), 400, 'folderId is malformed'],
      [statusUrl(folderId, 'a'.repeat(40)), 400, 'fileId is malformed'],
      [`${statusUrl(folderId, file.fileId, uploadAuth)}&uploadAuth=x`, 400, 'uploadAuth must be given once'],
    ];
    for (const [u, code, error] of cases) {
      const res = await getJson<{ error: string }>(u);
      assert.equal(res.status, code, u);
      assert.equal(res.body.error, error, u);
    }
  });
});
