import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createSke, decryptChunk, type FolderKey, generateSecret, importSecret } from '../../src/crypto/index.js';
import {
  blobSource,
  type CreateResponseDirect,
  createFolder,
  type Fetch,
  getUploadStatus,
  ProtocolError,
  type Registrar,
  type RunEvent,
  registerFiles,
  resumeFile,
  sendChunks,
  UploadRun,
} from '../../src/transfer/index.js';
import { useServer } from '../support/server.js';

/**
 * The one upload orchestrator (src/transfer/upload-run.ts) against a real server on loopback, with a
 * registrar over the v2 API: registration of encrypted entries, one progress model, the second
 * round that sends what upload-status still lists, resume from the missing list, and the two
 * failure policies (library: throw; page: fail the file, Cancel resolves 'cancelled').
 */
const MIB = 1024 * 1024;
const server = useServer({ CHUNK_SIZE_MIB: '5' });

/** A registrar over the v2 API (what direct-upload.ts does, without the folder settings). */
function v2Registrar(key: FolderKey): Registrar & { folder: () => CreateResponseDirect } {
  let folder: CreateResponseDirect | null = null;
  return {
    folder: () => folder!,
    async register(entries) {
      folder = await createFolder({
        server: server.baseUrl,
        ske: await createSke(key),
        files: entries.map(({ filename, filesize }) => ({ filename, filesize })) as [
          { filename: string; filesize: number },
        ],
      });
      return folder.files;
    },
    async missing(fileId) {
      const status = await getUploadStatus({
        server: server.baseUrl,
        folderId: folder!.folderId,
        fileId,
        uploadAuth: folder!.uploadAuth,
      });
      return status.complete ? [] : status.missing;
    },
  };
}

async function prepare(sizes: number[]) {
  const key = await importSecret(generateSecret());
  const registrar = v2Registrar(key);
  const contents = sizes.map((n) => randomBytes(n));
  const files = await registerFiles(
    registrar,
    contents.map((c, i) => ({ name: `f${i}.bin`, size: c.byteLength, key, source: blobSource(new Blob([c])) })),
  );
  return { key, registrar, contents, files };
}

/**
 * A transport over fetch. `lose` answers a PUT 200 without storing it (a proxy that lost the body:
 * only upload-status can tell); progress is reported once the PUT is answered.
 */
function transport(lose: (url: string) => boolean = () => false, puts: string[] = []): Fetch {
  return async (url, init) => {
    if (init.method === 'PUT') {
      puts.push(url);
      if (lose(url)) return new Response(null, { status: 200 });
    }
    const response = await fetch(url, init);
    if (init.method === 'PUT') init.onUploadProgress?.((init.body as Uint8Array).byteLength);
    return response;
  };
}

async function stored(folderId: string, fileId: string, key: FolderKey): Promise<Buffer> {
  const dir = join(server.dataDir, 'blobs', folderId, fileId);
  const names = (await readdir(dir)).filter((n) => /^\d{5}$/.test(n)).sort();
  return Buffer.concat(await Promise.all(names.map(async (n) => decryptChunk(key, await readFile(join(dir, n))))));
}

const chunkOf = (url: string) => Number(new URL(url).pathname.split('/').pop());

describe('upload run', () => {
  test('registers encrypted entries, sends every chunk, one progress model, each file done once', async () => {
    const { key, registrar, contents, files } = await prepare([11 * MIB + 3, 700]);
    assert.deepEqual(
      files.map((f) => [f.name, f.todo]),
      [
        ['f0.bin', [1, 2, 3]],
        ['f1.bin', [1]],
      ],
    );
    const events: RunEvent[] = [];
    const puts: string[] = [];
    const run = new UploadRun(files, registrar, {
      fetch: transport(() => false, puts),
      onEvent: (e) => events.push(e),
    });
    assert.deepEqual(run.progress().sent, 0);
    const outcome = await run.run();
    assert.equal(outcome.state, 'complete');
    assert.equal(outcome.chunksSent, 4);
    // file.kiwi's order: the first chunk, the last, then the rest.
    assert.deepEqual(puts.filter((u) => u.includes(files[0]!.urls.path)).map(chunkOf), [1, 3, 2]);
    const progress = run.progress();
    assert.equal(progress.sent, progress.total);
    assert.equal(progress.total, 11 * MIB + 703);
    assert.deepEqual(
      outcome.files.map((f) => f.state),
      ['done', 'done'],
    );
    assert.deepEqual(
      events
        .filter((e) => e.type === 'file-done')
        .map((e) => (e as { file: number }).file)
        .sort(),
      [0, 1],
    );
    const folder = registrar.folder();
    for (const [i, f] of folder.files.entries())
      assert.ok((await stored(folder.folderId, f.fileId, key)).equals(contents[i]!));
  });

  test('the first time left waits for a full window of speed: "—" before, an estimate after', async () => {
    const { registrar, files } = await prepare([11 * MIB]);
    let now = 1_000;
    const run = new UploadRun(files, registrar, { clock: () => now });
    assert.equal(run.progress().etaMs, Infinity, 'nothing sent yet');
    run.files[0]!.stored = MIB;
    now += 3_000;
    const early = run.progress();
    assert.ok(early.speed > 0, 'the speed is known after 3 s');
    assert.equal(early.etaMs, Infinity, 'but 3 s of a run say too little for a time left');
    run.files[0]!.stored = 2 * MIB;
    now += 3_000;
    const settled = run.progress();
    assert.ok(Number.isFinite(settled.etaMs) && settled.etaMs > 0, `an estimate after 6 s (${settled.etaMs})`);
  });

  test('a chunk the server never stored is sent again in the second round', async () => {
    const { key, registrar, contents, files } = await prepare([11 * MIB]);
    let lost = 0;
    const puts: string[] = [];
    const run = new UploadRun(files, registrar, {
      fetch: transport((url) => chunkOf(url) === 2 && lost++ === 0, puts),
    });
    const outcome = await run.run();
    assert.equal(outcome.state, 'complete');
    assert.deepEqual(puts.map(chunkOf), [1, 3, 2, 2]);
    assert.equal(run.stored(), 11 * MIB);
    const folder = registrar.folder();
    assert.ok((await stored(folder.folderId, folder.files[0]!.fileId, key)).equals(contents[0]!));
  });

  test('library policy: a chunk still missing after both rounds is thrown', async () => {
    const { registrar, files } = await prepare([700]);
    const run = new UploadRun(files, registrar, { fetch: transport(() => true) });
    await assert.rejects(run.run(), (error: unknown) => {
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /still lists 1 missing chunks of f0\.bin/);
      return true;
    });
  });

  test('page policy: that file fails alone and the others complete', async () => {
    const { registrar, files } = await prepare([700, 800]);
    const bad = files[0]!.urls.path;
    const run = new UploadRun(files, registrar, { failFast: false, fetch: transport((url) => url.includes(bad)) });
    const outcome = await run.run();
    assert.equal(outcome.state, 'failed');
    assert.deepEqual(
      outcome.files.map((f) => f.state),
      ['failed', 'done'],
    );
    assert.ok(outcome.files[0]!.error instanceof ProtocolError);
  });

  test('resume: what upload-status lists is all that is sent, what the server has counts as stored', async () => {
    const { key, registrar, contents, files } = await prepare([11 * MIB]);
    const first = files[0]!;
    // An earlier visit stored chunk 1 only (the engine alone: no check, no second round).
    await sendChunks([{ ...first, label: first.name, todo: [1] }]);
    const again = await resumeFile(registrar, {
      fileId: first.fileId,
      name: first.name,
      size: first.size,
      chunkSize: first.plan.chunkSize,
      chunks: first.plan.chunks,
      key,
      source: first.source,
      urls: first.urls,
    });
    assert.deepEqual(again.todo, [2, 3]);
    const puts: string[] = [];
    const run = new UploadRun([again], registrar, { fetch: transport(() => false, puts) });
    assert.equal(run.progress().sent, 5 * MIB);
    const outcome = await run.run();
    assert.equal(outcome.state, 'complete');
    assert.deepEqual(puts.map(chunkOf), [2, 3]);
    const folder = registrar.folder();
    assert.ok((await stored(folder.folderId, first.fileId, key)).equals(contents[0]!));
  });

  test('page policy: Cancel resolves cancelled, unfinished files are cancelled', async () => {
    const { registrar, files } = await prepare([11 * MIB]);
    const cancel = new AbortController();
    const run = new UploadRun(files, registrar, {
      failFast: false,
      signal: cancel.signal,
      fetch: transport((url) => {
        if (chunkOf(url) === 3) cancel.abort();
        return false;
      }),
    });
    const outcome = await run.run();
    assert.equal(outcome.state, 'cancelled');
    assert.equal(outcome.files[0]!.state, 'cancelled');
    assert.equal(outcome.files[0]!.sending.size, 0);
  });
});
