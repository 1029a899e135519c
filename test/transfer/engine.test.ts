import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  createSke,
  decryptChunk,
  encryptChunk,
  encryptText,
  type FolderKey,
  generateSecret,
  importSecret,
} from '../../src/crypto/index.js';
import {
  AbortedError,
  allChunks,
  blobSource,
  createFolder,
  type EngineEvent,
  type Fetch,
  filePlan,
  sendChunks,
  type UploadJob,
  WebfolderError,
} from '../../src/transfer/index.js';
import { useServer } from '../support/server.js';

/**
 * The upload engine against a real server on loopback, through a test transport (fetch plus a
 * hook): chunks stored and decryptable, progress reported from the transport, expired URLs
 * renewed, a failing file that does not stop the others (page mode), fail-fast (library mode),
 * cancellation.
 */
const MIB = 1024 * 1024;
const server = useServer({ CHUNK_SIZE_MIB: '5' });

async function register(sizes: number[]) {
  const secret = generateSecret();
  const key = await importSecret(secret);
  const created = await createFolder({
    server: server.baseUrl,
    ske: await createSke(key),
    files: (await Promise.all(
      sizes.map(async (filesize, i) => ({ filename: await encryptText(key, `f${i}`), filesize })),
    )) as [{ filename: string; filesize: number }],
  });
  const contents = sizes.map((n) => randomBytes(n));
  const jobs: UploadJob[] = created.files.map((f, i) => {
    const plan = filePlan(sizes[i]!, f.chunkSize, f.chunks);
    return {
      label: `f${i}`,
      plan,
      key,
      source: blobSource(new Blob([contents[i]!])),
      urls: f.uploadUrls,
      todo: allChunks(plan),
    };
  });
  return { key, created, contents, jobs };
}

/** A transport over fetch that reports the whole body as sent once it is answered. */
function testTransport(hook: (url: string) => 'pass' | 'forbid' | 'network' = () => 'pass'): Fetch {
  return async (url, init) => {
    const verdict = init.method === 'PUT' ? hook(url) : 'pass';
    if (verdict === 'network') throw new TypeError('network error (test)');
    if (verdict === 'forbid') return new Response('{"error":"signature expired","code":"forbidden"}', { status: 403 });
    const response = await fetch(url, init);
    if (init.method === 'PUT') init.onUploadProgress?.((init.body as Uint8Array).byteLength);
    return response;
  };
}

async function storedPlaintext(folderId: string, fileId: string, key: FolderKey): Promise<Buffer> {
  const dir = join(server.dataDir, 'blobs', folderId, fileId);
  const names = (await readdir(dir)).filter((n) => /^\d{5}$/.test(n)).sort();
  const parts = await Promise.all(names.map(async (n) => decryptChunk(key, await readFile(join(dir, n)))));
  return Buffer.concat(parts);
}

describe('upload engine', () => {
  test('sends every chunk of several files; stored chunks decrypt to the source; progress from the transport', async () => {
    const { key, created, contents, jobs } = await register([11 * MIB + 3, 700]);
    const events: EngineEvent[] = [];
    const result = await sendChunks(jobs, { fetch: testTransport(), onEvent: (e) => events.push(e) });
    assert.equal(result.chunksSent, 4);
    for (const [i, f] of created.files.entries())
      assert.ok((await storedPlaintext(created.folderId, f.fileId, key)).equals(contents[i]!));
    const sending = events.filter((e) => e.type === 'sending');
    assert.equal(sending.length, 4);
    assert.deepEqual(
      sending.map((e) => e.bytes).sort((a, b) => a - b),
      [700, MIB + 3, 5 * MIB, 5 * MIB],
    );
    assert.deepEqual(
      events
        .filter((e) => e.type === 'job-done')
        .map((e) => e.job)
        .sort(),
      [0, 1],
    );
  });

  test('encryption is pluggable (where a worker would go); a wrong length is refused before any PUT', async () => {
    const { jobs, key, created, contents } = await register([700]);
    let calls = 0;
    await sendChunks(jobs, {
      encrypt: (k, plaintext) => {
        calls++;
        return encryptChunk(k, plaintext);
      },
    });
    assert.equal(calls, 1);
    assert.ok((await storedPlaintext(created.folderId, created.files[0]!.fileId, key)).equals(contents[0]!));
    const again = await register([700]);
    let puts = 0;
    await assert.rejects(
      sendChunks(again.jobs, {
        encrypt: async () => new Uint8Array(5),
        fetch: testTransport(() => {
          puts++;
          return 'pass';
        }),
      }),
      /encrypted chunk has 5 bytes/,
    );
    assert.equal(puts, 0);
  });

  test("a source that reads and encrypts in one step (the page's workers) replaces read and encrypt", async () => {
    const { jobs, key, created, contents } = await register([11 * MIB + 5]);
    const job = jobs[0]!;
    const sealedAt: number[] = [];
    const source = {
      read: () => Promise.reject(new Error('read must not be called when sealed is there')),
      sealed: async (k: typeof key, offset: number, length: number) => {
        sealedAt.push(offset);
        return encryptChunk(k, contents[0]!.subarray(offset, offset + length));
      },
    };
    await sendChunks([{ ...job, source }], {
      encrypt: () => Promise.reject(new Error('encrypt must not be called when sealed is there')),
      encryptConcurrency: 2,
    });
    assert.deepEqual(
      sealedAt.sort((a, b) => a - b),
      Array.from({ length: job.plan.chunks }, (_, i) => i * job.plan.chunkSize),
    );
    assert.ok((await storedPlaintext(created.folderId, created.files[0]!.fileId, key)).equals(contents[0]!));
    // Its result is length-checked like encrypt's.
    const again = await register([700]);
    await assert.rejects(
      sendChunks([{ ...again.jobs[0]!, source: { ...source, sealed: async () => new Uint8Array(5) } }]),
      /encrypted chunk has 5 bytes/,
    );
  });

  test('a refused (expired) URL is renewed once and the chunk sent again', async () => {
    const { jobs, created } = await register([700]);
    let forbidden = 0;
    let renewed = 0;
    const result = await sendChunks(jobs, {
      fetch: testTransport(() => (forbidden++ === 0 ? 'forbid' : 'pass')),
      renewUrls: async () => {
        renewed++;
        return created.files[0]!.uploadUrls;
      },
    });
    assert.equal(result.chunksSent, 1);
    assert.equal(renewed, 1);
  });

  test('page mode: a failing file fails alone, the others complete', async () => {
    const { jobs } = await register([700, 800]);
    const bad = jobs[0]!.urls.path;
    const events: EngineEvent[] = [];
    const result = await sendChunks(jobs, {
      failFast: false,
      fetch: testTransport((url) => (url.includes(bad) ? 'forbid' : 'pass')),
      onEvent: (e) => events.push(e),
    });
    assert.equal(result.chunksSent, 1);
    assert.deepEqual([...result.failed.keys()], [0]);
    assert.ok(result.failed.get(0) instanceof WebfolderError);
    assert.deepEqual(
      events.filter((e) => e.type === 'job-done').map((e) => e.job),
      [1],
    );
  });

  test('library mode: the first failure stops everything and is thrown, without retrying a 4xx', async () => {
    const { jobs } = await register([11 * MIB]);
    let puts = 0;
    await assert.rejects(
      sendChunks(jobs, {
        fetch: testTransport(() => {
          puts++;
          return 'forbid';
        }),
      }),
      (e: unknown) => e instanceof WebfolderError && e.status === 403 && e.serverCode === 'forbidden',
    );
    assert.equal(puts, 1, 'the first chunk goes alone; nothing else is tried');
  });

  test('cancellation through the AbortSignal', async () => {
    const { jobs } = await register([11 * MIB]);
    const controller = new AbortController();
    await assert.rejects(
      sendChunks(jobs, {
        signal: controller.signal,
        retry: { baseDelayMs: 60_000 },
        fetch: testTransport(() => {
          controller.abort();
          return 'network';
        }),
      }),
      AbortedError,
    );
  });
});
