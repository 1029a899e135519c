import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { download, upload } from '../../src/client/node/index.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { isUnavailable, type S3Service, startS3 } from '../support/services.js';
import { type BucketProxy, bucketReport, startBucketProxy } from './bucket-proxy.js';

/**
 * No credential header ever follows a chunk download to object storage. The
 * service runs on the S3 backend with a header-logging stand-in as its bucket host; the library
 * and the CLI download a request folder with its owner token (`X-Upload-Auth`), and the bucket
 * must have served the chunks without ever seeing that header. (The page: test/site/redirect-credentials.test.ts.)
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const MIB = 1024 * 1024;
const s3 = await startS3();
const SKIP = isUnavailable(s3) ? s3.skip : false;

describe('chunk downloads never carry credentials to the bucket', { skip: SKIP }, () => {
  const storage = s3 as S3Service;
  let proxy: BucketProxy;
  let server: RunningServer;
  let dir: string;
  before(async () => {
    proxy = await startBucketProxy(storage.endpoint);
    server = await startServer({
      CHUNK_SIZE_MIB: '5',
      ...storage.env(storage.freshBucket()),
      S3_ENDPOINT: proxy.endpoint,
    });
    dir = await tempDir('webfolder-redirect-');
  });
  after(async () => {
    await server?.close();
    await proxy?.close();
    await storage.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function requestFolder(name: string) {
    const content = randomBytes(6 * MIB + 9);
    const path = join(dir, name);
    await writeFile(path, content);
    const result = await upload([path], { server: server.baseUrl, mode: 'request' });
    return { content, result };
  }

  test('the library', async () => {
    const { content, result } = await requestFolder('lib.bin');
    const got = await download(result.link, join(dir, 'lib-out'), { uploadAuth: result.uploadAuth });
    assert.ok((await readFile(got.files[0]!.path)).equals(content));
    const { chunksServed, leaks } = bucketReport(proxy.log, result.folderId);
    assert.equal(chunksServed, 2, 'both chunks came from the bucket');
    assert.deepEqual(leaks, []);
  });

  test('the library, when the site answers with a redirect anyway: it is not followed with the token', async () => {
    const { content, result } = await requestFolder('lib-302.bin');
    let redirects = 0;
    // As a server or proxy that ignores Accept would: ask without application/json, so the site redirects.
    const noJson: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (headers.has('x-upload-auth')) headers.set('accept', 'application/octet-stream');
      const response = await fetch(input, { ...init, headers });
      if (response.status === 302) redirects++;
      return response;
    };
    const got = await download(result.link, join(dir, 'lib-302-out'), { uploadAuth: result.uploadAuth, fetch: noJson });
    assert.ok((await readFile(got.files[0]!.path)).equals(content));
    assert.equal(redirects, 2, 'the site redirected both chunk downloads');
    const { chunksServed, leaks } = bucketReport(proxy.log, result.folderId);
    assert.equal(chunksServed, 2);
    assert.deepEqual(leaks, []);
  });

  test('the CLI', async () => {
    const { content, result } = await requestFolder('cli.bin');
    const out = join(dir, 'cli-out');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'src/client/cli.ts'),
        'download',
        result.link,
        out,
        `--upload-auth=${result.uploadAuth}`,
        '--quiet',
      ],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, `exit ${code}: ${stderr}`);
    assert.ok((await readFile(join(out, 'cli.bin'))).equals(content));
    const { chunksServed, leaks } = bucketReport(proxy.log, result.folderId);
    assert.equal(chunksServed, 2, 'both chunks came from the bucket');
    assert.deepEqual(leaks, []);
  });
});
