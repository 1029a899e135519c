import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Services } from '../../src/app/services.js';
import { registerSiteFiles } from '../../src/app/site/files.js';
import { sweep } from '../../src/app/sweeper.js';
import { encryptChunk, generateSecret, importSecret } from '../../src/crypto/index.js';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { MAX_THUMBNAIL_BYTES } from '../../src/domain/limits.js';
import { chunkUrl } from '../../src/transfer/urls.js';
import { useServer } from '../support/server.js';
import { isUnavailable, type S3Service, startS3 } from '../support/services.js';

/**
 * Encrypted thumbnails stored beside a file (src/app/site/thumbnails.ts) and `Range` on the site's
 * chunk GET, over a real server on the local backend and on S3 (the tests' RADOS Gateway): who may store and read a
 * thumbnail, the refusals, and that the sweeper's deletions of a file and of a folder take it along.
 */
const HOUR = 3_600_000;
const token = () => randomBytes(32).toString('base64url');
const s3 = await startS3();

interface Registered {
  fileId: string;
  uploadUrls: { head: string; path: string; tail: string; signatures: string[]; headers: Record<string, string> };
}

function backend(name: string, env: () => Record<string, string>, skip: string | false) {
  describe(`thumbnails and chunk ranges: ${name}`, { skip }, () => {
    const server = useServer(async () => ({ env: { CHUNK_SIZE_MIB: '5', ...env() } }));
    let api: string;
    before(() => {
      api = `${server.baseUrl}/api/site`;
    });

    async function folder(mode: string) {
      const res = await fetch(`${server.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode }),
      });
      return ((await res.json()) as { folderId: string }).folderId;
    }
    async function register(folderId: string, headers: Record<string, string>, size: number, claim = false) {
      const res = await fetch(`${api}/folders/${folderId}/files`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          files: [{ filename: 'bmFtZQ', filesize: size }],
          ...(claim ? { ske: 'c2tl', ownerPublicKey: 'cGs' } : {}),
        }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { files: Registered[] }).files[0]!;
    }
    async function putChunk(file: Registered, body: Uint8Array) {
      const u = file.uploadUrls;
      const res = await fetch(chunkUrl(u, 1), { method: 'PUT', headers: u.headers, body: body as BodyInit });
      assert.ok(res.status < 300, `chunk PUT ${res.status}`);
    }
    const thumbUrl = (folderId: string, fileId: string) => `${api}/folders/${folderId}/files/${fileId}/thumbnail`;
    const put = (
      folderId: string,
      fileId: string,
      headers: Record<string, string>,
      body: Uint8Array,
      type = 'application/octet-stream',
    ) =>
      fetch(thumbUrl(folderId, fileId), {
        method: 'PUT',
        headers: { 'content-type': type, ...headers },
        body: body as BodyInit,
      });
    const get = (folderId: string, fileId: string, headers: Record<string, string> = {}) =>
      fetch(thumbUrl(folderId, fileId), { headers });
    async function thumbnail(): Promise<Uint8Array> {
      const key = await importSecret(generateSecret());
      return encryptChunk(key, randomBytes(5000));
    }

    test('the uploader or the owner stores it; anyone with the list right reads it back; refusals are 4xx {error, code}', async () => {
      const folderId = await folder('share');
      const owner = token();
      const visitor = token();
      const ownerFile = await register(folderId, { 'x-owner-token': owner }, 1000, true);
      const visitorFile = await register(folderId, { 'x-visitor-token': visitor }, 1000);
      const t = await thumbnail();
      assert.equal((await get(folderId, ownerFile.fileId)).status, 404, 'none yet');
      const none = await (await get(folderId, ownerFile.fileId)).json();
      assert.equal(none.code, 'not_found');
      assert.equal((await put(folderId, ownerFile.fileId, { 'x-owner-token': owner }, t)).status, 204);
      const read = await get(folderId, ownerFile.fileId, { 'x-visitor-token': token() });
      assert.equal(read.status, 200);
      assert.equal(read.headers.get('content-type'), 'application/octet-stream');
      assert.ok(Buffer.from(await read.arrayBuffer()).equals(t));
      // The visitor's own file: its uploader may, and the owner may too; another visitor may not.
      assert.equal((await put(folderId, visitorFile.fileId, { 'x-visitor-token': visitor }, t)).status, 204);
      assert.equal((await put(folderId, visitorFile.fileId, { 'x-owner-token': owner }, t)).status, 204);
      const other = await put(folderId, ownerFile.fileId, { 'x-visitor-token': visitor }, await thumbnail());
      assert.equal(other.status, 403);
      assert.equal((await other.json()).code, 'forbidden');
      // Refused bodies change nothing.
      const refusals: Array<[Response, number, string]> = [
        [
          await put(folderId, ownerFile.fileId, { 'x-owner-token': owner }, randomBytes(MAX_THUMBNAIL_BYTES + 1)),
          413,
          'payload_too_large',
        ],
        [await put(folderId, ownerFile.fileId, { 'x-owner-token': owner }, randomBytes(500)), 400, 'invalid_request'],
        [await put(folderId, ownerFile.fileId, { 'x-owner-token': owner }, new Uint8Array(0)), 400, 'invalid_request'],
        [
          await put(folderId, ownerFile.fileId, { 'x-owner-token': owner }, t, 'image/webp'),
          415,
          'unsupported_media_type',
        ],
        [await put(folderId, 'AAAAAAAAAAAAAAAA', { 'x-owner-token': owner }, t), 404, 'not_found'],
        [await put(folderId, 'bad!', { 'x-owner-token': owner }, t), 400, 'invalid_request'],
      ];
      for (const [res, status, code] of refusals) {
        const body = await res.json();
        assert.equal(res.status, status, JSON.stringify(body));
        assert.equal(body.code, code);
        assert.equal(typeof body.error, 'string');
      }
      const still = await get(folderId, ownerFile.fileId);
      assert.ok(Buffer.from(await still.arrayBuffer()).equals(t), 'unchanged by the refusals');
    });

    test('in a request folder only the owner reads thumbnails (the list right)', async () => {
      const folderId = await folder('request');
      const owner = token();
      const file = await register(folderId, { 'x-owner-token': owner }, 1000, true);
      assert.equal((await put(folderId, file.fileId, { 'x-owner-token': owner }, await thumbnail())).status, 204);
      assert.equal((await get(folderId, file.fileId, { 'x-visitor-token': token() })).status, 403);
      assert.equal((await get(folderId, file.fileId, { 'x-owner-token': owner })).status, 200);
    });

    test('the chunk GET answers a Range within the encrypted chunk with 206 and exactly those bytes', async () => {
      const folderId = await folder('send');
      const owner = token();
      const file = await register(folderId, { 'x-owner-token': owner }, 200_000, true);
      const chunk = randomBytes(encryptedLength(200_000));
      await putChunk(file, chunk);
      const url = `${api}/folders/${folderId}/files/${file.fileId}/chunks/1`;
      // The page asks for JSON on S3 and fetches the presigned URL with the same Range.
      const fetchRange = async (range: string) => {
        const res = await fetch(url, { headers: { range, accept: 'application/octet-stream, application/json' } });
        if (!/json/.test(res.headers.get('content-type') ?? '')) return res;
        const { url: presigned } = (await res.json()) as { url: string };
        return fetch(presigned, { headers: { range } });
      };
      for (const [start, end] of [
        [0, 20],
        [21 + 65_536, 21 + 2 * 65_536 - 1],
        [chunk.length - 100, chunk.length - 1],
      ] as const) {
        const res = await fetchRange(`bytes=${start}-${end}`);
        assert.equal(res.status, 206);
        assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${chunk.length}`);
        assert.ok(Buffer.from(await res.arrayBuffer()).equals(chunk.subarray(start, end + 1)), `${start}-${end}`);
      }
      const whole = await fetchRange('bytes=0-');
      assert.ok(Buffer.from(await whole.arrayBuffer()).equals(chunk));
      if (name === 'local') {
        const plain = await fetch(url);
        assert.equal(plain.status, 200);
        assert.equal(plain.headers.get('accept-ranges'), 'bytes');
        assert.ok(Buffer.from(await plain.arrayBuffer()).equals(chunk));
        const past = await fetch(url, { headers: { range: `bytes=${chunk.length}-` } });
        assert.equal(past.status, 400);
        assert.equal((await past.json()).code, 'invalid_request');
      }
    });

    test("the owner's deletion of a file and of the folder takes the thumbnail along", async () => {
      const { services } = server.server;
      const folderId = await folder('share');
      const owner = token();
      const a = await register(folderId, { 'x-owner-token': owner }, 1000, true);
      const b = await register(folderId, { 'x-owner-token': owner }, 1000);
      for (const f of [a, b])
        assert.equal((await put(folderId, f.fileId, { 'x-owner-token': owner }, await thumbnail())).status, 204);
      const stored = (fileId: string) => services.blobs.readThumbnail({ folderId, fileId });
      const del = (path: string) =>
        fetch(`${api}/folders/${folderId}${path}`, { method: 'DELETE', headers: { 'x-owner-token': owner } });
      assert.equal((await del(`/files/${a.fileId}`)).status, 204);
      assert.equal(await stored(a.fileId), null, 'gone with its file');
      assert.ok(await stored(b.fileId), 'the other file keeps its thumbnail');
      assert.equal((await del('')).status, 204);
      assert.equal(await stored(b.fileId), null, 'gone with the folder');
    });

    test("the sweeper's deletion of an expired file and of its folder takes the thumbnail along", async () => {
      const { services } = server.server;
      const folderId = await folder('share');
      const owner = token();
      const early = await register(folderId, { 'x-owner-token': owner }, 1000, true);
      // A second file registered ten hours later (the same use case, its clock ahead) outlives the first.
      const later: Services = { ...services, clock: () => Date.now() + 10 * HOUR };
      const late = (
        await registerSiteFiles(
          later,
          folderId,
          { ownerToken: owner },
          {
            files: [{ filename: 'bmFtZQ', filesize: 1000 }],
          },
        )
      ).files[0]!;
      for (const f of [early, late])
        assert.equal((await put(folderId, f.fileId, { 'x-owner-token': owner }, await thumbnail())).status, 204);
      const stored = (fileId: string) => services.blobs.readThumbnail({ folderId, fileId });
      const earlyFile = (await services.store.getFile(folderId, early.fileId))!;
      const result = await sweep({ ...services, clock: () => earlyFile.expiresAt + 1 });
      assert.ok(result.filesDeleted >= 1);
      assert.equal(await stored(early.fileId), null, 'gone with its file');
      assert.ok(await stored(late.fileId), 'the other file keeps its thumbnail');
      const lateFile = (await services.store.getFile(folderId, late.fileId))!;
      await sweep({ ...services, clock: () => lateFile.expiresAt + 1 });
      assert.equal(await services.store.getFolder(folderId), null);
      assert.equal(await stored(late.fileId), null, 'gone with its folder');
    });
  });
}

backend('local', () => ({}), false);
backend('s3', () => (s3 as S3Service).env((s3 as S3Service).freshBucket()), isUnavailable(s3) ? s3.skip : false);
after(async () => {
  if (!isUnavailable(s3)) await s3.stop();
});
