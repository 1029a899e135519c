import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { S3BlobStore } from '../../src/blobs/s3/s3-blob-store.js';
import { RFC8188_RECORD_SIZE } from '../../src/domain/chunk-plan.js';
import { useServer } from '../support/server.js';
import { isUnavailable, type S3Service, startPostgres, startS3 } from '../support/services.js';
import { call, createOwned, refused, token, uploadFile } from './owner-support.js';

/**
 * The owner's deletions and limits on the S3 backend (the tests' RADOS Gateway, or TEST_S3_ENDPOINT), with PostgreSQL
 * as the metadata store when it is available (the scale-out set-up): when DELETE answers, the
 * objects are gone from the bucket (listed after the call); a limited file's chunk is presigned only
 * for a caller with a ticket.
 */
const s3 = await startS3();
const skip = isUnavailable(s3) ? s3.skip : false;
const pg = skip ? null : await startPostgres();

describe('owner controls on S3', { skip }, () => {
  const storage = s3 as S3Service;
  let bucket: string;
  const server = useServer(async () => {
    bucket = storage.freshBucket();
    const database: Record<string, string> = pg && !isUnavailable(pg) ? { DATABASE_URL: await pg.freshDatabase() } : {};
    return { env: { ...storage.env(bucket), ...database } };
  });
  let api: string;
  before(() => {
    api = `${server.baseUrl}/api/site`;
  });
  after(async () => {
    await storage.stop();
    if (pg && !isUnavailable(pg)) await pg.stop();
  });

  /** Every object key under `prefix`, read from the bucket itself. */
  async function keys(prefix: string): Promise<string[]> {
    const { client } = server.server.services.blobs as S3BlobStore;
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const o of page.Contents ?? []) found.push(o.Key!);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  test('deleting a file, then the folder: the objects are gone when each call returns', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner);
    const a = await uploadFile(api, folderId, { owner }, 3000);
    const b = await uploadFile(api, folderId, { owner }, 2000);
    // An encrypted thumbnail beside the file's chunks (an RFC 8188 header and one record).
    const message = Buffer.alloc(21 + 64, 1);
    message.writeUInt32BE(RFC8188_RECORD_SIZE, 16);
    message.writeUInt8(0, 20);
    const thumb = await fetch(`${api}/folders/${folderId}/files/${a.fileId}/thumbnail`, {
      method: 'PUT',
      headers: { 'x-owner-token': owner, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(message),
    });
    assert.equal(thumb.status, 204, await thumb.text());
    const before = await keys(`${folderId}/`);
    assert.ok(before.filter((k) => k.includes(a.fileId)).length >= 2, `chunk and thumbnail: ${before.join()}`);
    assert.ok(
      before.some((k) => k.includes(b.fileId)),
      before.join(),
    );
    assert.equal((await call(api, 'DELETE', `/folders/${folderId}/files/${a.fileId}`, { owner })).status, 204);
    const afterFile = await keys(`${folderId}/`);
    assert.deepEqual(
      afterFile.filter((k) => k.includes(a.fileId)),
      [],
      'no object of the deleted file (chunks, thumbnail) is left',
    );
    assert.ok(
      afterFile.some((k) => k.includes(b.fileId)),
      'the other file stays',
    );
    assert.equal((await call(api, 'DELETE', `/folders/${folderId}`, { owner })).status, 204);
    assert.deepEqual(await keys(`${folderId}/`), [], 'no object of the folder is left');
    refused(await call(api, 'GET', `/folders/${folderId}`, { owner }), 404, 'not_found', 'the folder after');
  });

  test('a limited file is presigned only with a ticket; the limit refuses with 410', async () => {
    const owner = token();
    const { folderId } = await createOwned(api, owner, { maxDownloads: 1 });
    const { fileId, bytes } = await uploadFile(api, folderId, { owner });
    const chunk = `/folders/${folderId}/files/${fileId}/chunks/1`;
    refused(
      await call(api, 'GET', chunk, { accept: 'application/json' }),
      403,
      'download_ticket_required',
      'no ticket',
    );
    const started = await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, {});
    assert.equal(started.status, 200, started.text);
    const presigned = await call(api, 'GET', chunk, { ticket: started.json.ticket, accept: 'application/json' });
    assert.equal(presigned.status, 200, presigned.text);
    const got = Buffer.from(await (await fetch(presigned.json.url)).arrayBuffer());
    assert.ok(got.equals(bytes));
    refused(
      await call(api, 'POST', `/folders/${folderId}/files/${fileId}/downloads`, {}),
      410,
      'download_limit_reached',
      'the second download',
    );
  });
});
