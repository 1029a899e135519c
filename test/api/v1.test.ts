import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Keychain } from 'wormhole-crypto';
import { encryptStream } from 'wormhole-crypto/lib/ece.js';
import { v1CreateRequestSchema, v1CreateResponseSchema, v1RegisteredFileSchema } from '../../src/contract/v1.js';
import { startCli } from '../support/cli.js';
import { startServer, useServer } from '../support/server.js';

/**
 * file.kiwi's v1 API as its official Node SDK (github file-kiwi/node 1.0.9, `createWebFolder` and
 * `startUpload`), its CLI and its MCP server call it. The SDK is not on the npm registry, so this
 * file has its own client that makes exactly the SDK's requests, in the SDK's order and with the
 * SDK's encoding (wormhole-crypto 0.3.1 for every RFC 8188 message, `btoa` for names and `ske`),
 * against a real server; webfolder's own CLI then downloads, and the bytes must match.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const MIB = 1024 * 1024;

// 5 MiB chunks (the smallest allowed) keep a four-chunk file small.
const server = useServer({ CHUNK_SIZE_MIB: '5' }, { prefix: 'webfolder-v1-' });

// ---- the SDK's client, request for request ----

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
const collect = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());
const btoaBytes = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

interface V1File {
  filename: string;
  fid: string;
  chunkSize: number;
  chunks: number;
  freeDownloadHours: number;
  uploadUrls: { head: string; tail: string; path: string; signatures: string[]; headers: Record<string, string> };
}
interface V1Folder {
  webfolderId: string;
  webfolderUrl: string;
  apiAuth: string;
  retentionHours: number;
  files: V1File[];
}

/** Every request the client makes, as "METHOD path?query" (the log the order is checked against). */
const requests: string[] = [];
async function call(url: string, init?: RequestInit): Promise<Response> {
  const u = new URL(url);
  requests.push(`${init?.method ?? 'GET'} ${u.pathname}${u.search}`);
  return fetch(url, init);
}

/** The SDK's createWebFolder: a fresh key, `ske` and names encrypted under it, one create call. */
async function createWebFolder(title: string, files: { name: string; bytes: Uint8Array }[]) {
  const keychain = new Keychain(null, null);
  const secretKey = keychain.keyB64;
  const encryptText = async (text: string) =>
    btoaBytes(await collect(await keychain.encryptStream(streamOf(new TextEncoder().encode(text)))));
  const ske = await encryptText(secretKey);
  const names = await Promise.all(files.map((f) => encryptText(f.name)));
  const res = await call(`${server.baseUrl}/v1/delivery-webfolder`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title,
      ske,
      files: files.map((f, i) => ({ filename: names[i], filesize: f.bytes.length })),
    }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const data = (await res.json()) as V1Folder;
  return { data, secretKey, names, link: `${data.webfolderUrl}#${secretKey}` };
}

/** The SDK's chunk order: the first, the last, then the rest. */
function chunkOrder(total: number): number[] {
  if (total <= 1) return [0];
  const order = [0, total - 1];
  for (let i = 1; i < total - 1; i++) order.push(i);
  return order;
}

/** One chunk as the SDK sends it: its own RFC 8188 message under the raw key bytes, PUT to the URL rule. */
async function putChunk(secretKey: string, file: V1File, bytes: Uint8Array, c: number): Promise<void> {
  const plain = bytes.subarray(c * file.chunkSize, Math.min((c + 1) * file.chunkSize, bytes.length));
  const raw = Uint8Array.from(atob(secretKey.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, 'HKDF', false, ['deriveBits', 'deriveKey']);
  const body = await collect(encryptStream(streamOf(plain), key));
  const u = file.uploadUrls;
  const n = `00000${c + 1}`.slice(-5);
  const res = await call(`${u.head}${u.path}/${n}?${u.tail}&X-Amz-Signature=${u.signatures[c]}`, {
    method: 'PUT',
    body,
    headers: { 'Content-Length': String(body.length), ...u.headers },
  });
  assert.equal(res.status, 200, `chunk ${c + 1}: ${await res.text()}`);
}

const checkUrl = (folder: V1Folder, file: V1File, withAuth: boolean) =>
  `${server.baseUrl}/v1/upload/check/${file.fid}?webfolderId=${folder.webfolderId}` +
  (withAuth ? `&apiAuth=${encodeURIComponent(folder.apiAuth)}` : '');

async function check(url: string): Promise<{ complete: boolean; missing: number[] }> {
  const res = await call(url);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as { complete: boolean; missing: number[] };
}

/** webfolder's own CLI downloads the link into `dest`. */
async function cliDownload(link: string, dest: string): Promise<{ name: string; path: string }[]> {
  const { code, stdout, stderr } = await startCli(['download', link, dest, '--json'], {
    WEBFOLDER_SERVER: server.baseUrl,
  }).done;
  assert.equal(code, 0, stderr);
  return (JSON.parse(stdout) as { files: { name: string; path: string }[] }).files;
}

describe('file.kiwi v1 clients', () => {
  test("the SDK's calls in its order, interrupted and resumed, then webfolder's CLI downloads the same bytes", async () => {
    const small = { name: 'notes.txt', bytes: new TextEncoder().encode('first file, one chunk\n') };
    // Four chunks of 5 MiB, the last one short.
    const big = { name: 'Ünïcode report.bin', bytes: new Uint8Array(randomBytes(15 * MIB + 123_457)) };
    requests.length = 0;

    const { data: folder, secretKey, names, link } = await createWebFolder('Quarterly reports', [small, big]);
    assert.match(folder.webfolderId, /^[A-Za-z0-9_-]{16}$/);
    assert.equal(folder.webfolderUrl, `${server.baseUrl}/f/${folder.webfolderId}`, 'no fragment: the SDK appends it');
    assert.ok(folder.apiAuth.length >= 32);
    assert.equal(folder.retentionHours, 72, 'FREE_DOWNLOAD_HOURS');
    assert.deepEqual(
      folder.files.map((f) => [f.filename, f.chunkSize, f.chunks, f.freeDownloadHours, f.uploadUrls.signatures.length]),
      [
        [names[0], 5 * MIB, 1, 72, 1],
        [names[1], 5 * MIB, 4, 72, 4],
      ],
    );
    const [fileA, fileB] = folder.files as [V1File, V1File];

    // First run (startUpload without resume): file by file, each in the SDK's chunk order, each
    // followed by the check with apiAuth. It stops before the last of file B's chunks: a crash.
    await putChunk(secretKey, fileA, small.bytes, 0);
    assert.deepEqual(await check(checkUrl(folder, fileA, true)), { complete: true, missing: [] });
    const orderB = chunkOrder(fileB.chunks);
    assert.deepEqual(orderB, [0, 3, 1, 2]);
    for (const c of orderB.slice(0, 3)) await putChunk(secretKey, fileB, big.bytes, c);

    // Resume (startUpload with resume: true): the check of every file without apiAuth, then only
    // the chunks reported missing, in the SDK's order, then the check with apiAuth.
    assert.deepEqual(await check(checkUrl(folder, fileA, false)), { complete: true, missing: [] });
    const resumeB = await check(checkUrl(folder, fileB, false));
    assert.deepEqual(resumeB, { complete: false, missing: [3] });
    for (const c of orderB.filter((c) => resumeB.missing.includes(c + 1)))
      await putChunk(secretKey, fileB, big.bytes, c);
    assert.deepEqual(await check(checkUrl(folder, fileB, true)), { complete: true, missing: [] });

    const id = folder.webfolderId;
    const put = (f: V1File, n: string) => `PUT /v2/uploads/${id}/${f.fid}/${n}`;
    const checkPath = (f: V1File, auth: boolean) =>
      `GET /v1/upload/check/${f.fid}?webfolderId=${id}${auth ? `&apiAuth=${encodeURIComponent(folder.apiAuth)}` : ''}`;
    assert.deepEqual(
      requests.map((r) => (r.startsWith('PUT ') ? r.split('?')[0] : r)),
      [
        'POST /v1/delivery-webfolder',
        put(fileA, '00001'),
        checkPath(fileA, true),
        put(fileB, '00001'),
        put(fileB, '00004'),
        put(fileB, '00002'),
        checkPath(fileA, false),
        checkPath(fileB, false),
        put(fileB, '00003'),
        checkPath(fileB, true),
      ],
      'the requests of the SDK, in its order',
    );

    // The share link the SDK prints opens with webfolder's own client: names decrypt, bytes match.
    const dest = join(server.dir, 'received');
    const downloaded = await cliDownload(link, dest);
    assert.deepEqual(
      downloaded.map((f) => f.name),
      [small.name, big.name],
    );
    assert.ok((await readFile(join(dest, small.name))).equals(small.bytes));
    assert.ok((await readFile(join(dest, big.name))).equals(big.bytes));
  });

  test('a v1 folder is a v2 direct-upload folder: v2 upload-status answers with apiAuth as uploadAuth', async () => {
    const { data: folder } = await createWebFolder('t', [{ name: 'a', bytes: new Uint8Array(10) }]);
    const fid = folder.files[0]!.fid;
    const base = `${server.baseUrl}/v2/folders/${folder.webfolderId}/files/${fid}/upload-status`;
    const v2 = await fetch(`${base}?uploadAuth=${encodeURIComponent(folder.apiAuth)}`);
    assert.equal(v2.status, 200);
    assert.deepEqual(await v2.json(), { complete: false, missing: [1] });
  });

  test('the check refuses what v2 refuses: a wrong apiAuth answers exactly like an unknown file', async () => {
    const { data: folder } = await createWebFolder('t', [{ name: 'a', bytes: new Uint8Array(10) }]);
    const fid = folder.files[0]!.fid;
    const wrong = await fetch(
      `${server.baseUrl}/v1/upload/check/${fid}?webfolderId=${folder.webfolderId}&apiAuth=nope`,
    );
    const unknown = await fetch(
      `${server.baseUrl}/v1/upload/check/${'A'.repeat(16)}?webfolderId=${folder.webfolderId}&apiAuth=${folder.apiAuth}`,
    );
    assert.equal(wrong.status, 404);
    assert.equal(unknown.status, 404);
    const wrongBody = await wrong.json();
    assert.deepEqual(wrongBody, await unknown.json());
    assert.equal((wrongBody as { code: string }).code, 'not_found');

    const cases: [string, string][] = [
      [`/v1/upload/check/${fid}`, 'webfolderId is required'],
      [`/v1/upload/check/${fid}?webfolderId=short`, 'webfolderId is malformed'],
      [`/v1/upload/check/bad!?webfolderId=${folder.webfolderId}`, 'fid is malformed'],
      [
        `/v1/upload/check/${fid}?webfolderId=${folder.webfolderId}&webfolderId=${folder.webfolderId}`,
        'webfolderId must be given once',
      ],
      [`/v1/upload/check/${fid}?webfolderId=${folder.webfolderId}&apiAuth=a&apiAuth=b`, 'apiAuth must be given once'],
    ];
    for (const [path, error] of cases) {
      const res = await fetch(`${server.baseUrl}${path}`);
      assert.equal(res.status, 400, path);
      assert.deepEqual(await res.json(), { error, code: 'invalid_request' }, path);
    }
  });

  test('the create call refuses a malformed body with a 400 naming the v1 field, and creates nothing', async () => {
    const file = { filename: 'bmFtZQ==', filesize: 5 };
    const folders = async () =>
      (await server.server.services.store.foldersDue(Number.MAX_SAFE_INTEGER, 100_000)).length;
    const before = await folders();
    const cases: [unknown, string][] = [
      [{ ske: 'x', files: [file] }, 'title is required'],
      [{ title: 't', files: [file] }, 'ske is required'],
      [{ title: 't', ske: 'x' }, 'files is required'],
      [{ title: 't', ske: 'x', files: [] }, 'files must have at least 1 item'],
      [{ title: 't', ske: 'x', files: Array(11).fill(file) }, 'files must have at most 10 items'],
      [{ title: 't', ske: '', files: [file] }, 'ske must not be empty'],
      [{ title: 't', ske: 'x', files: [{ ...file, filesize: 0 }] }, 'files[0].filesize must be greater than 0'],
      [{ title: 't', encryption: { ske: 'x' }, ske: 'x', files: [file] }, 'encryption is not an allowed property'],
      [{ title: 't'.repeat(201), ske: 'x', files: [file] }, 'title must be at most 200 characters'],
    ];
    for (const [body, error] of cases) {
      const res = await fetch(`${server.baseUrl}/v1/delivery-webfolder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(await res.json(), { error, code: 'invalid_request' });
    }
    const empty = await fetch(`${server.baseUrl}/v1/delivery-webfolder`, { method: 'POST' });
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as { error: string }).error, 'body must be a JSON object');
    assert.equal(await folders(), before);
  });

  test('nothing else of v1 exists, and the OpenAPI document (v2) does not list v1', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => !p.startsWith('/v2/')),
      [],
    );
    for (const [method, path] of [
      ['GET', '/v1/delivery-webfolder'],
      ['POST', '/v1/webfolder'],
      ['GET', '/v1/upload/check'],
      ['PUT', '/v1/upload/abc'],
    ] as const) {
      const res = await fetch(`${server.baseUrl}${path}`, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
  });
});

describe('docs/direct-upload.md', () => {
  test('the v1 samples have exactly the fields the server sends and takes', async () => {
    const md = await readFile(join(ROOT, 'docs/direct-upload.md'), 'utf8');
    const blocks = [...md.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
    const request = blocks.find((b) => 'ske' in b && 'title' in b);
    const response = blocks.find((b) => 'webfolderId' in b) as { files: Record<string, unknown>[] } | undefined;
    assert.ok(request && response, 'a v1 request and response sample');
    assert.deepEqual(Object.keys(request).sort(), [...v1CreateRequestSchema.required].sort());
    assert.deepEqual(Object.keys(response).sort(), [...v1CreateResponseSchema.required].sort());
    assert.deepEqual(Object.keys(response.files[0]!).sort(), [...v1RegisteredFileSchema.required].sort());
  });
});

describe('file.kiwi v1 clients: shared limits', () => {
  test('the v1 create spends from the same bucket as POST /v2/folders', async () => {
    const limited = await startServer({ RATE_LIMIT_CREATE: '1', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    try {
      assert.equal((await fetch(`${limited.baseUrl}/v2/folders`, { method: 'POST' })).status, 200);
      const res = await fetch(`${limited.baseUrl}/v1/delivery-webfolder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 't', ske: 'x', files: [{ filename: 'n', filesize: 1 }] }),
      });
      assert.equal(res.status, 429);
      assert.ok(res.headers.get('retry-after'));
    } finally {
      await limited.close();
    }
  });
});
