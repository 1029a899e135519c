import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { BlobNotFoundError, type BlobStore, type PresignRequest } from '../../src/blobs/blob-store.js';
import { chunkName } from '../../src/contract/paths.js';
import type { UploadUrls } from '../../src/contract/types.js';

/**
 * The BlobStore contract (src/blobs/blob-store.ts), one suite run unchanged against every
 * implementation: presigned URLs in the file.kiwi shape, uploads through those URLs with fetch exactly
 * as a client does, listing with sizes, read-back, and deletes that leave nothing behind.
 */
export interface BlobHarness {
  readonly store: BlobStore;
  /** Every object or file the backend holds under the folder (for "nothing left behind"). */
  objectsUnder(folderId: string): Promise<string[]>;
  /**
   * Whether the server behind the URLs enforces the signature (and with it the signed length).
   * The RADOS Gateway does; an emulator such as s3rver does not, and the S3 tests' own SigV4
   * verifier checks the binding offline as well.
   */
  readonly enforcesSignatures: boolean;
  /**
   * Whether a stored chunk is kept against other bytes sent to its URL (the local backend: a
   * replayed URL's other bytes get 409). Presigned S3 URLs cannot impose it on the clients: see docs/security.md.
   */
  readonly keepsChunks: boolean;
  stop(): Promise<void>;
}

export type BlobHarnessFactory = () => Promise<BlobHarness | { skip: string }>;

let counter = 0;
const newId = () => `b${String(++counter).padStart(5, '0')}${randomBytes(8).toString('base64url')}`.slice(0, 16);

/** The chunk URL rule of the core issue, as every client applies it. */
export function chunkUrl(urls: UploadUrls, n: number): string {
  return `${urls.head}${urls.path}/${chunkName(n)}?${urls.tail}&X-Amz-Signature=${urls.signatures[n - 1]}`;
}

export async function putChunk(urls: UploadUrls, n: number, body: Uint8Array): Promise<number> {
  const res = await fetch(chunkUrl(urls, n), {
    method: 'PUT',
    headers: urls.headers,
    body: body as unknown as BodyInit,
  });
  await res.arrayBuffer();
  return res.status;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Buffer));
  return Buffer.concat(parts);
}

/** Distinct small lengths per chunk, so a size mix-up shows. */
const lengthOf = (n: number) => 1000 + n * 37;

function request(chunks: number, folderId = newId(), fileId = newId()): PresignRequest {
  return { folderId, fileId, chunks, chunkLength: lengthOf, expiresAt: Date.now() + 3_600_000 };
}

export function blobStoreSuite(name: string, factory: BlobHarnessFactory): void {
  describe(`BlobStore contract: ${name}`, () => {
    let h: BlobHarness | null = null;
    let skip = 'backend unavailable';
    before(async () => {
      const made = await factory();
      if ('skip' in made) skip = made.skip;
      else h = made;
    });
    after(async () => {
      await h?.stop();
    });
    const it = (title: string, body: (h: BlobHarness) => Promise<void>) =>
      test(title, async (t) => {
        if (!h) return void t.skip(skip);
        await body(h);
      });

    /** Uploads chunks `ns` of a fresh file through its URLs, in parallel; returns the bodies. */
    async function upload(
      h: BlobHarness,
      req: PresignRequest,
      ns: number[],
    ): Promise<{ urls: UploadUrls; bodies: Map<number, Buffer> }> {
      const urls = await h.store.presignUploads(req);
      const bodies = new Map(ns.map((n) => [n, randomBytes(req.chunkLength(n))]));
      const statuses = await Promise.all(ns.map((n) => putChunk(urls, n, bodies.get(n)!)));
      assert.ok(
        statuses.every((s) => s >= 200 && s < 300),
        `PUT statuses ${statuses.join(',')}`,
      );
      return { urls, bodies };
    }

    it('presignUploads: the file.kiwi uploadUrls shape, one signature per chunk', async (h) => {
      const req = request(7);
      const urls = await h.store.presignUploads(req);
      assert.equal(urls.path, `${req.folderId}/${req.fileId}`);
      assert.equal(urls.signatures.length, 7);
      assert.equal(new Set(urls.signatures).size, 7, 'signatures differ per chunk');
      assert.ok(!urls.tail.includes('X-Amz-Signature'), 'tail leaves the signature out');
      assert.ok(!urls.tail.startsWith('?') && !urls.tail.startsWith('&'));
      for (const [k, v] of Object.entries(urls.headers)) assert.ok(typeof k === 'string' && typeof v === 'string');
      for (let n = 1; n <= 7; n++) {
        const url = new URL(chunkUrl(urls, n));
        assert.ok(url.pathname.endsWith(`/${req.folderId}/${req.fileId}/${chunkName(n)}`), url.pathname);
        assert.equal(url.searchParams.getAll('X-Amz-Signature').length, 1);
      }
    });

    it('chunks uploaded through the URLs (out of order, in parallel) are listed with their sizes and read back byte for byte', async (h) => {
      const req = request(5);
      const { bodies } = await upload(h, req, [1, 5, 3, 2]);
      const listed = await h.store.listChunks(req);
      assert.deepEqual(
        [...listed.entries()].sort((a, b) => a[0] - b[0]),
        [1, 2, 3, 5].map((n) => [n, lengthOf(n)]),
      );
      for (const [n, body] of bodies)
        assert.ok((await readAll(await h.store.readChunk(req, n))).equals(body), `chunk ${n}`);
      await assert.rejects(h.store.readChunk(req, 4), BlobNotFoundError);
      assert.deepEqual(await h.store.listChunks({ folderId: req.folderId, fileId: newId() }), new Map());
      assert.deepEqual(await h.store.listChunks({ folderId: newId(), fileId: newId() }), new Map());
      const receiver = h.store.capabilities.chunkReceiver;
      if (receiver) {
        assert.equal(await receiver.countChunks(req), 4);
        assert.equal(await receiver.countChunks({ folderId: req.folderId, fileId: newId() }), 0);
      }
    });

    it('sending a chunk again: the same bytes are fine; other bytes are refused where the backend keeps chunks', async (h) => {
      const req = request(2);
      const { urls, bodies } = await upload(h, req, [1]);
      assert.ok((await putChunk(urls, 1, bodies.get(1)!)) < 300, 'the same bytes again');
      const again = randomBytes(lengthOf(1));
      const status = await putChunk(urls, 1, again);
      if (h.keepsChunks) assert.equal(status, 409);
      else assert.ok(status < 300);
      const stored = await readAll(await h.store.readChunk(req, 1));
      assert.ok(stored.equals(h.keepsChunks ? bodies.get(1)! : again));
      assert.deepEqual([...(await h.store.listChunks(req))], [[1, lengthOf(1)]]);
      const receiver = h.store.capabilities.chunkReceiver;
      if (receiver) assert.equal(await receiver.countChunks(req), 1);
    });

    it('a body of another length than the signed one is refused and stores nothing', async (h) => {
      if (!h.enforcesSignatures) return; // see enforcesSignatures; the S3 tests verify the signed length offline
      const req = request(2);
      const urls = await h.store.presignUploads(req);
      assert.ok((await putChunk(urls, 1, randomBytes(lengthOf(1) + 1))) >= 400);
      assert.ok((await putChunk(urls, 1, randomBytes(lengthOf(1) - 1))) >= 400);
      // Chunk 2's signature does not work for chunk 1.
      const swapped = { ...urls, signatures: [urls.signatures[1]!, urls.signatures[0]!] };
      assert.ok((await putChunk(swapped, 1, randomBytes(lengthOf(1)))) >= 400);
      assert.deepEqual(await h.store.listChunks(req), new Map());
      const receiver = h.store.capabilities.chunkReceiver;
      if (receiver) assert.equal(await receiver.countChunks(req), 0, 'a refused body leaves no chunk to count');
    });

    it('deleteFile removes every chunk of that file only; deleteFolder leaves nothing; both idempotent', async (h) => {
      const folderId = newId();
      const a = request(5, folderId);
      const b = request(3, folderId);
      const other = request(2);
      await upload(h, a, [1, 2, 3, 4, 5]);
      await upload(h, b, [1, 2, 3]);
      await upload(h, other, [1, 2]);
      await h.store.deleteFile(a);
      await h.store.deleteFile(a);
      assert.deepEqual(await h.store.listChunks(a), new Map());
      assert.equal((await h.store.listChunks(b)).size, 3);
      assert.ok((await h.objectsUnder(folderId)).length >= 3);
      await h.store.deleteFolder(folderId);
      await h.store.deleteFolder(folderId);
      assert.deepEqual(await h.objectsUnder(folderId), []);
      assert.deepEqual(await h.store.listChunks(b), new Map());
      await assert.rejects(h.store.readChunk(b, 1), BlobNotFoundError);
      assert.equal((await h.store.listChunks(other)).size, 2, 'another folder is untouched');
      await h.store.deleteFolder(newId());
    });

    it('a thumbnail is stored beside the chunks (never counted as one), replaced, and deleted with its file and folder', async (h) => {
      const folderId = newId();
      const a = request(2, folderId);
      const b = request(1, folderId);
      await upload(h, a, [1, 2]);
      await upload(h, b, [1]);
      assert.equal(await h.store.readThumbnail(a), null);
      const first = randomBytes(3000);
      await h.store.writeThumbnail(a, first);
      assert.ok(Buffer.from((await h.store.readThumbnail(a))!).equals(first));
      const second = randomBytes(2000);
      await h.store.writeThumbnail(a, second);
      assert.ok(Buffer.from((await h.store.readThumbnail(a))!).equals(second), 'replaced');
      await h.store.writeThumbnail(b, first);
      assert.deepEqual([...(await h.store.listChunks(a)).keys()].sort(), [1, 2], 'not a chunk');
      const receiver = h.store.capabilities.chunkReceiver;
      if (receiver) assert.equal(await receiver.countChunks(a), 2);
      await h.store.deleteFile(a);
      assert.equal(await h.store.readThumbnail(a), null, 'deleted with its file');
      assert.ok(Buffer.from((await h.store.readThumbnail(b))!).equals(first), "another file's stays");
      await h.store.deleteFolder(folderId);
      assert.equal(await h.store.readThumbnail(b), null, 'deleted with its folder');
      assert.deepEqual(await h.objectsUnder(folderId), []);
    });

    it('readChunk with a range reads exactly those bytes of the chunk', async (h) => {
      const req = request(1);
      const { bodies } = await upload(h, req, [1]);
      const body = bodies.get(1)!;
      for (const [start, end] of [
        [0, 20],
        [21, body.length - 1],
        [500, 500],
        [body.length - 1, body.length - 1],
      ] as const)
        assert.ok(
          (await readAll(await h.store.readChunk(req, 1, { start, end }))).equals(body.subarray(start, end + 1)),
        );
    });

    it('capabilities: chunk bodies go through this process (local) or straight to storage with presigned downloads (S3)', async (h) => {
      const req = request(1);
      const { bodies } = await upload(h, req, [1]);
      const { downloadPresigner, chunkReceiver } = h.store.capabilities;
      if (downloadPresigner) {
        const url = await downloadPresigner.presignDownload(req, 1, Date.now() + 600_000);
        const res = await fetch(url);
        assert.equal(res.status, 200);
        assert.ok(Buffer.from(await res.arrayBuffer()).equals(bodies.get(1)!));
      } else {
        assert.ok(chunkReceiver, 'a store without presigned downloads receives chunks itself');
      }
    });
  });
}
