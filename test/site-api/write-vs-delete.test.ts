import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { chunkUrl } from '../../src/transfer/urls.js';
import { useServer } from '../support/server.js';
import { call, createOwned, refused, token } from './owner-support.js';

/**
 * A chunk whose body is still arriving when the owner deletes its folder or its file (local backend,
 * real server on loopback): the PUT is answered 404 and no byte of it stays on disk, whichever of the
 * two finishes first. Without the rule in src/app/written-while-deleted.ts the chunk landed after the
 * deletion, was answered 200, and its bytes stayed under a folder that no longer existed.
 */
const server = useServer();
const api = () => `${server.baseUrl}/api/site`;

const SIZE = 1_000_000;

/** Registers one file as `owner`; answers its id and the URL and headers of its first chunk. */
async function registered(owner: string, folderId: string) {
  const reg = await call(api(), 'POST', `/folders/${folderId}/files`, {
    owner,
    body: { files: [{ filename: 'ZW5jcnlwdGVk', filesize: SIZE }] },
  });
  assert.equal(reg.status, 200, reg.text);
  const file = reg.json.files[0];
  return { fileId: file.fileId as string, url: chunkUrl(file.uploadUrls, 1), headers: file.uploadUrls.headers };
}

/**
 * A chunk PUT sent in two halves: `started` resolves once the server has passed every check and asked
 * for the body (100 Continue) and the first half is sent; `finish` sends the rest and answers the response.
 */
function twoHalfPut(url: string, headers: Record<string, string>, body: Buffer) {
  const half = Math.floor(body.length / 2);
  let answered!: (r: { status: number; text: string }) => void;
  let failed!: (e: Error) => void;
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    answered = resolve;
    failed = reject;
  });
  const req = request(url, {
    method: 'PUT',
    headers: { ...headers, 'content-length': String(body.length), expect: '100-continue' },
  });
  req.on('error', failed);
  req.on('response', (res) => {
    const parts: Buffer[] = [];
    res.on('data', (d: Buffer) => parts.push(d));
    res.on('end', () => answered({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
  });
  const started = new Promise<void>((resolve) =>
    req.once('continue', () => {
      req.write(body.subarray(0, half), () => resolve());
    }),
  );
  req.flushHeaders();
  return {
    started,
    async finish() {
      req.end(body.subarray(half));
      return response;
    },
  };
}

const folderBytes = (folderId: string) => {
  const dir = join(server.dataDir, 'blobs', folderId);
  return existsSync(dir) ? readdirSync(dir, { recursive: true }) : [];
};

describe('a chunk PUT racing a deletion', () => {
  test('the folder is deleted while the body arrives: 404, and nothing of the folder stays on disk', async () => {
    const owner = token();
    const { folderId } = await createOwned(api(), owner, { mode: 'send' });
    const file = await registered(owner, folderId);
    const put = twoHalfPut(file.url, file.headers, randomBytes(encryptedLength(SIZE)));
    await put.started;
    const deleted = await call(api(), 'DELETE', `/folders/${folderId}`, { owner });
    assert.equal(deleted.status, 204, deleted.text);
    const answer = await put.finish();
    refused({ ...answer, json: JSON.parse(answer.text) }, 404, 'not_found', 'the chunk of a deleted folder');
    assert.deepEqual(folderBytes(folderId), [], 'no byte of the deleted folder is left');
    assert.equal((await call(api(), 'GET', `/folders/${folderId}`, { owner })).status, 404);
  });

  test('the file is deleted while the body arrives: 404, its bytes gone, the folder and its other file intact', async () => {
    const owner = token();
    const { folderId } = await createOwned(api(), owner, { mode: 'send' });
    const kept = await registered(owner, folderId);
    const keptPut = await fetch(kept.url, {
      method: 'PUT',
      headers: kept.headers,
      body: new Uint8Array(randomBytes(encryptedLength(SIZE))),
    });
    assert.equal(keptPut.status, 200, await keptPut.text());
    const doomed = await registered(owner, folderId);
    const put = twoHalfPut(doomed.url, doomed.headers, randomBytes(encryptedLength(SIZE)));
    await put.started;
    const deleted = await call(api(), 'DELETE', `/folders/${folderId}/files/${doomed.fileId}`, { owner });
    assert.equal(deleted.status, 204, deleted.text);
    const answer = await put.finish();
    refused({ ...answer, json: JSON.parse(answer.text) }, 404, 'not_found', 'the chunk of a deleted file');
    assert.equal(existsSync(join(server.dataDir, 'blobs', folderId, doomed.fileId)), false, 'its bytes are gone');
    assert.ok(existsSync(join(server.dataDir, 'blobs', folderId, kept.fileId, '00001')), 'the other file is kept');
    const listed = await call(api(), 'GET', `/folders/${folderId}/files`, { owner });
    assert.deepEqual(
      listed.json.files.map((f: { fileId: string }) => f.fileId),
      [kept.fileId],
    );
  });

  test('with no deletion the same two-half PUT is stored and answered 200', async () => {
    const owner = token();
    const { folderId } = await createOwned(api(), owner, { mode: 'send' });
    const file = await registered(owner, folderId);
    const put = twoHalfPut(file.url, file.headers, randomBytes(encryptedLength(SIZE)));
    await put.started;
    const answer = await put.finish();
    assert.equal(answer.status, 200, answer.text);
    assert.ok(existsSync(join(server.dataDir, 'blobs', folderId, file.fileId, '00001')));
  });
});
