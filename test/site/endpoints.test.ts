import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { chunkUrl } from '../../src/transfer/urls.js';
import { call as siteCall, token, type Who } from '../site-api/owner-support.js';
import { createEmpty as createEmptyFolder } from '../support/api.js';
import { startServer, useServer } from '../support/server.js';

/**
 * The browser site's JSON endpoints over a real server, without a browser: the claim, the rights of
 * each mode (the server, not the page, refuses), resume, chunk download and the error shapes.
 */
const server = useServer({ CHUNK_SIZE_MIB: '5' });
const api = () => `${server.baseUrl}/api/site`;
const call = (method: string, path: string, opts: Who & { body?: unknown } = {}) => siteCall(api(), method, path, opts);
const MIB = 1024 * 1024;

async function createEmpty(mode: string): Promise<{ folderId: string; folderUrl: string }> {
  return createEmptyFolder(server.baseUrl, { mode });
}

interface UploadUrls {
  head: string;
  path: string;
  tail: string;
  signatures: string[];
  headers: Record<string, string>;
}
async function putChunk(u: UploadUrls, n: number, body: Buffer) {
  const res = await fetch(chunkUrl(u, n), { method: 'PUT', headers: u.headers, body: new Uint8Array(body) });
  assert.equal(res.status, 200, await res.text());
}

const fileEntry = (size: number, extra: Record<string, unknown> = {}) => ({
  filename: 'ZW5jcnlwdGVk',
  filesize: size,
  ...extra,
});

describe('site endpoints', () => {
  test('folder info of an empty folder: deadline, no owner, and opening claims nothing', async () => {
    const f = await createEmpty('send');
    const info = await call('GET', `/folders/${f.folderId}`);
    assert.equal(info.status, 200);
    assert.equal(info.json.mode, 'send');
    assert.equal(info.json.owned, false);
    assert.equal(info.json.isOwner, false);
    assert.equal(info.json.ske, null);
    assert.ok(info.json.uploadDeadline > Date.now() + 23 * 3600_000);
    assert.deepEqual(info.json.rights, { upload: true, list: true, download: true });
    const again = await call('GET', `/folders/${f.folderId}`, { owner: token() });
    assert.equal(again.json.owned, false);
  });

  test('unknown, malformed and deleted folders: 404/400 with {error}; the page answers 404', async () => {
    const unknown = await call('GET', '/folders/AAAAAAAAAAAAAAAA');
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.error, /not found/);
    const bad = await call('GET', '/folders/nope');
    assert.equal(bad.status, 400);
    assert.equal(typeof bad.json.error, 'string');
    const page = await fetch(`${server.baseUrl}/f/AAAAAAAAAAAAAAAA`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const f = await createEmpty('send');
    const ok = await fetch(`${server.baseUrl}/f/${f.folderId}`);
    assert.ok(ok.status === 200 || ok.status === 503, `page status ${ok.status}`);
    assert.match(ok.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  });

  test('the first upload needs the owner credential and the key check', async () => {
    const f = await createEmpty('send');
    const noToken = await call('POST', `/folders/${f.folderId}/files`, {
      body: { files: [fileEntry(10)], ske: 'c2tl' },
    });
    assert.equal(noToken.status, 400);
    assert.match(noToken.json.error, /X-Owner-Token/);
    const noSke = await call('POST', `/folders/${f.folderId}/files`, {
      owner: token(),
      body: { files: [fileEntry(10)] },
    });
    assert.equal(noSke.status, 400);
    assert.match(noSke.json.error, /ske/);
    const extra = await call('POST', `/folders/${f.folderId}/files`, {
      owner: token(),
      body: { files: [fileEntry(10)], ske: 'x', evil: 1 },
    });
    assert.equal(extra.status, 400);
    const badSize = await call('POST', `/folders/${f.folderId}/files`, {
      owner: token(),
      body: { files: [fileEntry(0)], ske: 'x' },
    });
    assert.equal(badSize.status, 400);
    assert.match(badSize.json.error, /files\[0\]\.filesize/);
    const badToken = await call('POST', `/folders/${f.folderId}/files`, {
      owner: 'short',
      body: { files: [fileEntry(1)], ske: 'x' },
    });
    assert.equal(badToken.status, 400);
    const info = await call('GET', `/folders/${f.folderId}`);
    assert.equal(info.json.owned, false, 'refused requests claim nothing');
  });

  test('racing first uploads: exactly one owner', async () => {
    const f = await createEmpty('send');
    const tokens = Array.from({ length: 8 }, token);
    const results = await Promise.all(
      tokens.map((t) =>
        call('POST', `/folders/${f.folderId}/files`, { owner: t, body: { files: [fileEntry(5)], ske: 'c2tl' } }),
      ),
    );
    const owners = results.filter((r) => r.status === 200 && r.json.role === 'owner');
    assert.equal(owners.length, 1, JSON.stringify(results.map((r) => [r.status, r.json])));
    assert.equal(owners[0]!.json.claimed, true);
    // send mode: the losers are visitors, who may not upload.
    for (const r of results) if (r !== owners[0]) assert.equal(r.status, 403);
    const winner = tokens[results.indexOf(owners[0]!)]!;
    const info = await call('GET', `/folders/${f.folderId}`, { owner: winner });
    assert.equal(info.json.isOwner, true);
    assert.equal(info.json.owned, true);
    assert.equal(info.json.uploadDeadline, null);
  });

  for (const [mode, visitorRights] of [
    ['send', { upload: false, list: true, download: true }],
    ['share', { upload: true, list: true, download: true }],
    ['request', { upload: true, list: false, download: false }],
  ] as const) {
    test(`${mode} mode: owner and visitor rights, enforced by the server`, async () => {
      const f = await createEmpty(mode);
      const owner = token();
      const visitor = token();
      const size = 5 * MIB + 100; // two chunks
      const claim = await call('POST', `/folders/${f.folderId}/files`, {
        owner,
        body: { files: [fileEntry(size)], ske: 'c2tl', ownerPublicKey: 'cHVibGlj' },
      });
      assert.equal(claim.status, 200, claim.text);
      assert.equal(claim.json.role, 'owner');
      const file = claim.json.files[0];
      assert.equal(file.chunks, 2);
      const c1 = randomBytes(encryptedLength(5 * MIB));
      const c2 = randomBytes(encryptedLength(100));
      await putChunk(file.uploadUrls, 2, c2);
      const status = await call('GET', `/folders/${f.folderId}/files/${file.fileId}/status`, { owner });
      assert.deepEqual(status.json, { complete: false, missing: [1] });
      await putChunk(file.uploadUrls, 1, c1);

      const vInfo = await call('GET', `/folders/${f.folderId}`, { visitor });
      assert.deepEqual(vInfo.json.rights, visitorRights);
      assert.equal(vInfo.json.isOwner, false);
      assert.equal(vInfo.json.ownerPublicKey, mode === 'request' ? 'cHVibGlj' : vInfo.json.ownerPublicKey);
      const oInfo = await call('GET', `/folders/${f.folderId}`, { owner });
      assert.deepEqual(oInfo.json.rights, { upload: true, list: true, download: true });

      // Owner: list and download, byte for byte.
      const oList = await call('GET', `/folders/${f.folderId}/files`, { owner });
      assert.equal(oList.status, 200);
      assert.equal(oList.json.files.length, 1);
      assert.equal(oList.json.files[0].complete, true);
      assert.equal(oList.json.files[0].mine, true);
      const got = await fetch(`${api()}/folders/${f.folderId}/files/${file.fileId}/chunks/1`, {
        headers: { 'x-owner-token': owner },
      });
      assert.equal(got.status, 200);
      assert.ok(Buffer.from(await got.arrayBuffer()).equals(c1));

      // Visitor: list/download as the mode says.
      const vList = await call('GET', `/folders/${f.folderId}/files`, { visitor });
      assert.equal(vList.status, visitorRights.list ? 200 : 403);
      if (!visitorRights.list) assert.match(vList.json.error, /only the owner/);
      const vChunk = await call('GET', `/folders/${f.folderId}/files/${file.fileId}/chunks/2`, { visitor });
      assert.equal(vChunk.status, visitorRights.download ? 200 : 403);
      const nobody = await call('GET', `/folders/${f.folderId}/files/${file.fileId}/chunks/2`);
      assert.equal(nobody.status, visitorRights.download ? 200 : 403);
      // A wrong owner token is just a visitor.
      const wrong = await call('GET', `/folders/${f.folderId}/files`, { owner: token() });
      assert.equal(wrong.status, visitorRights.list ? 200 : 403);

      // Visitor upload.
      const vUpload = await call('POST', `/folders/${f.folderId}/files`, {
        visitor,
        body: { files: [fileEntry(10, mode === 'request' ? { sealedKey: 'c2VhbGVk' } : {})] },
      });
      assert.equal(vUpload.status, visitorRights.upload ? 200 : 403, vUpload.text);
      if (visitorRights.upload) {
        assert.equal(vUpload.json.role, 'visitor');
        assert.equal(vUpload.json.claimed, false);
        const vFile = vUpload.json.files[0];
        // The uploading visitor can resume its own file; another browser cannot.
        const own = await call('GET', `/folders/${f.folderId}/files/${vFile.fileId}/status`, { visitor });
        assert.deepEqual(own.json, { complete: false, missing: [1] });
        const urls = await call('POST', `/folders/${f.folderId}/files/${vFile.fileId}/upload-urls`, { visitor });
        assert.equal(urls.status, 200);
        assert.equal(urls.json.uploadUrls.signatures.length, 1);
        const other = await call('GET', `/folders/${f.folderId}/files/${vFile.fileId}/status`, { visitor: token() });
        assert.equal(other.status, 403);
      } else {
        assert.match(vUpload.json.error, /only the owner can upload/);
      }
      if (mode === 'request') {
        const unsealed = await call('POST', `/folders/${f.folderId}/files`, {
          visitor,
          body: { files: [fileEntry(10)] },
        });
        assert.equal(unsealed.status, 400);
        assert.match(unsealed.json.error, /sealedKey/);
        const list = await call('GET', `/folders/${f.folderId}/files`, { owner });
        assert.equal(list.json.files[1].sealedKey, 'c2VhbGVk');
      }
    });
  }

  test('chunk download: out-of-range, not yet uploaded, malformed', async () => {
    const f = await createEmpty('share');
    const owner = token();
    const claim = await call('POST', `/folders/${f.folderId}/files`, {
      owner,
      body: { files: [fileEntry(100)], ske: 'c2tl' },
    });
    const fileId = claim.json.files[0].fileId;
    assert.equal((await call('GET', `/folders/${f.folderId}/files/${fileId}/chunks/1`, { owner })).status, 404);
    assert.equal((await call('GET', `/folders/${f.folderId}/files/${fileId}/chunks/2`, { owner })).status, 400);
    assert.equal((await call('GET', `/folders/${f.folderId}/files/${fileId}/chunks/x`, { owner })).status, 400);
    assert.equal((await call('GET', `/folders/${f.folderId}/files/AAAAAAAAAAAAAAAA/chunks/1`, { owner })).status, 404);
    const list = await call('GET', `/folders/${f.folderId}/files`, { owner });
    assert.equal(list.json.files[0].complete, false);
  });

  test('a direct-upload folder opens in the site with its ske', async () => {
    const res = await fetch(`${server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mode: 'send',
        encryption: { ske: 'ZGlyZWN0' },
        files: [{ filename: 'bmFtZQ', filesize: 3 }],
      }),
    });
    const created = (await res.json()) as { folderId: string };
    const info = await call('GET', `/folders/${created.folderId}`);
    assert.equal(info.json.ske, 'ZGlyZWN0');
    assert.equal(info.json.uploadDeadline, null);
    const list = await call('GET', `/folders/${created.folderId}/files`);
    assert.equal(list.json.files.length, 1);
  });

  test('the holder of uploadAuth owns a direct-upload folder; no browser can claim it', async () => {
    const res = await fetch(`${server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mode: 'request',
        encryption: { ske: 'ZGlyZWN0' },
        files: [{ filename: 'bmFtZQ', filesize: 3 }],
      }),
    });
    const created = (await res.json()) as { folderId: string; uploadAuth: string };
    const visitor = await call('GET', `/folders/${created.folderId}`, { visitor: 'v'.repeat(22) });
    assert.equal(visitor.json.owned, true, 'a direct folder has an owner from the start');
    assert.equal(visitor.json.role, 'visitor');
    assert.equal(visitor.json.rights.upload, false, 'no owner key to seal to: visitors cannot upload');
    assert.equal(
      (await call('GET', `/folders/${created.folderId}/files`)).status,
      403,
      'request mode: visitors do not list',
    );
    const owner = await call('GET', `/folders/${created.folderId}`, { uploadAuth: created.uploadAuth });
    assert.equal(owner.json.role, 'owner');
    const listed = await call('GET', `/folders/${created.folderId}/files`, { uploadAuth: created.uploadAuth });
    assert.equal(listed.status, 200);
    assert.equal(listed.json.files.length, 1);
    assert.equal(
      (await call('GET', `/folders/${created.folderId}/files`, { uploadAuth: 'x'.repeat(43) })).status,
      403,
      'a wrong token is a visitor',
    );
    assert.equal((await call('GET', `/folders/${created.folderId}`, { uploadAuth: 'bad token' })).status, 400);
    // The first browser upload does not make a stranger the owner of an API-created folder, and in
    // request mode a visitor cannot upload at all: the folder has no owner key to encrypt to.
    const claim = await call('POST', `/folders/${created.folderId}/files`, {
      owner: 'o'.repeat(43),
      body: { files: [{ filename: 'eA', filesize: 1, sealedKey: 'eA' }], ske: 'x' },
    });
    assert.equal(claim.status, 403);
    assert.match(claim.json.error, /no owner key to encrypt to/);
    const folder = await server.server.services.store.getFolder(created.folderId);
    assert.equal(folder?.ownerTokenHash, null);
  });
});

describe('expired folders', () => {
  test('an empty folder past its 24 hours answers 404, page included', async () => {
    const dataDir = server.dataDir;
    const f = await createEmpty('send');
    // Same data, a clock 25 hours ahead and no sweeper (its start-up sweep would delete the folder
    // first): the read path itself refuses it.
    const later = await startServer({ DATA_DIR: dataDir, CLOCK_OFFSET_SECONDS: String(25 * 3600) }, { sweeper: false });
    try {
      const res = await fetch(`${later.baseUrl}/api/site/folders/${f.folderId}`);
      assert.equal(res.status, 404);
      const body = (await res.json()) as { error: string; code: string };
      assert.match(body.error, /expired|not found/);
      assert.equal(body.code, 'expired', 'the page tells an expired folder by its code, not by the wording');
      const page = await fetch(`${later.baseUrl}/f/${f.folderId}`);
      assert.equal(page.status, 404);
    } finally {
      await later.close();
    }
  });
});
