import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { CreateResponseDirect, CreateResponseEmpty } from '../../src/contract/types.js';
import { encryptedLength, MIB, planChunks } from '../../src/domain/chunk-plan.js';
import { useServer } from '../support/server.js';

/**
 * The guides' examples against the code and a real server: the worked example of
 * docs/direct-upload.md (plan, lengths, the chunk-3 URL built from the sample uploadUrls, the answers
 * of a chunk PUT and of upload-status), and the response shapes of docs/empty-folder-flow.md.
 */
const DOCS = join(new URL('../../', import.meta.url).pathname, 'docs');
const n = (text: string) => Number(text.replace(/ /g, ''));

const srv = useServer();
let directUpload: string;
let emptyFolder: string;
before(async () => {
  directUpload = await readFile(join(DOCS, 'direct-upload.md'), 'utf8');
  emptyFolder = await readFile(join(DOCS, 'empty-folder-flow.md'), 'utf8');
});

/** The fenced ```json blocks of a doc, parsed. */
const jsonBlocks = (md: string) => [...md.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as unknown);

describe('docs/direct-upload.md worked example', () => {
  test('the plan and every encrypted length in the table follow from the code', () => {
    const plan = planChunks(25 * MIB, 10);
    assert.deepEqual(plan, { filesize: 26_214_400, chunkSize: 10_485_760, chunks: 3 });
    const rows = [
      ...directUpload.matchAll(
        /^\| (\d) \| [\d –]+ \| ([\d ]+) \| (\d+) \| 21 \+ ([\d ]+) \+ ([\d ]+) = \*\*([\d ]+)\*\* \|$/gm,
      ),
    ];
    assert.equal(rows.length, 3, 'three rows in the table');
    for (const [, chunk, p, records, p2, overhead, total] of rows) {
      const plain = n(p!);
      const expected = chunk === '3' ? 26_214_400 - 2 * 10_485_760 : 10_485_760;
      assert.equal(plain, expected, `chunk ${chunk} plaintext`);
      assert.equal(n(p2!), plain);
      assert.equal(Number(records), Math.ceil(plain / 65519));
      assert.equal(n(overhead!), 17 * Number(records));
      assert.equal(n(total!), encryptedLength(plain), `chunk ${chunk} encrypted length`);
    }
    assert.ok(
      directUpload.includes(
        `In total\n${(2 * encryptedLength(10_485_760) + encryptedLength(5_242_880)).toLocaleString('en').replace(/,/g, ' ')} bytes`,
      ),
    );
  });

  test('the chunk-3 URL is the rule applied to the sample uploadUrls', () => {
    const sample = jsonBlocks(directUpload).find((b) => (b as CreateResponseDirect).uploadAuth) as CreateResponseDirect;
    const u = sample.files[0]!.uploadUrls;
    assert.equal(sample.files[0]!.chunks, u.signatures.length);
    const url = `${u.head}${u.path}/${String(3).padStart(5, '0')}?${u.tail}&X-Amz-Signature=${u.signatures[2]}`;
    const shown = directUpload.match(/^https:\/\/files\.example\.com\/v2\/uploads\/\S+\/00003\?\S+$/gm);
    assert.deepEqual(shown, [url], 'the URL block shows exactly that URL');
    assert.ok(directUpload.includes(`'${url}'`), 'and the curl command uses it');
  });

  test('a real server answers as the example says', async () => {
    const res = await fetch(`${srv.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mode: 'send',
        encryption: { ske: 'c2tl' },
        files: [{ filename: 'bmFtZQ==', filesize: 26_214_400, mimetype: 'application/pdf' }],
      }),
    });
    assert.equal(res.status, 200);
    const created = (await res.json()) as CreateResponseDirect;
    const sample = jsonBlocks(directUpload).find((b) => (b as CreateResponseDirect).uploadAuth) as CreateResponseDirect;
    assert.deepEqual(Object.keys(created).sort(), Object.keys(sample).sort(), 'same top-level fields as the sample');
    assert.deepEqual(Object.keys(created.files[0]!).sort(), Object.keys(sample.files[0]!).sort());
    assert.deepEqual(Object.keys(created.files[0]!.uploadUrls).sort(), Object.keys(sample.files[0]!.uploadUrls).sort());
    assert.deepEqual(created.files[0]!.uploadUrls.headers, sample.files[0]!.uploadUrls.headers);
    const file = created.files[0]!;
    assert.equal(file.chunkSize, 10_485_760);
    assert.equal(file.chunks, 3);
    assert.equal(file.freeDownloadHours, 72);
    assert.doesNotMatch(created.folderUrl, /#/, 'no fragment in the direct flow');
    const expires = Number(new URLSearchParams(file.uploadUrls.tail).get('X-Amz-Expires'));
    assert.ok(expires <= 72 * 3600 && expires > 72 * 3600 - 60, `valid for UPLOAD_URL_TTL_SECONDS (72 h): ${expires}`);

    const u = file.uploadUrls;
    const url = (k: number) =>
      `${u.head}${u.path}/${String(k).padStart(5, '0')}?${u.tail}&X-Amz-Signature=${u.signatures[k - 1]}`;
    const status = async () =>
      (
        await fetch(
          `${srv.baseUrl}/v2/folders/${created.folderId}/files/${file.fileId}/upload-status?uploadAuth=${created.uploadAuth}`,
        )
      ).json();
    const put = async (k: number, length: number, target = url(k)) => {
      const r = await fetch(target, { method: 'PUT', headers: { ...u.headers }, body: randomBytes(length) });
      return { status: r.status, body: (await r.json()) as unknown };
    };
    assert.deepEqual(await status(), { complete: false, missing: [1, 2, 3] });
    assert.deepEqual(await put(3, 5_244_278), {
      status: 200,
      body: { chunk: 3, bytes: 5_244_278, fileComplete: false },
    });
    assert.deepEqual(await status(), { complete: false, missing: [1, 2] });
    // The errors table's examples.
    assert.deepEqual(await put(1, 100), {
      status: 400,
      body: { error: 'Content-Length must be 10488518 for chunk 1', code: 'invalid_request' },
    });
    assert.deepEqual(await put(1, 10_488_518, url(2).replace('/00002?', '/00001?')), {
      status: 403,
      body: { error: 'signature does not match this chunk', code: 'forbidden' },
    });
    assert.deepEqual(await put(4, 10, url(3).replace('/00003?', '/00004?')), {
      status: 400,
      body: { error: 'chunk number must be between 1 and 3', code: 'invalid_request' },
    });
    assert.deepEqual(await put(1, 10_488_518, url(1).replace(file.fileId, 'AAAAAAAAAAAAAAAA')), {
      status: 404,
      body: { error: 'file not found', code: 'not_found' },
    });
    assert.deepEqual(await put(1, 10_488_518), {
      status: 200,
      body: { chunk: 1, bytes: 10_488_518, fileComplete: false },
    });
    assert.deepEqual(await put(2, 10_488_518, url(2).replace('/00002?', '/2?')), {
      status: 200,
      body: { chunk: 2, bytes: 10_488_518, fileComplete: true },
    });
    assert.deepEqual(await status(), { complete: true, missing: [] });
    assert.deepEqual(await put(2, 10_488_518), {
      status: 409,
      body: { error: 'file is already complete; its chunks can no longer be replaced', code: 'conflict' },
    });
    for (const quoted of [
      'Content-Length must be 10488518 for chunk 1',
      'signature does not match this chunk',
      'chunk number must be between 1 and 3',
      'file is already complete; its chunks can no longer be replaced',
      'Content-Length is required',
      'upload URL has expired',
    ]) {
      assert.ok(directUpload.includes(quoted), `the doc quotes "${quoted}"`);
    }
  });
});

describe('docs/empty-folder-flow.md', () => {
  test('the sample response has the shape a real server returns, and the error examples are real', async () => {
    const sample = jsonBlocks(emptyFolder)[0] as CreateResponseEmpty;
    const res = await fetch(`${srv.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Scans for the accountant', mode: 'send' }),
    });
    assert.equal(res.status, 200);
    const created = (await res.json()) as CreateResponseEmpty;
    assert.deepEqual(Object.keys(created).sort(), Object.keys(sample).sort());
    assert.equal(created.uploadRequiredWithinHours, sample.uploadRequiredWithinHours);
    assert.equal(created.folderUrl.split('#')[0], created.folderUrlBase);
    assert.match(created.folderUrl.split('#')[1]!, /^[A-Za-z0-9_-]{22}$/, '16 random bytes, base64url');
    assert.match(sample.folderUrl.split('#')[1]!, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(sample.folderUrl.split('#')[0], sample.folderUrlBase);
    const bare = await fetch(`${srv.baseUrl}/v2/folders`, { method: 'POST' });
    assert.equal(bare.status, 200, 'no body at all is fine');
    for (const [body, error] of [
      [{ name: 'x' }, 'name is not an allowed property'],
      [{ mode: 'public' }, 'mode must be one of send, share, request'],
    ] as const) {
      const r = await fetch(`${srv.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(r.status, 400);
      assert.deepEqual(await r.json(), { error, code: 'invalid_request' });
      assert.ok(emptyFolder.includes(`{"error":"${error}","code":"invalid_request"}`), `the doc quotes ${error}`);
    }
  });
});
