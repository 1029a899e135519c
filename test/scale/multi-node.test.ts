import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { after, test } from 'node:test';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { S3BlobStore } from '../../src/blobs/s3/s3-blob-store.js';
import { loadConfig } from '../../src/config/config.js';
import type { CreateResponseDirect, CreateResponseEmpty, UploadUrls } from '../../src/contract/types.js';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { newId, newToken } from '../../src/domain/ids.js';
import { siteApiPath } from '../../src/http/routes/site.js';
import { PostgresMetadataStore } from '../../src/store/postgres/postgres-store.js';
import { chunkUrl, getJson, plainLength, postJson } from '../support/api.js';
import { until } from '../support/poll.js';
import { type SpawnedServer, spawnServer, tempDir } from '../support/server.js';
import {
  isUnavailable,
  type PostgresService,
  type RedisService,
  type S3Service,
  startPostgres,
  startRedis,
  startS3,
} from '../support/services.js';

/**
 * Two API nodes (child processes running the server's entry) on one PostgreSQL, one S3-compatible server and
 * one Redis: what a deployment behind a load balancer looks like. A folder created on one node is
 * uploaded to through URLs from the other, straight to object storage; status is the same from
 * either; rate limits are shared; and with the clock moved past every deadline both nodes sweep at
 * once without deleting anything twice or leaving anything behind.
 */
const services: { pg?: PostgresService; redis?: RedisService; s3?: S3Service } = {};
const nodes: SpawnedServer[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.allSettled(nodes.map((n) => n.kill()));
  await Promise.allSettled([services.pg?.stop(), services.redis?.stop(), services.s3?.stop()]);
  await Promise.allSettled(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const MIB = 1024 * 1024;
const SWEEP_LOG = 'swept expired folders and files';

async function putChunks(
  urls: UploadUrls,
  filesize: number,
  chunkSize: number,
  chunks: number,
  only?: number[],
): Promise<void> {
  const ns = only ?? Array.from({ length: chunks }, (_, i) => i + 1);
  // First, last, then the rest, in parallel: what existing clients do.
  await Promise.all(
    ns.map(async (n) => {
      const body = randomBytes(encryptedLength(plainLength(filesize, chunkSize, n)));
      const res = await fetch(chunkUrl(urls, n), {
        method: 'PUT',
        headers: urls.headers,
        body: body as unknown as BodyInit,
      });
      await res.arrayBuffer();
      assert.equal(res.status, 200, `PUT chunk ${n} to object storage`);
    }),
  );
}

/** foldersDeleted summed over a node's sweep log lines (pino JSON). */
function foldersSwept(output: string): number {
  let total = 0;
  for (const line of output.split('\n')) {
    if (!line.includes(SWEEP_LOG)) continue;
    total += (JSON.parse(line) as { foldersDeleted: number }).foldersDeleted;
  }
  return total;
}

test('two nodes on one PostgreSQL, S3 and Redis', { timeout: 300_000 }, async (t) => {
  const [pgs, redis, s3] = await Promise.all([startPostgres(), startRedis(), startS3()]);
  if (!isUnavailable(pgs)) services.pg = pgs;
  if (!isUnavailable(redis)) services.redis = redis;
  if (!isUnavailable(s3)) services.s3 = s3;
  const missing = [pgs, redis, s3].filter(isUnavailable).map((u) => u.skip);
  if (missing.length > 0 || !services.pg || !services.redis || !services.s3) return void t.skip(missing.join('; '));

  const databaseUrl = await services.pg.freshDatabase();
  const bucket = services.s3.freshBucket();
  const common: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: services.redis.url,
    ...services.s3.env(bucket),
    CHUNK_SIZE_MIB: '5',
    RATE_LIMIT_CREATE: '8',
    RATE_LIMIT_WINDOW_SECONDS: '600',
    SWEEP_INTERVAL_SECONDS: '1',
    LOG_LEVEL: 'info',
  };
  const startNode = async (extra: Record<string, string> = {}) => {
    const dataDir = await tempDir('webfolder-node-');
    dirs.push(dataDir);
    const node = await spawnServer({ ...common, ...extra, DATA_DIR: dataDir });
    nodes.push(node);
    return node;
  };
  // Both start at once on an empty database and a missing bucket: migrations and bucket creation race.
  const [a, b] = await Promise.all([startNode(), startNode()]);
  const siteApi = siteApiPath(loadConfig({ ...common, DATA_DIR: '/tmp' }));
  // Spends from the create bucket (folders created, and site registrations), and folders created.
  let creates = 0;
  let folders = 0;

  await t.test('direct upload: created on A, chunks PUT straight to S3, status the same from A and B', async () => {
    const sizes = [6 * MIB + 123, 777];
    const created = await postJson<CreateResponseDirect>(`${a.baseUrl}/v2/folders`, {
      encryption: { ske: 'ske' },
      files: sizes.map((filesize, i) => ({ filename: `name-${i}`, filesize })),
    });
    creates++;
    folders++;
    assert.equal(created.status, 200);
    const [big, small] = created.body.files as [CreateResponseDirect['files'][0], CreateResponseDirect['files'][0]];
    assert.equal(big.chunks, 2);
    assert.ok(big.uploadUrls.head.startsWith(services.s3!.endpoint), 'URLs point at object storage, not at a node');
    const status = (node: SpawnedServer, fileId: string) =>
      getJson<{ complete: boolean; missing: number[] }>(
        `${node.baseUrl}/v2/folders/${created.body.folderId}/files/${fileId}/upload-status?uploadAuth=${created.body.uploadAuth}`,
      );
    await putChunks(big.uploadUrls, sizes[0]!, big.chunkSize, big.chunks, [2]);
    for (const node of [a, b])
      assert.deepEqual((await status(node, big.fileId)).body, { complete: false, missing: [1] });
    await putChunks(big.uploadUrls, sizes[0]!, big.chunkSize, big.chunks, [1]);
    await putChunks(small.uploadUrls, sizes[1]!, small.chunkSize, small.chunks);
    for (const node of [b, a]) {
      assert.deepEqual((await status(node, big.fileId)).body, { complete: true, missing: [] });
      assert.deepEqual((await status(node, small.fileId)).body, { complete: true, missing: [] });
    }
    // The chunk route of the nodes is not where bytes go with S3.
    const viaNode = await fetch(`${b.baseUrl}/v2/uploads/${created.body.folderId}/${big.fileId}/00001?x=1`, {
      method: 'PUT',
      body: 'x',
    });
    assert.equal(viaNode.status, 404);
  });

  await t.test(
    "browser flow: empty folder created on A, files registered on B, uploaded with B's URLs, status from both",
    async () => {
      const created = await postJson<CreateResponseEmpty>(`${a.baseUrl}/v2/folders`);
      creates++;
      folders++;
      assert.equal(created.status, 200);
      const folderId = created.body.folderId;
      const owner = newToken();
      const headers = { 'x-owner-token': owner };
      const filesize = 5 * MIB + 1;
      const reg = await postJson<{
        claimed: boolean;
        files: Array<{ fileId: string; chunkSize: number; chunks: number; uploadUrls: UploadUrls }>;
      }>(
        `${b.baseUrl}${siteApi}/folders/${folderId}/files`,
        { ske: 'ske', files: [{ filename: 'enc-name', filesize }] },
        headers,
      );
      // A registration signs chunk URLs: it spends from the create bucket too.
      creates++;
      assert.equal(reg.status, 200, JSON.stringify(reg.body));
      assert.equal(reg.body.claimed, true);
      const file = reg.body.files[0]!;
      assert.equal(file.chunks, 2);
      await putChunks(file.uploadUrls, filesize, file.chunkSize, file.chunks);
      for (const node of [a, b]) {
        const res = await fetch(`${node.baseUrl}${siteApi}/folders/${folderId}/files/${file.fileId}/status`, {
          headers,
        });
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { complete: true, missing: [] });
      }
      // Two more files, one uploaded: the listing looks at both not yet seen complete in one batched
      // listing of the folder's prefix (S3BlobStore.listFolderChunks) and finds which is.
      const more = await postJson<{ files: Array<{ fileId: string; chunkSize: number; uploadUrls: UploadUrls }> }>(
        `${b.baseUrl}${siteApi}/folders/${folderId}/files`,
        {
          files: [
            { filename: 'enc-2', filesize: 100 },
            { filename: 'enc-3', filesize: 200 },
          ],
        },
        headers,
      );
      assert.equal(more.status, 200, JSON.stringify(more.body));
      creates++;
      await putChunks(more.body.files[0]!.uploadUrls, 100, more.body.files[0]!.chunkSize, 1);
      const listed = await fetch(`${a.baseUrl}${siteApi}/folders/${folderId}/files`, { headers });
      assert.equal(listed.status, 200);
      const { files } = (await listed.json()) as { files: Array<{ fileId: string; complete: boolean }> };
      assert.deepEqual(
        files.map((f) => [f.fileId, f.complete]),
        [
          [file.fileId, true],
          [more.body.files[0]!.fileId, true],
          [more.body.files[1]!.fileId, false],
        ],
      );
    },
  );

  await t.test('rate limits are shared: exhausted on A, B answers 429', async () => {
    while (creates < 8) {
      assert.equal((await postJson(`${a.baseUrl}/v2/folders`)).status, 200);
      creates++;
      folders++;
    }
    const onA = await postJson<{ error: string }>(`${a.baseUrl}/v2/folders`);
    assert.equal(onA.status, 429);
    const onB = await postJson<{ error: string }>(`${b.baseUrl}/v2/folders`);
    assert.equal(onB.status, 429);
    assert.ok(Number(onB.headers.get('retry-after')) > 0);
    assert.match(onB.body.error, /too many requests/);
  });

  await t.test(
    'both sweepers, clock moved past every deadline: every folder deleted exactly once, nothing left in PostgreSQL or S3',
    async (st) => {
      // More expired folders, each with objects, written straight through the stores.
      const store = await PostgresMetadataStore.open(databaseUrl);
      const blobs = await S3BlobStore.open(loadConfig({ ...common, DATA_DIR: '/tmp' }).s3!, Date.now);
      try {
        const now = Date.now();
        for (let i = 0; i < 40; i++) {
          const folderId = newId();
          const fileId = newId();
          await store.createFolder(
            {
              id: folderId,
              mode: 'send',
              title: `seed ${i}`,
              flow: 'direct',
              createdAt: now,
              ske: 's',
              uploadAuthHash: 'h',
              ownerTokenHash: null,
              ownerPublicKey: null,
              deleteAfter: now + 3_600_000,
            },
            [
              {
                id: fileId,
                folderId,
                position: 0,
                filename: 'f',
                mimetype: null,
                filesize: 10,
                chunkSize: 5 * MIB,
                chunks: 2,
                createdAt: now,
                completedAt: null,
                expiresAt: now + 3_600_000,
                uploaderTag: null,
                sealedKey: null,
              },
            ],
          );
          for (const n of ['00001', '00002']) {
            await blobs.client.send(
              new PutObjectCommand({ Bucket: bucket, Key: `${folderId}/${fileId}/${n}`, Body: randomBytes(64) }),
            );
          }
        }
      } finally {
        await store.close();
      }
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      const folderCount = async () =>
        Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM folders')).rows[0]!.n);
      const fileCount = async () =>
        Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM files')).rows[0]!.n);
      const objectCount = async () => {
        let count = 0;
        let token: string | undefined;
        do {
          const page = await blobs.client.send(
            new ListObjectsV2Command({ Bucket: bucket, ...(token ? { ContinuationToken: token } : {}) }),
          );
          count += page.KeyCount ?? 0;
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return count;
      };
      try {
        const total = await folderCount();
        assert.equal(total, folders + 40);
        assert.ok((await objectCount()) >= 80 + 5);

        // Restart both nodes 400 days later; both sweep at start and every second.
        await Promise.all([a.stop(), b.stop()]);
        const later = { CLOCK_OFFSET_SECONDS: String(400 * 86400) };
        const [a2, b2] = await Promise.all([startNode(later), startNode(later)]);
        const deadline = Date.now() + 120_000;
        while ((await folderCount()) > 0 || (await objectCount()) > 0) {
          assert.ok(Date.now() < deadline, 'sweepers did not finish');
          await new Promise((r) => setTimeout(r, 250));
        }
        // The last deletion may be logged a moment after it is visible: wait for the logs to count
        // every folder (stopping then waits for any sweep still running, whose deletions would show).
        await until('the sweep logs to count every folder', () =>
          foldersSwept(a2.output()) + foldersSwept(b2.output()) >= total ? true : undefined,
        );
        await Promise.all([a2.stop(), b2.stop()]);
        const sweptA = foldersSwept(a2.output());
        const sweptB = foldersSwept(b2.output());
        st.diagnostic(`folders deleted: node A ${sweptA}, node B ${sweptB}, of ${total}`);
        assert.equal(sweptA + sweptB, total, 'every folder deleted exactly once across both nodes');
        assert.equal(await fileCount(), 0);
        assert.equal(await objectCount(), 0);
        assert.ok(!/sweep failed/.test(a2.output() + b2.output()), 'no sweep failed');
      } finally {
        await db.end();
        await blobs.close();
      }
    },
  );
});
