import { readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, relative } from 'node:path';
import { ChunkConflictError, ChunkLengthError, ChunkUrlError, type ChunkUrlQuery } from '../../src/blobs/blob-store.js';
import { LocalBlobStore } from '../../src/blobs/local/local-blob-store.js';
import { ChunkUrlSigner } from '../../src/blobs/local/url-signer.js';
import { freePort, tempDir } from '../support/server.js';
import { blobStoreSuite } from './blob-store.suite.js';

/**
 * The embedded bytes store over a real directory. Its presigned URLs point at a minimal HTTP server
 * that does what the service's chunk route does with the store (verify the URL for the declared
 * length, then stream the body in), without the metadata the route also consults.
 */
blobStoreSuite('local filesystem', async () => {
  const root = await tempDir('webfolder-blobs-');
  const port = await freePort();
  const store = await LocalBlobStore.open(
    join(root, 'blobs'),
    new ChunkUrlSigner('x'.repeat(40), `http://127.0.0.1:${port}/up`),
    Date.now,
  );
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/up\/([^/]+)\/([^/]+)\/(\d{1,5})$/.exec(url.pathname);
    const length = Number(req.headers['content-length']);
    const answer = (status: number) => {
      res.writeHead(status, status >= 400 ? { connection: 'close' } : {}).end();
    };
    if (req.method !== 'PUT' || !m || !Number.isSafeInteger(length)) return answer(400);
    const ref = { folderId: m[1]!, fileId: m[2]! };
    const n = Number(m[3]);
    try {
      store.verifyChunkUrl(ref, n, length, Object.fromEntries(url.searchParams) as ChunkUrlQuery, Date.now());
    } catch (error) {
      return answer(error instanceof ChunkUrlError ? 403 : 500);
    }
    store.writeChunk(ref, n, length, req).then(
      () => answer(200),
      (error: unknown) =>
        answer(error instanceof ChunkLengthError ? 400 : error instanceof ChunkConflictError ? 409 : 500),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    store,
    enforcesSignatures: true,
    keepsChunks: true,
    async objectsUnder(folderId) {
      const dir = join(root, 'blobs', folderId);
      try {
        return (await readdir(dir, { recursive: true })).map((p) => relative(dir, join(dir, p)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});
