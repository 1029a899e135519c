import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { download, getUploadStatus, type UploadState, upload } from '../../src/client/node/index.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { type S3Service, startS3, type Unavailable } from '../support/services.js';

/**
 * The same client, unchanged, against the S3 backend: chunks go straight to object storage through
 * presigned URLs built by the file.kiwi rule, upload-status reads the bucket, and the download
 * follows the site's redirects to presigned GETs. Skips when no S3-compatible server is available.
 */
const MIB = 1024 * 1024;
const s3OrSkip: S3Service | Unavailable = await startS3();
const SKIP = 'skip' in s3OrSkip ? s3OrSkip.skip : false;

describe('client against the S3 backend', { skip: SKIP }, () => {
  const s3 = s3OrSkip as S3Service;
  let server: RunningServer;
  let dir: string;
  before(async () => {
    server = await startServer({ CHUNK_SIZE_MIB: '5', ...s3.env(s3.freshBucket()) });
    dir = await tempDir('webfolder-client-s3-');
  });
  after(async () => {
    await server?.close();
    await s3.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('upload to presigned S3 URLs, status complete, download byte-identical', async () => {
    const content = randomBytes(11 * MIB + 17);
    const path = join(dir, 'to-s3.bin');
    await writeFile(path, content);
    const result = await upload([path], { server: server.baseUrl });
    assert.equal(result.chunksSent, 3);
    const status = await getUploadStatus({
      server: server.baseUrl,
      folderId: result.folderId,
      fileId: result.fileIds[0]!,
      uploadAuth: result.uploadAuth,
    });
    assert.deepEqual(status, { complete: true, missing: [] });
    const out = join(dir, 'out');
    await download(result.link, out);
    assert.ok((await readFile(join(out, 'to-s3.bin'))).equals(content));
  });

  test('a file with a download limit downloads while it arrives: waiting spends nothing of its ticket', async () => {
    // The sender's chunks 2 and 3 wait at a gate until the recipient has waited for chunk 2,
    // so the download certainly overlaps the upload.
    const content = randomBytes(11 * MIB + 5);
    const path = join(dir, 'arriving-s3.bin');
    await writeFile(path, content);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let ready!: (s: UploadState) => void;
    const state = new Promise<UploadState>((resolve) => {
      ready = resolve;
    });
    const sending = upload([path], {
      server: server.baseUrl,
      concurrency: 1,
      maxDownloads: 1,
      onState: (s) => ready(s),
      fetch: async (url, init) => {
        if (init?.method === 'PUT' && /\/0000[23]\?/.test(url)) await gate;
        return fetch(url, init);
      },
    });
    const s = await state;
    let waits = 0;
    let waited!: () => void;
    const waitedFor2 = new Promise<void>((resolve) => {
      waited = resolve;
    });
    const receiving = download(`${s.folderUrl}#${s.secret}`, join(dir, 'arriving-out'), {
      arrival: { pauseMs: 20, maxPauseMs: 50 },
      onWaiting: ({ chunk }) => {
        if (chunk === 2 && ++waits === 5) waited(); // several looks, each of which would have been charged
      },
    });
    await Promise.race([waitedFor2, receiving.then(() => assert.fail('the download ended without waiting'))]);
    open();
    await sending;
    const got = await receiving;
    assert.equal(got.files.length, 1);
    assert.ok((await readFile(join(dir, 'arriving-out', 'arriving-s3.bin'))).equals(content));
  });
});
