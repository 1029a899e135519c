import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { UPLOAD_PATH } from '../../src/contract/paths.js';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { newId } from '../../src/domain/ids.js';
import { useServer } from '../support/server.js';
import { isUnavailable, type S3Service, startS3 } from '../support/services.js';

/**
 * The site's endpoints on the S3 backend: uploads go straight to presigned object URLs, and chunk
 * downloads hand out presigned GET URLs (as JSON to the page, so its credential header never
 * travels to the storage; as a 302 otherwise).
 */
const s3 = await startS3();
const skip = isUnavailable(s3) ? s3.skip : false;

describe('site endpoints on S3', { skip }, () => {
  const storage = s3 as S3Service;
  const server = useServer(async () => ({ env: { CHUNK_SIZE_MIB: '5', ...storage.env(storage.freshBucket()) } }));
  after(() => storage.stop());

  test('upload to presigned URLs, list complete, download through a presigned GET', async () => {
    const created = (await (
      await fetch(`${server.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"mode":"request"}',
      })
    ).json()) as { folderId: string };
    const api = `${server.baseUrl}/api/site/folders/${created.folderId}`;
    const owner = randomBytes(32).toString('base64url');
    const reg = await fetch(`${api}/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-owner-token': owner },
      body: JSON.stringify({ files: [{ filename: 'bmFtZQ==', filesize: 1000 }], ske: 'c2tl', ownerPublicKey: 'cGs' }),
    });
    assert.equal(reg.status, 200);
    const file = (
      (await reg.json()) as {
        files: Array<{
          fileId: string;
          uploadUrls: {
            head: string;
            path: string;
            tail: string;
            signatures: string[];
            headers: Record<string, string>;
          };
        }>;
      }
    ).files[0]!;
    const u = file.uploadUrls;
    const body = randomBytes(encryptedLength(1000));
    const put = await fetch(`${u.head}${u.path}/00001?${u.tail}&X-Amz-Signature=${u.signatures[0]}`, {
      method: 'PUT',
      headers: u.headers,
      body: new Uint8Array(body),
    });
    assert.equal(put.status, 200);
    const list = (await (await fetch(`${api}/files`, { headers: { 'x-owner-token': owner } })).json()) as {
      files: Array<{ complete: boolean }>;
    };
    assert.equal(list.files[0]!.complete, true, 'completion seen from the bucket');

    const asJson = await fetch(`${api}/files/${file.fileId}/chunks/1`, {
      headers: { 'x-owner-token': owner, accept: 'application/octet-stream, application/json' },
    });
    assert.equal(asJson.status, 200);
    const { url } = (await asJson.json()) as { url: string };
    assert.ok(url.startsWith(storage.endpoint));
    const got = Buffer.from(await (await fetch(url)).arrayBuffer());
    assert.ok(got.equals(body));
    const redirect = await fetch(`${api}/files/${file.fileId}/chunks/1`, {
      headers: { 'x-owner-token': owner },
      redirect: 'manual',
    });
    assert.equal(redirect.status, 302);
    // request mode: a visitor gets no URL at all.
    const visitor = await fetch(`${api}/files/${file.fileId}/chunks/1`, { headers: { accept: 'application/json' } });
    assert.equal(visitor.status, 403);
  });

  test('the local chunk route is not registered: S3 does not receive chunks, so its path is a plain 404', async () => {
    const route = { method: 'PUT', url: `${UPLOAD_PATH}/:folderId/:fileId/:chunk` } as const;
    assert.equal(server.server.app.hasRoute(route), false);
    assert.equal(server.server.services.capabilities.chunkReceiver, null);
    const put = await fetch(`${server.baseUrl}${UPLOAD_PATH}/${newId()}/${newId()}/00001`, {
      method: 'PUT',
      body: new Uint8Array(10),
    });
    assert.equal(put.status, 404);
    assert.deepEqual(await put.json(), { error: `no route for PUT ${new URL(put.url).pathname}`, code: 'not_found' });
  });
});
