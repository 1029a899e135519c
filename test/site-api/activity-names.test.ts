import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningServer, startServer } from '../support/server.js';
import { onEveryStore, type StoreSuite } from '../support/stores.js';
import { call, createOwned, token, uploadFile } from './owner-support.js';

/**
 * A deleted file keeps its name in the owner's activity list: the deletion's line
 * carries the file's name as its uploading browser stored it (ciphertext: the server never had the
 * plain name) and, in request mode, the file's sealed key, so the owner's page can decrypt the name
 * after a reload or in another browser. Other lines carry none. On SQLite and on PostgreSQL
 * (TEST_REQUIRE_SERVICES=1 makes a missing PostgreSQL a failure instead of a skip).
 */
interface Line {
  kind: string;
  fileId: string;
  filename: string | null;
  sealedKey: string | null;
}

const suite: StoreSuite = (store, env, skip) => {
  describe(`a deletion's activity line keeps the encrypted name (${store})`, () => {
    let server: RunningServer | null = null;
    let api = '';
    before(async () => {
      const extra = await env();
      if (extra) server = await startServer(extra);
      if (server) api = `${server.baseUrl}/api/site`;
    });
    after(async () => server?.close());

    const lines = async (folderId: string, owner: string): Promise<Line[]> => {
      const res = await call(api, 'GET', `/folders/${folderId}/activity`, { owner });
      assert.equal(res.status, 200, res.text);
      return (res.json.events as Line[]).map(({ kind, fileId, filename, sealedKey }) => ({
        kind,
        fileId,
        filename,
        sealedKey,
      }));
    };

    test('share folder: the delete line has the stored name; uploads and downloads have none', async (t) => {
      if (!server) return void t.skip(skip());
      const owner = token();
      const { folderId } = await createOwned(api, owner);
      const kept = await uploadFile(api, folderId, { owner });
      const gone = await uploadFile(api, folderId, { owner });
      await call(api, 'POST', `/folders/${folderId}/files/${kept.fileId}/downloads`, { visitor: token() });
      assert.equal((await call(api, 'DELETE', `/folders/${folderId}/files/${gone.fileId}`, { owner })).status, 204);
      assert.deepEqual(await lines(folderId, owner), [
        // uploadFile registers the name 'ZW5jcnlwdGVk', as a browser sends an encrypted one.
        { kind: 'delete', fileId: gone.fileId, filename: 'ZW5jcnlwdGVk', sealedKey: null },
        { kind: 'download', fileId: kept.fileId, filename: null, sealedKey: null },
        { kind: 'upload', fileId: gone.fileId, filename: null, sealedKey: null },
        { kind: 'upload', fileId: kept.fileId, filename: null, sealedKey: null },
      ]);
    });

    test("request folder: a visitor's sealed file keeps its name and sealed key; only the owner reads them", async (t) => {
      if (!server) return void t.skip(skip());
      const owner = token();
      const { folderId } = await createOwned(api, owner, { mode: 'request', ownerPublicKey: 'cHVibGljLWtleQ' });
      const visitor = token();
      const reg = await call(api, 'POST', `/folders/${folderId}/files`, {
        visitor,
        body: { files: [{ filename: 'c2VhbGVkIG5hbWU', filesize: 10, sealedKey: 'c2VhbGVkLWtleQ' }] },
      });
      assert.equal(reg.status, 200, reg.text);
      const fileId = reg.json.files[0].fileId as string;
      assert.equal((await call(api, 'DELETE', `/folders/${folderId}/files/${fileId}`, { owner })).status, 204);
      assert.deepEqual(await lines(folderId, owner), [
        { kind: 'delete', fileId, filename: 'c2VhbGVkIG5hbWU', sealedKey: 'c2VhbGVkLWtleQ' },
      ]);
      assert.equal((await call(api, 'GET', `/folders/${folderId}/activity`, { visitor })).status, 403);
    });
  });
};

onEveryStore(suite);
