import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { GetBucketCorsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BUCKET_CORS_RULES, CHUNK_CONTENT_TYPE, S3BlobStore } from '../../src/blobs/s3/s3-blob-store.js';
import type { S3Config } from '../../src/config/config.js';
import { chunkName } from '../../src/contract/paths.js';
import { isUnavailable, type S3Service, startS3, useService } from '../support/services.js';
import { blobStoreSuite, chunkUrl } from './blob-store.suite.js';

/**
 * The S3 bytes store against a real S3 on loopback (a throwaway Ceph cluster's RADOS Gateway, or
 * TEST_S3_ENDPOINT), which checks every signature: a URL is good for exactly its key, length and
 * content type, until it expires. An independent SigV4 verifier checks the same offline, for every
 * chunk of a file, against the SDK's own URLs.
 */
function configFor(s3: S3Service, bucket: string): S3Config {
  return {
    endpoint: s3.endpoint,
    region: s3.region,
    bucket,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  };
}

blobStoreSuite('S3 (RADOS Gateway or TEST_S3_ENDPOINT)', async () => {
  const s3 = await startS3();
  if (isUnavailable(s3)) return s3;
  // A page size of 2 makes every listing and delete of more than two chunks paginate.
  const store = await S3BlobStore.open(configFor(s3, s3.freshBucket()), Date.now, { pageSize: 2 });
  return {
    store,
    enforcesSignatures: !s3.emulated,
    keepsChunks: false,
    async objectsUnder(folderId) {
      const out = await store.client.send(new ListObjectsV2Command({ Bucket: store.bucket, Prefix: `${folderId}/` }));
      return (out.Contents ?? []).map((o) => o.Key!);
    },
    async stop() {
      await store.close();
      await s3.stop();
    },
  };
});

// ---------------------------------------------------------------------------------------------------
// SigV4 for presigned URLs, written from AWS's specification, independent of the SDK.

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** The signature S3 would compute for a request to `url` carrying `headers` (lower-case names). */
function expectedSignature(method: string, url: string, headers: Record<string, string>, secret: string): string {
  const u = new URL(url);
  const params = [...u.searchParams.entries()].filter(([k]) => k !== 'X-Amz-Signature');
  const query = params
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const signed = u.searchParams.get('X-Amz-SignedHeaders')!.split(';');
  const all: Record<string, string> = { host: u.host, ...headers };
  const canonicalHeaders = signed.map((name) => `${name}:${(all[name] ?? '').trim()}\n`).join('');
  const canonicalRequest = [
    method,
    u.pathname,
    query,
    canonicalHeaders,
    signed.join(';'),
    u.searchParams.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [, date, region, service] = u.searchParams.get('X-Amz-Credential')!.split('/') as [
    string,
    string,
    string,
    string,
  ];
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    u.searchParams.get('X-Amz-Date')!,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

describe('S3BlobStore specifics', () => {
  const storage = useService(startS3);

  test('the chunk URL rule reproduces every presigned PutObject URL exactly, and each signs key, length and content type', async (t) => {
    const s3 = storage.service;
    if (!s3) return void t.skip(storage.skip);
    const fixedNow = Date.UTC(2026, 10, 21, 20, 0, 0);
    const store = await S3BlobStore.open(configFor(s3, s3.freshBucket()), () => fixedNow);
    try {
      const lengths = [10_485_760 + 21 + 17 * 161, 10_485_760 + 21 + 17 * 161, 4321];
      const req = {
        folderId: 'AAAAAAAAAAAAAAAA',
        fileId: 'B-B_BBBBBBBBBBBB',
        chunks: 3,
        chunkLength: (n: number) => lengths[n - 1]!,
        expiresAt: fixedNow + 3_600_000,
      };
      const urls = await store.presignUploads(req);
      assert.deepEqual(urls.headers, { 'Content-Type': CHUNK_CONTENT_TYPE });
      assert.equal(urls.head, `${s3.endpoint}/${store.bucket}/`, 'path-style head: endpoint and bucket');
      for (let n = 1; n <= 3; n++) {
        // The SDK's own presigned URL for the same object, date and validity.
        const sdkUrl = await getSignedUrl(
          store.client,
          new PutObjectCommand({
            Bucket: store.bucket,
            Key: `${req.folderId}/${req.fileId}/${chunkName(n)}`,
            ContentLength: lengths[n - 1],
            ContentType: CHUNK_CONTENT_TYPE,
          }),
          {
            expiresIn: 3600,
            signingDate: new Date(fixedNow),
            signableHeaders: new Set(['content-type', 'content-length']),
          },
        );
        const ruleUrl = chunkUrl(urls, n);
        // Same string once the SDK's signature parameter is moved to the end (where the rule puts it).
        const sig = /(?:^|&)(X-Amz-Signature=[0-9a-f]{64})/.exec(sdkUrl.split('?')[1]!)![1]!;
        const [base, query] = sdkUrl.split('?') as [string, string];
        const reordered = `${base}?${query
          .split('&')
          .filter((p) => p !== sig)
          .join('&')}&${sig}`;
        assert.equal(ruleUrl, reordered, `chunk ${n}`);
        // And the same request: same address, same parameters.
        const a = new URL(ruleUrl);
        const b = new URL(sdkUrl);
        assert.equal(a.origin + a.pathname, b.origin + b.pathname);
        assert.deepEqual([...a.searchParams].sort(), [...b.searchParams].sort());

        // What S3 checks, computed independently: the URL is good for this chunk's exact length and
        // content type, and for nothing else.
        assert.deepEqual(a.searchParams.get('X-Amz-SignedHeaders')!.split(';'), [
          'content-length',
          'content-type',
          'host',
        ]);
        assert.equal(a.searchParams.get('X-Amz-Date'), '20261121T200000Z');
        assert.equal(a.searchParams.get('X-Amz-Expires'), '3600');
        const good = { 'content-length': String(lengths[n - 1]), 'content-type': CHUNK_CONTENT_TYPE };
        assert.equal(expectedSignature('PUT', ruleUrl, good, s3.secretAccessKey), urls.signatures[n - 1]);
        assert.notEqual(
          expectedSignature(
            'PUT',
            ruleUrl,
            { ...good, 'content-length': String(lengths[n - 1]! + 1) },
            s3.secretAccessKey,
          ),
          urls.signatures[n - 1],
        );
        assert.notEqual(
          expectedSignature('PUT', ruleUrl, { ...good, 'content-type': 'text/html' }, s3.secretAccessKey),
          urls.signatures[n - 1],
        );
        const otherChunk = ruleUrl.replace(`/${chunkName(n)}?`, `/${chunkName(n === 3 ? 1 : n + 1)}?`);
        assert.notEqual(expectedSignature('PUT', otherChunk, good, s3.secretAccessKey), urls.signatures[n - 1]);
      }
      assert.ok(
        !/x-amz-checksum|x-amz-sdk-checksum/i.test(urls.tail),
        'no checksum of an empty body is signed into the URLs',
      );
    } finally {
      await store.close();
    }
  });

  test('the gateway refuses a chunk URL tampered with, a short or long body, another chunk, another file, and an expired URL', async (t) => {
    const s3 = storage.service;
    if (!s3) return void t.skip(storage.skip);
    if (s3.emulated) return void t.skip('this S3 does not check signatures');
    const bucket = s3.freshBucket();
    const store = await S3BlobStore.open(configFor(s3, bucket), Date.now);
    // Signed two hours ago for one minute: expired, though its signature is right.
    const past = Date.now() - 7_200_000;
    const old = await S3BlobStore.open(configFor(s3, bucket), () => past);
    try {
      const lengths = [100, 50];
      const req = {
        folderId: 'RRRRRRRRRRRRRRRR',
        fileId: 'SSSSSSSSSSSSSSSS',
        chunks: 2,
        chunkLength: (n: number) => lengths[n - 1]!,
        expiresAt: Date.now() + 3_600_000,
      };
      const urls = await store.presignUploads(req);
      const otherFile = await store.presignUploads({ ...req, fileId: 'TTTTTTTTTTTTTTTT' });
      const expired = await old.presignUploads({ ...req, expiresAt: past + 60_000 });
      const put = async (url: string, length: number) => {
        const res = await fetch(url, { method: 'PUT', headers: urls.headers, body: Buffer.alloc(length, 7) });
        await res.arrayBuffer();
        return res.status;
      };
      const one = chunkUrl(urls, 1);
      const sig = urls.signatures[0]!;
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
      const refused: Record<string, [string, number]> = {
        'a tampered signature': [one.replace(sig, flipped), 100],
        'a short body': [one, 99],
        'a long body': [one, 101],
        "chunk 1's signature on chunk 2": [one.replace(`/${chunkName(1)}?`, `/${chunkName(2)}?`), 100],
        "another file's signature": [chunkUrl(otherFile, 1).replace(otherFile.signatures[0]!, sig), 100],
        'an expired URL': [chunkUrl(expired, 1), 100],
      };
      for (const [what, [url, length]] of Object.entries(refused)) assert.equal(await put(url, length), 403, what);
      assert.equal((await store.listChunks(req)).size, 0, 'nothing was stored by a refused URL');
      assert.equal(await put(one, 100), 200, 'the URL as signed, with its length');
      assert.equal(await put(chunkUrl(urls, 2), 50), 200);
      assert.deepEqual(
        [...(await store.listChunks(req)).entries()],
        [
          [1, 100],
          [2, 50],
        ],
      );
    } finally {
      await Promise.all([store.close(), old.close()]);
    }
  });

  test('a missing bucket is created at open, with the CORS rules browsers need; concurrent opens agree', async (t) => {
    const s3 = storage.service;
    if (!s3) return void t.skip(storage.skip);
    const bucket = s3.freshBucket();
    const stores = await Promise.all([1, 2, 3].map(() => S3BlobStore.open(configFor(s3!, bucket), Date.now)));
    try {
      const cors = await stores[0]!.client.send(new GetBucketCorsCommand({ Bucket: bucket }));
      const rule = cors.CORSRules?.[0];
      assert.ok(rule, 'CORS rules are set');
      assert.deepEqual([...(rule.AllowedMethods ?? [])].sort(), [...BUCKET_CORS_RULES[0]!.AllowedMethods].sort());
      assert.deepEqual(rule.AllowedOrigins, ['*']);
      // Opening an existing bucket works and leaves it as it is.
      const again = await S3BlobStore.open(configFor(s3, bucket), Date.now);
      await again.close();
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  test('listFolderChunks answers each wanted file as listChunks does, in no more requests than files, one for small files', async (t) => {
    const s3 = storage.service;
    if (!s3) return void t.skip(storage.skip);
    const bucket = s3.freshBucket();
    const small = await S3BlobStore.open(configFor(s3, bucket), Date.now, { pageSize: 3 });
    const paged = await S3BlobStore.open(configFor(s3, bucket), Date.now);
    try {
      const folder = 'FFFFFFFFFFFFFFFF';
      const put = (key: string, size: number) =>
        small.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(size) }));
      // b: 5 chunks (more than a page), c: a chunk and a thumbnail, d: not wanted, e: 2 chunks;
      // a has none; another folder's keys must not leak in.
      const layout: Record<string, number[]> = { b: [1, 2, 3, 4, 5], c: [1], d: [1, 2, 3, 4], e: [1, 2] };
      for (const [f, ns] of Object.entries(layout))
        for (const n of ns) await put(`${folder}/${f.repeat(16)}/${chunkName(n)}`, 10 + n);
      await put(`${folder}/${'c'.repeat(16)}/thumbnail`, 7);
      await put(`GGGGGGGGGGGGGGGG/${'b'.repeat(16)}/${chunkName(9)}`, 3);
      const wanted = ['e', 'a', 'c', 'b'].map((f) => f.repeat(16));
      const counted = (store: S3BlobStore) => {
        let lists = 0;
        const send = store.client.send.bind(store.client);
        store.client.send = ((command: unknown, ...rest: unknown[]) => {
          if (command instanceof ListObjectsV2Command) lists++;
          return (send as (...a: unknown[]) => unknown)(command, ...rest);
        }) as typeof store.client.send;
        return () => lists;
      };
      const lists = counted(small);
      const found = await small.listFolderChunks(folder, wanted);
      assert.deepEqual([...found.keys()].sort(), [...wanted].sort());
      for (const id of wanted)
        assert.deepEqual(found.get(id), await paged.listChunks({ folderId: folder, fileId: id }), `file ${id[0]}`);
      assert.ok(lists() <= wanted.length, `${lists()} requests for ${wanted.length} files`);
      // A page of small files: one request, however many files.
      for (let i = 0; i < 20; i++) await put(`HHHHHHHHHHHHHHHH/${String(i).padStart(16, '0')}/${chunkName(1)}`, 5);
      const one = counted(paged);
      const many = await paged.listFolderChunks(
        'HHHHHHHHHHHHHHHH',
        Array.from({ length: 20 }, (_, i) => String(i).padStart(16, '0')),
      );
      assert.equal(one(), 1);
      assert.ok([...many.values()].every((m) => m.get(1) === 5));
    } finally {
      await Promise.all([small.close(), paged.close()]);
    }
  });

  test('presignUploads keeps head and tail shared for a file of many chunks', async (t) => {
    const s3 = storage.service;
    if (!s3) return void t.skip(storage.skip);
    const store = await S3BlobStore.open(configFor(s3, s3.freshBucket()), Date.now);
    try {
      const urls = await store.presignUploads({
        folderId: 'CCCCCCCCCCCCCCCC',
        fileId: 'DDDDDDDDDDDDDDDD',
        chunks: 300,
        chunkLength: () => 5_243_000,
        expiresAt: Date.now() + 7 * 86_400_000 + 60_000,
      });
      assert.equal(urls.signatures.length, 300);
      assert.equal(new Set(urls.signatures).size, 300);
      // Validity is capped at SigV4's seven days.
      assert.equal(new URLSearchParams(urls.tail).get('X-Amz-Expires'), String(7 * 86400));
    } finally {
      await store.close();
    }
  });
});
