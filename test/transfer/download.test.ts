import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { upload } from '../../src/client/node/index.js';
import { decryptChunk } from '../../src/crypto/index.js';
import {
  chunksAhead,
  DecryptorGoneError,
  type DownloadFile,
  downloadStream,
  type Fetch,
  HAND_ON_PIECE,
  listFolder,
  openChunk,
} from '../../src/transfer/index.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * `downloadStream`, the one download pipeline, against a real server: the bytes come back in
 * order in pieces of at most 1 MiB, the fetch-ahead window stays bounded, and a damaged chunk
 * errors the stream instead of being handed on.
 */
const MIB = 1024 * 1024;
let server: RunningServer;
let dir: string;
before(async () => {
  server = await startServer({ CHUNK_SIZE_MIB: '5' });
  dir = await tempDir('webfolder-download-stream-');
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function uploaded(size: number): Promise<{ file: DownloadFile; content: Buffer; folderId: string }> {
  const content = randomBytes(size);
  const path = join(dir, `f-${size}.bin`);
  await writeFile(path, content);
  const result = await upload([path], { server: server.baseUrl });
  const listing = await listFolder(result.link);
  const f = listing.files[0]!;
  return {
    content,
    folderId: result.folderId,
    file: {
      name: f.name,
      size: f.size,
      chunkSize: f.chunkSize,
      chunks: f.chunks,
      key: listing.key,
      siteApi: listing.siteApi,
      folderId: listing.folderId,
      fileId: f.fileId,
      credentials: {},
    },
  };
}

describe('downloadStream', () => {
  test('hands on the plaintext in order, in pieces of at most 1 MiB, with a bounded window', async () => {
    const { file, content } = await uploaded(5 * 5 * MIB + 123);
    let started = 0;
    const counting: Fetch = (url, init) => {
      if (/\/chunks\/\d{5}$/.test(url)) started++;
      return fetch(url, init);
    };
    const reader = downloadStream(file, { fetch: counting }).getReader();
    const pieces: Uint8Array[] = [];
    let handed = 0;
    const ahead = chunksAhead(file.chunkSize);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      assert.ok(value.byteLength <= HAND_ON_PIECE);
      pieces.push(value);
      handed += value.byteLength;
      const chunksHanded = Math.floor(handed / file.chunkSize);
      assert.ok(started - chunksHanded <= ahead + 1, `${started} chunks started, ${chunksHanded} handed on`);
    }
    assert.equal(started, file.chunks);
    assert.ok(Buffer.concat(pieces).equals(content));
  });

  test('a damaged chunk errors the stream with an IntegrityError naming it', async () => {
    const { file, folderId } = await uploaded(11 * MIB);
    const chunk2 = join(server.dataDir, 'blobs', folderId, file.fileId, '00002');
    const stored = await readFile(chunk2);
    stored[5000] = stored[5000]! ^ 1;
    await writeFile(chunk2, stored);
    await assert.rejects(
      new Response(downloadStream(file)).arrayBuffer(),
      (e: unknown) =>
        e instanceof Error && e.name === 'IntegrityError' && /chunk 2 of .* failed its integrity check/.test(e.message),
    );
    // A body one byte short (a proxy that cut it): the length check catches it before decryption.
    const short: Fetch = async (url, init) => {
      const response = await fetch(url, init);
      if (!url.endsWith('/chunks/00001')) return response;
      const body = new Uint8Array(await response.arrayBuffer());
      return new Response(body.subarray(0, body.length - 1), { status: 200, headers: response.headers });
    };
    await assert.rejects(
      new Response(downloadStream(file, { fetch: short })).arrayBuffer(),
      (e: unknown) => e instanceof Error && e.name === 'IntegrityError' && /truncated or damaged/.test(e.message),
    );
  });

  test('decryption is pluggable (where a worker would go); its result is still length-checked', async () => {
    const { file, content } = await uploaded(11 * MIB);
    let calls = 0;
    const counted = await new Response(
      downloadStream(file, {
        decrypt: (key, message) => {
          calls++;
          return decryptChunk(key, message);
        },
      }),
    ).arrayBuffer();
    assert.ok(Buffer.from(counted).equals(content));
    assert.equal(calls, file.chunks);
    await assert.rejects(
      new Response(downloadStream(file, { decrypt: async () => new Uint8Array(3) })).arrayBuffer(),
      (e: unknown) => e instanceof Error && e.name === 'IntegrityError' && /has 3 bytes, expected/.test(e.message),
    );
  });

  test('a decryptor that took a chunk and went away: that chunk is fetched again and decrypted here', async () => {
    const { file, content } = await uploaded(11 * MIB);
    const fetched: string[] = [];
    const counting: Fetch = (url, init) => {
      fetched.push(new URL(url).pathname.split('/').pop()!);
      return fetch(url, init);
    };
    let calls = 0;
    const bytes = await new Response(
      downloadStream(file, {
        fetch: counting,
        decrypt: async (key, message) => {
          calls++;
          // The second chunk's worker "closes" with the message: like a transfer, the bytes are gone.
          if (calls === 2) {
            message.fill(0);
            throw new DecryptorGoneError('the page closed');
          }
          return decryptChunk(key, message);
        },
      }),
    ).arrayBuffer();
    assert.ok(Buffer.from(bytes).equals(content));
    assert.equal(file.chunks, 3);
    // Every chunk once, and the one the decryptor lost once more.
    assert.equal(fetched.length, 4);
    assert.deepEqual([...new Set(fetched.map(Number))].sort(), [1, 2, 3]);
  });

  test("whole chunks opened elsewhere (openChunk, as the page's workers run it); one gone is opened here", async () => {
    const { file, content } = await uploaded(11 * MIB);
    const asked: number[] = [];
    const bytes = await new Response(
      downloadStream(file, {
        open: (f, k) => {
          asked.push(k);
          return k === 2 ? Promise.reject(new DecryptorGoneError('the page closed')) : openChunk(f, k);
        },
      }),
    ).arrayBuffer();
    assert.ok(Buffer.from(bytes).equals(content));
    assert.deepEqual(
      asked.sort((a, b) => a - b),
      [1, 2, 3],
    );
    // What comes back is length-checked like a chunk opened here.
    await assert.rejects(
      new Response(downloadStream(file, { open: async () => new Uint8Array(3) })).arrayBuffer(),
      (e: unknown) => e instanceof Error && e.name === 'IntegrityError' && /has 3 bytes, expected/.test(e.message),
    );
  });

  test('pause: a chunk the policy gave up on waits and is tried again, once per pause; refusals do not pause', async () => {
    const { file, content } = await uploaded(7 * MIB);
    let down = true;
    const fetched: Record<string, number> = {};
    const outage: Fetch = (url, init) => {
      const n = /\/chunks\/(\d{5})$/.exec(url)?.[1];
      if (n === '00002' && down)
        return Promise.resolve(new Response('{"error":"down","code":"down"}', { status: 503 }));
      if (n) fetched[n] = (fetched[n] ?? 0) + 1;
      return fetch(url, init);
    };
    const pauses: number[] = [];
    const retry = { retries: 2, baseDelayMs: 1, maxDelayMs: 1 };
    // The first pause ends with the server still down (one attempt, paused again), the second after it is back.
    const pause = async (k: number) => {
      pauses.push(k);
      if (pauses.length === 2) down = false;
    };
    const got = await new Response(downloadStream(file, { fetch: outage, retry, pause })).arrayBuffer();
    assert.ok(Buffer.from(got).equals(content));
    assert.deepEqual(pauses, [2, 2]);
    assert.deepEqual(fetched, { '00001': 1, '00002': 1 }, 'no chunk fetched twice');
    // A refusal ends the download at once; so does a pause that gives up (the ticket expired).
    const refused: Fetch = (url, init) =>
      url.endsWith('/chunks/00002')
        ? Promise.resolve(new Response('{"error":"gone","code":"gone"}', { status: 404 }))
        : fetch(url, init);
    let paused = 0;
    await assert.rejects(
      new Response(downloadStream(file, { fetch: refused, retry, pause: async () => void paused++ })).arrayBuffer(),
      (e: unknown) => e instanceof Error && e.name === 'WebfolderError',
    );
    assert.equal(paused, 0);
    down = true;
    const expired = new Error('expired');
    await assert.rejects(
      new Response(downloadStream(file, { fetch: outage, retry, pause: () => Promise.reject(expired) })).arrayBuffer(),
      (e: unknown) => e === expired,
    );
  });

  test('a plan that cannot describe the file is refused before anything is fetched', () => {
    assert.throws(
      () =>
        downloadStream({
          name: 'x',
          size: 10,
          chunkSize: 5,
          chunks: 3,
          key: 'k',
          siteApi: 'http://127.0.0.1:1/api/site',
          folderId: 'f',
          fileId: 'g',
          credentials: {},
        }),
      (e: unknown) => e instanceof Error && e.name === 'IntegrityError',
    );
  });
});
