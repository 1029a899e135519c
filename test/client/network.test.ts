import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { download, NetworkError, type UploadEvent, upload } from '../../src/client/node/index.js';
import { freePort, spawnServer, tempDir } from '../support/server.js';

/**
 * A network cut in the middle of an upload: the server process is killed (SIGKILL) while chunks are
 * in flight and started again on the same port and DATA_DIR. The client's retries (backoff with
 * jitter) carry the upload through, and the result is byte-identical. With no server at all, the
 * failure is a NetworkError, not a server error.
 */
const MIB = 1024 * 1024;
let dir: string;
before(async () => {
  dir = await tempDir('webfolder-client-net-');
});
after(() => rm(dir, { recursive: true, force: true }));

test('an upload survives the server being killed and restarted mid-upload', async () => {
  const dataDir = join(dir, 'data');
  const port = await freePort();
  // A low chunk rate keeps the upload going while the server is killed.
  const env = {
    DATA_DIR: dataDir,
    CHUNK_SIZE_MIB: '5',
    RATE_LIMIT_CHUNK: '2',
    RATE_LIMIT_WINDOW_SECONDS: '2',
    LOG_LEVEL: 'warn',
  };
  let server = await spawnServer(env, port);
  const content = randomBytes(6 * 5 * MIB + 99); // 7 chunks
  const path = join(dir, 'cut.bin');
  await writeFile(path, content);
  const events: UploadEvent[] = [];
  let killed = false;
  let restarted: Promise<void> | null = null;
  const result = await upload([path], {
    server: server.baseUrl,
    concurrency: 2,
    retry: { retries: 20, baseDelayMs: 200, maxDelayMs: 2000 },
    onProgress: (e) => {
      events.push(e);
      if (e.type === 'chunk' && !killed) {
        killed = true;
        restarted = (async () => {
          await server.kill();
          server = await spawnServer(env, port);
        })();
      }
    },
  });
  await restarted;
  try {
    assert.ok(killed);
    assert.ok(
      events.some((e) => e.type === 'retry' && e.info.status === null),
      'network errors were retried',
    );
    const out = join(dir, 'out');
    await download(result.link, out);
    assert.ok((await readFile(join(out, 'cut.bin'))).equals(content));
  } finally {
    await server.stop();
  }
});

test('no server at all: NetworkError after the retries', async () => {
  const port = await freePort();
  const path = join(dir, 'x.txt');
  await writeFile(path, 'x');
  let retries = 0;
  await assert.rejects(
    upload([path], {
      server: `http://127.0.0.1:${port}`,
      retry: { retries: 2, baseDelayMs: 10 },
      onProgress: (e) => e.type === 'retry' && retries++,
    }),
    NetworkError,
  );
  assert.equal(retries, 2);
});
