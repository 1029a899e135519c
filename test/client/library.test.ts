import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  AbortedError,
  chunkOrder,
  chunkUrl,
  createFolder,
  download,
  getUploadStatus,
  InputError,
  LocalFileChangedError,
  resume,
  type UploadEvent,
  type UploadState,
  upload,
  WebfolderError,
  WrongSecretError,
} from '../../src/client/node/index.js';
import { decryptChunk, decryptText, encryptChunk, type FolderKey, importSecret } from '../../src/crypto/index.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * The client library against a real server on a loopback port (5 MiB chunks to keep files small):
 * encryption on the wire checked from the blob store on disk, download back, resume, retries.
 */
const MIB = 1024 * 1024;
let server: RunningServer;
let dir: string;
let big: Buffer;
let bigPath: string;
let smallPath: string;
let mediumPath: string;

before(async () => {
  server = await startServer({ CHUNK_SIZE_MIB: '5' });
  dir = await tempDir('webfolder-client-');
  big = randomBytes(11 * MIB + 12345); // 3 chunks: 5, 5, 1.01 MiB
  bigPath = join(dir, 'big.bin');
  smallPath = join(dir, 'notes é.txt');
  mediumPath = join(dir, 'medium.dat');
  await writeFile(bigPath, big);
  await writeFile(smallPath, 'hello webfolder\n');
  await writeFile(mediumPath, randomBytes(65_520)); // two RFC 8188 records in one chunk
});
after(() => server.close());

async function storedChunks(folderId: string, fileId: string): Promise<Buffer[]> {
  const fileDir = join(server.dataDir, 'blobs', folderId, fileId);
  const names = (await readdir(fileDir)).filter((n) => /^\d{5}$/.test(n)).sort();
  return Promise.all(names.map((n) => readFile(join(fileDir, n))));
}

describe('upload', () => {
  test('encrypts names and bytes, uploads several files incl. a multi-chunk one, and the stored chunks decrypt to the original', async () => {
    const events: UploadEvent[] = [];
    let state: UploadState | null = null;
    const result = await upload([bigPath, smallPath, mediumPath], {
      server: server.baseUrl,
      title: 'client test',
      onProgress: (e) => events.push(e),
      onState: (s) => {
        state = s;
      },
    });
    assert.match(result.link, /^http:\/\/127\.0\.0\.1:\d+\/f\/[A-Za-z0-9_-]+#[A-Za-z0-9_-]{22}$/);
    assert.equal(result.link, `${result.folderUrl}#${result.secret}`);
    assert.equal(result.fileIds.length, 3);
    assert.deepEqual(
      result.files.map((f) => f.chunks),
      [3, 1, 1],
    );
    assert.equal(result.chunksSent, 5);
    assert.ok(state, 'onState was called before the chunks');
    assert.equal((state as UploadState).uploadAuth, result.uploadAuth);

    const key = await importSecret(result.secret);
    const chunks = await storedChunks(result.folderId, result.fileIds[0]!);
    assert.equal(chunks.length, 3);
    const plain = Buffer.concat(await Promise.all(chunks.map((c) => decryptChunk(key, c))));
    assert.ok(plain.equals(big), 'stored chunks decrypt to the original bytes');
    const small = await storedChunks(result.folderId, result.fileIds[1]!);
    assert.equal(Buffer.from(await decryptChunk(key, small[0]!)).toString(), 'hello webfolder\n');

    // The server saw only encrypted names.
    const db = await readFile(join(server.dataDir, 'webfolder.db')).catch(() => Buffer.alloc(0));
    assert.ok(!db.includes('notes é.txt') && !db.includes('big.bin'), 'no plaintext name reaches the server');

    for (const id of result.fileIds) {
      const status = await getUploadStatus({
        server: server.baseUrl,
        folderId: result.folderId,
        fileId: id,
        uploadAuth: result.uploadAuth,
      });
      assert.deepEqual(status, { complete: true, missing: [] });
    }
    const last = events.filter((e) => e.type === 'chunk').at(-1);
    assert.ok(last && last.type === 'chunk' && last.doneBytes === last.totalBytes);
    assert.equal(events.filter((e) => e.type === 'file-complete').length, 3);
  });

  test("a caller's own encrypt seals every chunk", async () => {
    // The Node library's default is node:crypto's encryptor (src/client/node/encrypt.ts); the page's
    // WebCrypto one, passed here, writes the same format: the engine takes whichever it is given.
    let sealed = 0;
    const encrypt = (key: FolderKey, plaintext: Uint8Array) => {
      sealed++;
      return encryptChunk(key, plaintext);
    };
    const result = await upload([bigPath], { server: server.baseUrl, encrypt });
    assert.equal(sealed, 3);
    const got = await download(result.link, join(dir, 'download-own-encrypt'));
    assert.ok((await readFile(got.files[0]!.path)).equals(big));
  });

  test('download lists the folder, decrypts names and writes byte-identical files', async () => {
    const result = await upload([bigPath, smallPath], { server: server.baseUrl });
    const out = join(dir, 'download-1');
    const got = await download(result.link, out);
    assert.deepEqual(got.files.map((f) => f.name).sort(), ['big.bin', 'notes é.txt']);
    assert.ok((await readFile(join(out, 'big.bin'))).equals(big));
    assert.equal(await readFile(join(out, 'notes é.txt'), 'utf8'), 'hello webfolder\n');
    // A second download into the same directory never overwrites.
    const again = await download(result.link, out);
    assert.ok(again.files.some((f) => f.path.endsWith('big (1).bin')));
  });

  test('a request-mode upload is downloadable by its creator with uploadAuth, and by no one without it', async () => {
    const result = await upload([smallPath], { server: server.baseUrl, mode: 'request' });
    await assert.rejects(
      download(result.link, join(dir, 'request-visitor')),
      (e: unknown) => e instanceof WebfolderError && e.status === 403,
    );
    const got = await download(result.link, join(dir, 'request-owner'), { uploadAuth: result.uploadAuth });
    assert.equal(await readFile(got.files[0]!.path, 'utf8'), 'hello webfolder\n');
  });

  test('a tampered chunk fails the download with an integrity error and leaves no file', async () => {
    const result = await upload([bigPath], { server: server.baseUrl });
    const chunk2 = join(server.dataDir, 'blobs', result.folderId, result.fileIds[0]!, '00002');
    const stored = await readFile(chunk2);
    stored[1000] = stored[1000]! ^ 0x01;
    await writeFile(chunk2, stored);
    const out = join(dir, 'tampered');
    await assert.rejects(download(result.link, out), (e: unknown) => e instanceof Error && e.name === 'IntegrityError');
    assert.deepEqual(await readdir(out), [], 'neither the file nor its .webfolder-part remains');
  });

  test('a wrong secret is detected by the ske key check before anything is downloaded', async () => {
    const result = await upload([smallPath], { server: server.baseUrl });
    const wrong = `${result.folderUrl}#${'A'.repeat(22)}`;
    const out = join(dir, 'wrong');
    await assert.rejects(download(wrong, out), WrongSecretError);
    await assert.rejects(download(`${result.folderUrl}#short`, out), InputError);
    await assert.rejects(download(result.folderUrl, out), InputError);
  });

  test('chunks are sent first, then last, then the rest', async () => {
    assert.deepEqual(chunkOrder([1, 2, 3, 4, 5]), [1, 5, 2, 3, 4]);
    assert.deepEqual(chunkOrder([2, 7]), [2, 7]);
    const five = join(dir, 'five.bin');
    await writeFile(five, randomBytes(4 * 5 * MIB + 10));
    const order: number[] = [];
    await upload([five], {
      server: server.baseUrl,
      concurrency: 1,
      onProgress: (e) => e.type === 'chunk' && order.push(e.chunk),
    });
    assert.deepEqual(order, [1, 5, 2, 3, 4]);
  });

  test('refuses an empty file and an empty directory before creating anything', async () => {
    const empty = join(dir, 'empty.txt');
    await writeFile(empty, '');
    await assert.rejects(
      upload([empty], { server: server.baseUrl }),
      (e: unknown) => e instanceof InputError && /empty/.test(e.message),
    );
    const hollow = join(dir, 'hollow');
    await mkdir(hollow, { recursive: true });
    await assert.rejects(
      upload([hollow], { server: server.baseUrl }),
      (e: unknown) => e instanceof InputError && /empty directory/.test(e.message),
    );
  });

  test('encrypted filenames and mimetypes decrypt with the folder key', async () => {
    let state: UploadState | null = null;
    const seen: string[] = [];
    const result = await upload([smallPath], {
      server: server.baseUrl,
      onState: (s) => {
        state = s;
      },
      fetch: async (input, init) => {
        if (String(input).endsWith('/v2/folders')) seen.push(String(init?.body));
        return fetch(input, init);
      },
    });
    assert.ok(state);
    const body = JSON.parse(seen[0]!) as {
      encryption: { ske: string };
      files: { filename: string; mimetype: string }[];
    };
    const key = await importSecret(result.secret);
    assert.equal(await decryptText(key, body.files[0]!.filename), 'notes é.txt');
    assert.equal(await decryptText(key, body.files[0]!.mimetype), 'text/plain');
    assert.equal(await decryptText(key, body.encryption.ske), result.secret);
  });
});

describe('createFolder', () => {
  test('empty-folder flow returns the typed empty variant with a server-generated secret', async () => {
    const created = await createFolder({ server: server.baseUrl, title: 'for a person', mode: 'share' });
    assert.equal(created.mode, 'share');
    assert.deepEqual(created.files, []);
    assert.equal(created.uploadRequiredWithinHours, 24);
    assert.ok(created.folderUrl.startsWith(`${created.folderUrlBase}#`));
  });

  test('server refusals carry status and the {error} message, without retries', async () => {
    let retries = 0;
    await assert.rejects(
      createFolder({ server: server.baseUrl, title: 'x'.repeat(201), onRetry: () => retries++ }),
      (e: unknown) => e instanceof WebfolderError && e.status === 400 && /title/.test(e.serverMessage),
    );
    assert.equal(retries, 0);
  });
});

describe('chunk PUT failures', () => {
  test('a tampered signature is refused once (403) and not retried', async () => {
    const events: UploadEvent[] = [];
    const tamperAll: typeof fetch = (input, init) =>
      fetch(
        init?.method === 'PUT'
          ? String(input).replace(
              /X-Amz-Signature=([0-9a-f]{64})/,
              (_m, s: string) => `X-Amz-Signature=${s.startsWith('0') ? '1' : '0'}${s.slice(1)}`,
            )
          : input,
        init,
      );
    await assert.rejects(
      upload([smallPath], { server: server.baseUrl, fetch: tamperAll, onProgress: (e) => events.push(e) }),
      (e: unknown) => e instanceof WebfolderError && e.status === 403,
    );
    assert.equal(events.filter((e) => e.type === 'retry').length, 0);
  });

  test('chunkUrl follows the file.kiwi rule', () => {
    const url = chunkUrl(
      {
        head: 'https://b.s3.example/',
        path: 'f/x',
        tail: 'X-Amz-Algorithm=A&X-Amz-Date=D',
        signatures: ['s1', 's2'],
        headers: {},
      },
      2,
    );
    assert.equal(url, 'https://b.s3.example/f/x/00002?X-Amz-Algorithm=A&X-Amz-Date=D&X-Amz-Signature=s2');
  });
});

describe('resume', () => {
  test('after an interrupted upload, sends only the missing chunks and the result is byte-identical', async () => {
    const controller = new AbortController();
    let state: UploadState | null = null;
    await assert.rejects(
      upload([bigPath], {
        server: server.baseUrl,
        concurrency: 1,
        signal: controller.signal,
        onState: (s) => {
          state = JSON.parse(JSON.stringify(s)) as UploadState; // it must survive serialisation
        },
        onProgress: (e) => {
          if (e.type === 'chunk') controller.abort();
        },
      }),
      AbortedError,
    );
    assert.ok(state);
    const s = state as UploadState;
    const before = await getUploadStatus({
      server: server.baseUrl,
      folderId: s.folderId,
      fileId: s.files[0]!.fileId,
      uploadAuth: s.uploadAuth,
    });
    assert.equal(before.complete, false);
    assert.ok(before.missing.length >= 1 && before.missing.length < 3);
    const result = await resume(s);
    assert.equal(result.chunksSent, before.missing.length);
    const out = join(dir, 'resumed');
    await download(result.link, out);
    assert.ok((await readFile(join(out, 'big.bin'))).equals(big));
    // Resuming a finished upload sends nothing.
    assert.equal((await resume(s)).chunksSent, 0);
  });

  test('refuses when the local file changed since registration', async () => {
    const path = join(dir, 'changing.bin');
    await writeFile(path, randomBytes(6 * MIB));
    const controller = new AbortController();
    let state: UploadState | null = null;
    await assert.rejects(
      upload([path], {
        server: server.baseUrl,
        concurrency: 1,
        signal: controller.signal,
        onState: (s) => {
          state = s;
        },
        onProgress: (e) => e.type === 'chunk' && controller.abort(),
      }),
      AbortedError,
    );
    const later = new Date(Date.now() + 5000);
    await utimes(path, later, later);
    await assert.rejects(resume(state!), LocalFileChangedError);
  });
});

describe('rate limits', () => {
  test('429 answers are retried after Retry-After and the upload completes', async () => {
    const limited = await startServer({ CHUNK_SIZE_MIB: '5', RATE_LIMIT_CHUNK: '2', RATE_LIMIT_WINDOW_SECONDS: '1' });
    try {
      const events: UploadEvent[] = [];
      const result = await upload([bigPath, smallPath], { server: limited.baseUrl, onProgress: (e) => events.push(e) });
      const retries = events.filter((e) => e.type === 'retry');
      assert.ok(retries.length > 0, 'some chunk PUTs were rate limited');
      assert.ok(retries.every((e) => e.type === 'retry' && e.info.status === 429));
      assert.ok(
        retries.every((e) => e.type === 'retry' && e.info.delayMs >= 1000),
        'waits at least Retry-After',
      );
      for (const id of result.fileIds) {
        assert.equal(
          (await getUploadStatus({ server: limited.baseUrl, folderId: result.folderId, fileId: id })).complete,
          true,
        );
      }
    } finally {
      await limited.close();
    }
  });
});
