import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { download, getUploadStatus, type UploadState, upload } from '../../src/client/node/index.js';
import { loadConfig } from '../../src/config/config.js';
import { siteApiPath } from '../../src/http/routes/site.js';
import { startCli } from '../support/cli.js';
import { until } from '../support/poll.js';
import { type SpawnedServer, spawnServer, tempDir } from '../support/server.js';
import { isUnavailable, type PostgresService, type S3Service, startPostgres, startS3 } from '../support/services.js';

/**
 * Faults of a scale-out deployment that touch uploads: two API nodes (child processes) on one
 * PostgreSQL and one S3 (the RADOS Gateway of a throwaway Ceph cluster), a node killed with SIGKILL
 * while the CLI uploads through it, and object storage lost in the middle of an upload.
 */
const MIB = 1024 * 1024;
const state: { pg?: PostgresService; s3?: S3Service; skip?: string } = {};
const nodes: SpawnedServer[] = [];
const spare: SpawnedServer[] = [];
const dirs: string[] = [];
let common: Record<string, string> = {};
let work = '';

before(async () => {
  const [pgs, s3] = await Promise.all([startPostgres(), startS3()]);
  if (!isUnavailable(pgs)) state.pg = pgs;
  if (!isUnavailable(s3)) state.s3 = s3;
  const missing = [pgs, s3].filter(isUnavailable).map((u) => u.skip);
  if (missing.length > 0) state.skip = missing.join('; ');
  else if (!state.s3?.control) state.skip = 'the S3 fault needs the S3 started by the tests (unset TEST_S3_ENDPOINT)';
  if (state.skip) return;
  common = {
    DATABASE_URL: await state.pg!.freshDatabase(),
    ...state.s3!.env(state.s3!.freshBucket()),
    CHUNK_SIZE_MIB: '5',
    RATE_LIMIT_CREATE: '100000',
    RATE_LIMIT_STATUS: '100000',
    LOG_LEVEL: 'warn',
  };
  work = await tempDir('webfolder-s3-faults-');
  dirs.push(work);
  nodes.push(...(await Promise.all([startNode(), startNode()])));
});
after(async () => {
  await Promise.allSettled([...nodes, ...spare].map((n) => n.kill()));
  await Promise.allSettled([state.pg?.stop(), state.s3?.stop()]);
  await Promise.allSettled(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function startNode(): Promise<SpawnedServer> {
  const dataDir = await tempDir('webfolder-s3-fault-node-');
  dirs.push(dataDir);
  return spawnServer({ ...common, DATA_DIR: dataDir });
}

test('a node SIGKILLed mid-upload: `webfolder resume STATE --server <the other node>` finishes the upload', {
  timeout: 180_000,
}, async (t) => {
  if (state.skip) return void t.skip(state.skip);
  // A node of its own to kill, so the pair stays for the next test.
  const doomed = await startNode();
  spare.push(doomed);
  const survivor = nodes[0]!;
  const content = randomBytes(23 * MIB + 11);
  const path = join(work, 'big.bin');
  await writeFile(path, content);
  const statePath = join(work, 'big.state.json');
  const env = { WEBFOLDER_STATE_DIR: join(work, 'states') };
  const first = startCli(['upload', path, '--server', doomed.baseUrl, '--state', statePath, '--retries', '1'], env);
  // The folder exists once the state file does: the node goes while the chunks are on their way.
  await until('the upload to have created its folder', () => existsSync(statePath), 60_000);
  await doomed.kill();
  const interrupted = await first.done;
  assert.notEqual(interrupted.code, 0, 'the upload could not finish on the killed node');
  assert.ok(existsSync(statePath), `the state file is kept:\n${interrupted.stderr}`);
  const saved = JSON.parse(await readFile(statePath, 'utf8')) as UploadState;
  assert.equal(saved.server, doomed.baseUrl);

  const resumed = await startCli(['resume', statePath, '--server', survivor.baseUrl, '--json'], env).done;
  assert.equal(resumed.code, 0, `resume through the other node:\n${resumed.stderr}`);
  assert.ok(!existsSync(statePath), 'a finished upload removes its state');
  for (const node of nodes) {
    const status = await getUploadStatus({
      server: node.baseUrl,
      folderId: saved.folderId,
      fileId: saved.files[0]!.fileId,
      uploadAuth: saved.uploadAuth,
    });
    assert.deepEqual(status, { complete: true, missing: [] });
  }
  const link = `${saved.folderUrl.replace(doomed.baseUrl, survivor.baseUrl)}#${saved.secret}`;
  const out = join(work, 'big-out');
  await download(link, out);
  assert.ok((await readFile(join(out, 'big.bin'))).equals(content), 'the file arrives whole');
});

test('object storage lost mid-upload: the nodes answer unavailable and are not ready; once it is back the upload finishes', {
  timeout: 180_000,
}, async (t) => {
  if (state.skip) return void t.skip(state.skip);
  const control = state.s3!.control!;
  const [a, b] = nodes as [SpawnedServer, SpawnedServer];
  const siteApi = siteApiPath(loadConfig({ DATA_DIR: '/tmp' }));
  const content = randomBytes(16 * MIB + 3);
  const path = join(work, 'during-outage.bin');
  await writeFile(path, content);
  let saved: UploadState | undefined;
  let halted = false;
  let lostAt = 0;
  let refusedPuts = 0;
  const sending = upload([path], {
    server: a.baseUrl,
    concurrency: 1,
    // Enough patience for the outage below: a client that retries with backoff.
    retry: { retries: 30, baseDelayMs: 100, maxDelayMs: 500 },
    onState: (s) => {
      saved = s;
    },
    fetch: async (url, init) => {
      // Object storage goes away just as chunk 3 is sent.
      if (init?.method === 'PUT' && /\/00003\?/.test(url) && !halted) {
        halted = true;
        await control.halt();
        lostAt = Date.now();
      }
      try {
        return await fetch(url, init);
      } catch (error) {
        if (init?.method === 'PUT') refusedPuts++;
        throw error;
      }
    },
  });
  await until('object storage to be lost mid-upload', () => lostAt > 0 && refusedPuts > 0, 60_000);
  const s = saved!;
  const fileId = s.files[0]!.fileId;
  for (const node of [a, b]) {
    const status = await fetch(
      `${node.baseUrl}/v2/folders/${s.folderId}/files/${fileId}/upload-status?uploadAuth=${s.uploadAuth}`,
    );
    assert.equal(status.status, 500, 'the v2 contract lists no 503: upload-status answers 500 with the code');
    assert.deepEqual(await status.json(), {
      error: 'the object storage is unavailable: retry shortly',
      code: 'unavailable',
    });
    // The site's routes are not bound by the contract's statuses: 503.
    const files = await fetch(`${node.baseUrl}${siteApi}/folders/${s.folderId}/files`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(files.status, 503, "the site's file list while object storage is down");
    assert.equal(((await files.json()) as { code: string }).code, 'unavailable');
    const ready = await fetch(`${node.baseUrl}/readyz`);
    assert.equal(ready.status, 503);
    assert.match(((await ready.json()) as { checks: Record<string, string> }).checks.blobs!, /^down: /);
    assert.equal((await fetch(`${node.baseUrl}/healthz`)).status, 200);
  }
  await control.resume();
  const back = Date.now();
  const result = await sending;
  const finished = Date.now() - back;
  for (const node of [a, b])
    await until('readyz to say ready again', async () => (await fetch(`${node.baseUrl}/readyz`)).status === 200);
  const ready = Date.now() - back;
  assert.equal(result.chunksSent, 4);
  const out = join(work, 'outage-out');
  await download(result.link, out);
  assert.ok((await readFile(join(out, 'during-outage.bin'))).equals(content));
  for (const node of nodes) assert.equal(node.child.exitCode, null, 'no node exited');
  t.diagnostic(
    `object storage down ${back - lostAt} ms (${refusedPuts} chunk PUTs refused); upload finished ${finished} ms and both nodes ready ${ready} ms after the gateway was back`,
  );
});
