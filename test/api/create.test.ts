import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { CreateResponseDirect, CreateResponseEmpty } from '../../src/contract/types.js';
import { MIB } from '../../src/domain/chunk-plan.js';
import { MAX_FILE_SIZE } from '../../src/domain/limits.js';
import { createDirect, createEmpty, postJson } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';

let srv: RunningServer;
let url: string;
const ajv = (addFormats as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: false }));
let validateResponse: (v: unknown) => boolean;

before(async () => {
  // The floor off: the largest files the contract allows are registered here, more than this disk holds
  // (a floor reserves what is registered against the free space: test/blobs/disk-full.test.ts).
  srv = await startServer({ FREE_DOWNLOAD_HOURS: '48', DISK_FREE_MIN_MIB: '0' });
  url = `${srv.baseUrl}/v2/folders`;
  const schema = (await (await fetch(`${srv.baseUrl}/schemas/v2-folder-create-response.json`)).json()) as object;
  validateResponse = ajv.compile(schema);
});
after(() => srv.close());

const file = (over: Record<string, unknown> = {}) => ({ filename: 'name', filesize: 1, ...over });
const direct = (files: unknown[], over: Record<string, unknown> = {}) => ({ encryption: { ske: 'k' }, files, ...over });

async function refused(body: unknown, expected: string | RegExp, headers?: Record<string, string>) {
  const res = await postJson<{ error: string }>(url, body, headers);
  assert.equal(
    res.status,
    400,
    `expected 400 for ${JSON.stringify(body)}, got ${res.status} ${JSON.stringify(res.body)}`,
  );
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(typeof res.body.error, 'string');
  if (typeof expected === 'string') assert.equal(res.body.error, expected);
  else assert.match(res.body.error, expected);
}

describe('empty-folder flow', () => {
  test('an absent body creates an empty send folder with the key only in the fragment', async () => {
    const res = await postJson<CreateResponseEmpty>(url);
    assert.equal(res.status, 200);
    const b = res.body;
    assert.ok(validateResponse(b), JSON.stringify(validateResponse));
    assert.equal(b.mode, 'send');
    assert.equal(b.uploadRequiredWithinHours, 24);
    assert.deepEqual(b.files, []);
    const [base, secret] = b.folderUrl.split('#');
    assert.equal(base, b.folderUrlBase);
    assert.equal(b.folderUrlBase, `${srv.baseUrl}/f/${b.folderId}`);
    assert.match(secret!, /^[A-Za-z0-9_-]{22}$/, '16 random bytes, base64url');
    assert.equal(Buffer.from(secret!, 'base64url').length, 16);
    assert.deepEqual(Object.keys(b).sort(), [
      'files',
      'folderId',
      'folderUrl',
      'folderUrlBase',
      'mode',
      'uploadRequiredWithinHours',
    ]);
  });

  test('an empty body is an absent body, with or without a JSON content type', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, {}] as Record<
      string,
      string
    >[]) {
      const res = await fetch(url, { method: 'POST', headers, body: '' });
      assert.equal(res.status, 200, JSON.stringify(headers));
      assert.equal(((await res.json()) as CreateResponseEmpty).mode, 'send');
    }
  });

  test('files: [] selects the empty-folder flow; mode and title are honoured', async () => {
    const b = await createEmpty(srv.baseUrl, { files: [], mode: 'share', title: 'Holiday photos' });
    assert.equal(b.mode, 'share');
    assert.equal(b.uploadRequiredWithinHours, 24);
    const folder = await srv.server.services.store.getFolder(b.folderId);
    assert.equal(folder?.title, 'Holiday photos');
    assert.equal(folder?.flow, 'empty');
  });

  test('a missing or null title becomes a date-based title', async () => {
    for (const body of [{}, { title: null }]) {
      const b = await createEmpty(srv.baseUrl, body);
      const folder = await srv.server.services.store.getFolder(b.folderId);
      assert.match(folder!.title, /^Folder \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    }
  });

  test('keyStrategy server_generated is accepted; the fragment secret is never stored', async () => {
    const b = await createEmpty(srv.baseUrl, { encryption: { keyStrategy: 'server_generated' } });
    const secret = b.folderUrl.split('#')[1]!;
    const { readdir, readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    for (const name of await readdir(srv.dataDir, { recursive: true })) {
      const content = await readFile(join(srv.dataDir, name)).catch(() => null);
      if (content) assert.equal(content.includes(secret), false, `secret found in ${name}`);
    }
  });

  test('every mode is accepted and echoed', async () => {
    for (const mode of ['send', 'share', 'request'] as const)
      assert.equal((await createEmpty(srv.baseUrl, { mode })).mode, mode);
  });
});

describe('direct API upload flow', () => {
  test('one registered entry per file, in order, with a plan and presigned URLs', async () => {
    const sizes = [1, 10 * MIB, 10 * MIB + 1, 25 * MIB];
    const b = await createDirect(srv.baseUrl, sizes, { mode: 'share' });
    assert.ok(validateResponse(b));
    assert.equal(b.mode, 'share');
    assert.equal(b.folderUrl, `${srv.baseUrl}/f/${b.folderId}`);
    assert.ok(!b.folderUrl.includes('#'), 'the client appends its own secret');
    assert.match(b.uploadAuth, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(b.files.length, sizes.length);
    assert.deepEqual(
      b.files.map((f) => f.filename),
      sizes.map((_, i) => `file-${i}`),
    );
    assert.deepEqual(
      b.files.map((f) => f.chunks),
      [1, 1, 2, 3],
    );
    for (const f of b.files) {
      assert.equal(f.chunkSize, 10 * MIB);
      assert.equal(f.freeDownloadHours, 48);
      assert.equal(f.uploadUrls.signatures.length, f.chunks);
      assert.equal(new Set(f.uploadUrls.signatures).size, f.chunks, 'each chunk has its own signature');
      assert.equal(f.uploadUrls.path, `${b.folderId}/${f.fileId}`);
      assert.equal(typeof f.uploadUrls.headers['Content-Type'], 'string');
    }
    assert.equal(new Set(b.files.map((f) => f.fileId)).size, sizes.length);
  });

  test('uploadAuth is stored only as a hash', async () => {
    const b = await createDirect(srv.baseUrl, [5]);
    const folder = await srv.server.services.store.getFolder(b.folderId);
    assert.notEqual(folder!.uploadAuthHash, b.uploadAuth);
    assert.ok(!JSON.stringify(folder).includes(b.uploadAuth));
  });

  test('limits are accepted at the edge and refused just past it', async () => {
    const ten = Array.from({ length: 10 }, () => file());
    assert.equal((await postJson<CreateResponseDirect>(url, direct(ten))).body.files.length, 10);
    await refused(direct([...ten, file()]), 'files must have at most 10 items');
    const big = await postJson<CreateResponseDirect>(url, direct([file({ filesize: MAX_FILE_SIZE })]));
    assert.equal(big.status, 200);
    assert.ok(big.body.files[0]!.chunks <= 10_000);
    assert.equal(big.body.files[0]!.chunkSize % MIB, 0);
    await refused(
      direct([file({ filesize: MAX_FILE_SIZE + 1 })]),
      `files[0].filesize must be at most ${MAX_FILE_SIZE}`,
    );
    assert.equal((await postJson(url, { title: 'x'.repeat(200) })).status, 200);
    await refused({ title: 'x'.repeat(201) }, 'title must be at most 200 characters');
  });

  test('file entry rules name the field at fault', async () => {
    await refused(direct([file(), file(), file({ filesize: 0 })]), 'files[2].filesize must be greater than 0');
    await refused(direct([file({ filesize: -5 })]), 'files[0].filesize must be greater than 0');
    await refused(direct([file({ filesize: '3' })]), 'files[0].filesize must be an integer');
    await refused(direct([file({ filesize: 1.5 })]), 'files[0].filesize must be an integer');
    await refused(direct([file({ filename: '' })]), 'files[0].filename must not be empty');
    await refused(direct([{ filesize: 3 }]), 'files[0].filename is required');
    await refused(direct([{ filename: 'a' }]), 'files[0].filesize is required');
    await refused(direct([file({ filename: 7 })]), 'files[0].filename must be a string');
    await refused(direct([file({ mimetype: 3 })]), 'files[0].mimetype must be a string');
    await refused(direct([file({ extra: true })]), 'files[0].extra is not an allowed property');
    assert.equal((await postJson(url, direct([file({ mimetype: 'image/png' })]))).status, 200);
  });

  test('encryption.ske is required when files are given', async () => {
    await refused({ files: [file()] }, 'encryption is required when files are given');
    await refused({ files: [file()], encryption: {} }, 'encryption.ske is required when files are given');
    await refused(
      { files: [file()], encryption: { keyStrategy: 'server_generated' } },
      'encryption.ske is required when files are given',
    );
  });
});

describe('request rules', () => {
  test('no properties outside the spec, at any level', async () => {
    await refused({ folder: 'x' }, 'folder is not an allowed property');
    await refused({ encryption: { ske: 'k', key: 'x' } }, 'encryption.key is not an allowed property');
  });

  test('no type coercion', async () => {
    await refused({ title: 5 }, 'title must be a string or null');
    await refused({ mode: 1 }, 'mode must be a string');
    await refused({ files: 'a' }, 'files must be an array');
    await refused({ encryption: 'x' }, 'encryption must be a JSON object');
    await refused({ encryption: { ske: 5 } }, 'encryption.ske must be a string');
  });

  test('enums', async () => {
    await refused({ mode: 'upload' }, 'mode must be one of send, share, request');
    await refused({ encryption: { keyStrategy: 'client' } }, 'encryption.keyStrategy must be one of server_generated');
  });

  test('malformed, non-object, wrong-type and oversized bodies are 400, never 500', async () => {
    await refused('{"title":', 'body is not valid JSON');
    await refused('[]', 'body must be a JSON object');
    await refused('"text"', 'body must be a JSON object');
    await refused('42', 'body must be a JSON object');
    await refused('null', 'body must be a JSON object');
    await refused('{"title":"a"}', 'Content-Type must be application/json', { 'content-type': 'text/plain' });
    await refused('title=a', 'Content-Type must be application/json', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    await refused(JSON.stringify({ title: 'x'.repeat(200_000) }), 'request body is too large');
    await refused('{"__proto__":{"x":1}}', /not valid JSON|not an allowed property/);
  });

  test('a refused request changes nothing', async () => {
    const before = (await srv.server.services.store.foldersDue(Number.MAX_SAFE_INTEGER, 100_000)).length;
    await refused(direct([file({ filesize: 0 })]), 'files[0].filesize must be greater than 0');
    await refused({ title: 'x'.repeat(201) }, 'title must be at most 200 characters');
    const afterCount = (await srv.server.services.store.foldersDue(Number.MAX_SAFE_INTEGER, 100_000)).length;
    assert.equal(afterCount, before);
  });
});
