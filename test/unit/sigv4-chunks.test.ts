import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  type ChunkSigningJob,
  canonicalQueryOf,
  deriveSigningKey,
  signChunks,
} from '../../src/blobs/s3/sigv4-chunks.js';

/**
 * The S3 chunk signer against the SDK's own presigned URLs (getSignedUrl), for a path-style and a
 * virtual-hosted URL.
 */
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const signingDate = new Date(Date.UTC(2026, 10, 21, 20, 0, 0));

async function sdkUrl(pathStyle: boolean, key: string, length: number): Promise<URL> {
  const client = new S3Client({ region: 'eu-central-1', credentials, forcePathStyle: pathStyle });
  try {
    const url = await getSignedUrl(
      client,
      new PutObjectCommand({
        Bucket: 'bucket',
        Key: key,
        ContentLength: length,
        ContentType: 'application/octet-stream',
      }),
      { signingDate, expiresIn: 3600, signableHeaders: new Set(['content-type', 'content-length']) },
    );
    return new URL(url);
  } finally {
    client.destroy();
  }
}

for (const [style, pathStyle, hostname, basePath] of [
  ['path-style', true, 's3.eu-central-1.amazonaws.com', '/bucket/'],
  ['virtual-hosted', false, 'bucket.s3.eu-central-1.amazonaws.com', '/'],
] as const) {
  test(`chunk signatures equal the SDK's SigV4 presign (${style})`, async () => {
    const keys = ['AAAAAAAAAAAAAAAA/B-B_BBBBBBBBBBBB/00001', 'AAAAAAAAAAAAAAAA/B-B_BBBBBBBBBBBB/00002'];
    const lengths = [10_485_781, 77];
    const expected: string[] = [];
    let first: URL | null = null;
    for (const [i, key] of keys.entries()) {
      const url = await sdkUrl(pathStyle, key, lengths[i]!);
      assert.equal(url.host + url.pathname, `${hostname}${basePath}${key}`);
      first ??= url;
      expected.push(url.searchParams.get('X-Amz-Signature')!);
    }
    const job: ChunkSigningJob = {
      signingKeyHex: deriveSigningKey(credentials.secretAccessKey, '20261121', 'eu-central-1', 's3').toString('hex'),
      amzDate: '20261121T200000Z',
      scope: '20261121/eu-central-1/s3/aws4_request',
      basePath,
      canonicalQuery: canonicalQueryOf(first!),
      host: hostname,
      contentType: 'application/octet-stream',
      keys,
      lengths,
    };
    assert.equal(signChunks(job), expected.join(''));
  });
}
