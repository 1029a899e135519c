import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { download, listFolder, type UploadState, upload } from '../../src/client/node/index.js';
import { UploadEndedError } from '../../src/transfer/errors.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * Downloads of a file whose upload is still running, against a real server on loopback.
 * The sender's network is a gate in its fetch: chunk 1 goes through, chunks 2 and 3 wait until the
 * test opens the gate, so the recipient certainly starts while the file is arriving (it is told to
 * wait for a chunk: onWaiting), with no timing assumed.
 */
const MIB = 1024 * 1024;
let server: RunningServer;
let dir: string;
let payload: Buffer;
let payloadPath: string;

before(async () => {
  server = await startServer({ CHUNK_SIZE_MIB: '5' });
  dir = await tempDir('webfolder-arriving-');
  payload = randomBytes(11 * MIB + 777); // 3 chunks: 5, 5, 1 MiB
  payloadPath = join(dir, 'arriving.bin');
  await writeFile(payloadPath, payload);
});
after(() => server.close());

/** An upload whose chunks after the first are held until `open()`; `link` once the folder exists. */
function gatedUpload(extra: { maxDownloads?: number } = {}) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let linkReady!: (state: UploadState) => void;
  const state = new Promise<UploadState>((resolve) => {
    linkReady = resolve;
  });
  const gatedFetch: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (init?.method === 'PUT' && /\/0000[23](\?|$)/.test(url)) await gate;
    return fetch(input, init);
  };
  const done = upload([payloadPath], {
    server: server.baseUrl,
    concurrency: 1,
    fetch: gatedFetch,
    onState: (s) => linkReady(s),
    ...extra,
  });
  done.catch(() => {}); // observed by the tests that need it
  return { open, done, state, link: state.then((s) => `${s.folderUrl}#${s.secret}`) };
}

/** onWaiting for a download; `first` resolves once it waits for chunk `chunk` (held at the sender). */
const waiting = (chunk = 2) => {
  let seen!: () => void;
  const first = new Promise<void>((resolve) => {
    seen = resolve;
  });
  const chunks: number[] = [];
  return {
    first,
    chunks,
    onWaiting: (f: { chunk: number }) => {
      chunks.push(f.chunk);
      if (f.chunk === chunk) seen();
    },
  };
};

test('a download started while the upload runs streams what is stored and completes with the upload', async () => {
  const sender = gatedUpload({ maxDownloads: 1 });
  const link = await sender.link;
  const out = join(dir, 'received');
  const told = waiting();
  const received = download(link, out, { onWaiting: told.onWaiting, arrival: { pauseMs: 20, maxPauseMs: 100 } });
  // The recipient has chunk 1 and waits for chunk 2, still held at the sender.
  await Promise.race([told.first, received.then(() => assert.fail('the download ended without waiting'))]);
  assert.ok(told.chunks.includes(2), `waited for ${told.chunks}`);
  // Nothing is presented as complete while the file is arriving: only the part file exists.
  assert.deepEqual(await readdir(out), ['arriving.bin.webfolder-part']);
  sender.open();
  await sender.done;
  const got = await received;
  assert.equal(got.files.length, 1);
  assert.deepEqual(await readFile(join(out, 'arriving.bin')), payload);
  assert.deepEqual(await readdir(out), ['arriving.bin']);
  // The download limit of 1 was spent by this one download, waiting included: the next is refused.
  const again = await download(link, join(dir, 'again'));
  assert.deepEqual(
    again.skipped.map((s) => s.code),
    ['download_limit_reached'],
  );
});

for (const [ending, end, reason] of [
  [
    'the upload is cancelled (the file removed)',
    async (s: UploadState) =>
      (await listFolder(`${s.folderUrl}#${s.secret}`, { uploadAuth: s.uploadAuth })).client.deleteFile(
        (await listFolder(`${s.folderUrl}#${s.secret}`)).files[0]!.fileId,
      ),
    /upload of "arriving.bin" was cancelled/,
  ],
  [
    'the folder is deleted',
    async (s: UploadState) =>
      (await listFolder(`${s.folderUrl}#${s.secret}`, { uploadAuth: s.uploadAuth })).client.deleteFolder(),
    /folder was deleted or expired while "arriving.bin" was arriving/,
  ],
] as const) {
  test(`when ${ending}, a download of the arriving file fails clearly and leaves no file`, async () => {
    const sender = gatedUpload();
    const link = await sender.link;
    const out = join(dir, `ended-${reason.source.length}`);
    const told = waiting();
    const received = download(link, out, { onWaiting: told.onWaiting, arrival: { pauseMs: 20, maxPauseMs: 100 } });
    // Its end may come while `end` still runs: observed at once, checked below.
    const outcome = received.then(
      () => null,
      (e: unknown) => e,
    );
    await Promise.race([told.first, outcome.then(() => assert.fail('the download ended without waiting'))]);
    await end(await sender.state);
    const error = await outcome;
    assert.ok(error instanceof UploadEndedError && reason.test(error.message), String(error));
    assert.deepEqual(await readdir(out), []);
    sender.open();
    await assert.rejects(sender.done);
  });
}

test('a sender that stops is given up after the stall time, and waitForUploads: false skips the file', async () => {
  const sender = gatedUpload();
  const link = await sender.link;
  const out = join(dir, 'stalled');
  const told = waiting();
  await assert.rejects(
    download(link, out, { onWaiting: told.onWaiting, arrival: { pauseMs: 20, maxPauseMs: 50, stallMs: 200 } }),
    (e: unknown) => e instanceof UploadEndedError && /no part of "arriving.bin" arrived for/.test(e.message),
  );
  assert.deepEqual(await readdir(out), []);
  const skipped = await download(link, join(dir, 'skipped'), { waitForUploads: false });
  assert.deepEqual(
    skipped.skipped.map((s) => s.code),
    ['incomplete'],
  );
  sender.open();
  await sender.done;
});
