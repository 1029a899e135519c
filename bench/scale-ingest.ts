import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { CreateResponseDirect } from '../src/contract/types.js';
import { encryptedLength } from '../src/domain/chunk-plan.js';
import { chunkUrl, plainLength } from '../test/support/api.js';
import { type SpawnedServer, spawnServer, tempDir } from '../test/support/server.js';
import { isUnavailable, startS3 } from '../test/support/services.js';

/**
 * Chunk ingest through presigned S3 URLs (straight to the test S3, a throwaway Ceph RADOS Gateway, the API node out of the byte path)
 * against the local backend (chunks PUT to the API node, which checks and fsyncs them), in the same
 * run: `npx tsx bench/scale-ingest.ts [MiB]`. A file of `MiB` (default 256) in 5 MiB chunks, 4 PUTs in
 * flight, as the CLI and the site upload. Chunk bodies are random bytes made once, outside the timing.
 *
 * The gateway keeps its objects in one OSD's memory (memstore) on this same machine: this measures
 * the shape of the flow on one machine, not what a real object store's cluster would do; with one,
 * the API nodes do no byte work at all. Rounds alternate; the median counts.
 */
const MIB = 1024 * 1024;
const FILE_MIB = Number(process.argv[2] ?? 256);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PARALLEL = 4;
const CHUNK_SIZE_MIB = 5;
const UNLIMITED = { RATE_LIMIT_CREATE: '100000000', RATE_LIMIT_STATUS: '100000000', RATE_LIMIT_CHUNK: '100000000' };

const filesize = FILE_MIB * MIB;
const bodies = new Map<number, Buffer>();
function bodyFor(length: number): Buffer {
  let body = bodies.get(length);
  if (!body) {
    body = randomBytes(length);
    bodies.set(length, body);
  }
  return body;
}

/** Creates a direct upload of one file and PUTs every chunk through its URLs; returns MB/s. */
async function ingest(server: SpawnedServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ encryption: { ske: 'bench' }, files: [{ filename: 'bench', filesize }] }),
  });
  if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
  const created = (await res.json()) as CreateResponseDirect;
  const file = created.files[0]!;
  const queue = Array.from({ length: file.chunks }, (_, i) => i + 1);
  let bytes = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const body = bodyFor(encryptedLength(plainLength(filesize, file.chunkSize, n)));
        const put = await fetch(chunkUrl(file.uploadUrls, n), {
          method: 'PUT',
          headers: file.uploadUrls.headers,
          body: body as unknown as BodyInit,
        });
        await put.arrayBuffer();
        if (put.status !== 200) throw new Error(`chunk ${n}: ${put.status}`);
        bytes += body.length;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const status = await fetch(
    `${server.baseUrl}/v2/folders/${created.folderId}/files/${file.fileId}/upload-status?uploadAuth=${created.uploadAuth}`,
  );
  const progress = (await status.json()) as { complete: boolean };
  if (!progress.complete) throw new Error('upload not complete after every chunk was sent');
  return bytes / MIB / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const s3 = await startS3();
if (isUnavailable(s3)) {
  console.error(s3.skip);
  process.exit(1);
}
const dirs = [await tempDir('webfolder-bench-'), await tempDir('webfolder-bench-')];
const common = {
  ...UNLIMITED,
  CHUNK_SIZE_MIB: String(CHUNK_SIZE_MIB),
  SWEEP_INTERVAL_SECONDS: '3600',
  LOG_LEVEL: 'error',
};
const local = await spawnServer({ ...common, DATA_DIR: dirs[0]! });
const viaS3 = await spawnServer({ ...common, DATA_DIR: dirs[1]!, ...s3.env(s3.freshBucket()) });
try {
  await ingest(local); // warm-up
  await ingest(viaS3);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(await ingest(local));
    b.push(await ingest(viaS3));
  }
  const [l, s] = [median(a), median(b)];
  console.log(
    `ingest (${FILE_MIB} MiB, ${CHUNK_SIZE_MIB} MiB chunks, ${PARALLEL} in flight): presigned S3 (RADOS Gateway) ${s.toFixed(0)} MB/s, local backend ${l.toFixed(0)} MB/s -> ratio S3/local ${(s / l).toFixed(2)}`,
  );
} finally {
  await Promise.all([local.stop(), viaS3.stop()]);
  await s3.stop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
