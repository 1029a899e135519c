import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type RunningServer, startServer } from '../support/server.js';
import { call, createOwned, refused, token } from './owner-support.js';

/**
 * The uploading browser's heartbeat (`POST …/sending`, src/domain/sending.ts) over a real server:
 * what it says is what every recipient's listing says of a file still arriving; only the browser
 * that uploads a file speaks for it; a bad body is a 400 that changes nothing.
 */
let server: RunningServer;
let api: string;
before(async () => {
  server = await startServer({});
  api = `${server.baseUrl}/api/site`;
});
after(() => server.close());

test('a stopped upload is stopped for every recipient at once, and arriving again on the next beat', async () => {
  const owner = token();
  const { folderId } = await createOwned(api, owner, { mode: 'share' });
  const reg = await call(api, 'POST', `/folders/${folderId}/files`, {
    owner,
    body: { files: [{ filename: 'ZW5jcnlwdGVk', filesize: 12_000_000 }] },
  });
  assert.equal(reg.status, 200, reg.text);
  const fileId = reg.json.files[0].fileId as string;
  const stoppedFor = async (who: { owner?: string; visitor?: string }) =>
    (await call(api, 'GET', `/folders/${folderId}/files`, who)).json.files[0].stopped as boolean;
  const recipient = token();
  assert.equal(await stoppedFor({ visitor: recipient }), false, 'registered, nothing said yet: arriving');

  const beat = (sending: boolean, who: { owner?: string; visitor?: string } = { owner }) =>
    call(api, 'POST', `/folders/${folderId}/sending`, { ...who, body: { fileIds: [fileId], sending } });
  assert.equal((await beat(true)).status, 204);
  assert.equal(await stoppedFor({ visitor: recipient }), false);
  assert.equal((await beat(false)).status, 204);
  assert.equal(await stoppedFor({ visitor: recipient }), true, 'the sender stopped it');
  assert.equal(await stoppedFor({ owner }), true);
  assert.equal((await beat(true)).status, 204);
  assert.equal(await stoppedFor({ visitor: recipient }), false, 'resumed: arriving again');

  // Only the browser that uploads the file speaks for it.
  refused(await beat(false, { visitor: token() }), 403, 'forbidden', 'another browser');
  assert.equal(await stoppedFor({ visitor: recipient }), false, 'the refusal changed nothing');
  // Bad bodies: 400 with the field named.
  for (const body of [
    {},
    { fileIds: [], sending: true },
    { fileIds: [fileId], sending: 'yes' },
    { fileIds: [fileId], sending: true, extra: 1 },
  ]) {
    const res = await call(api, 'POST', `/folders/${folderId}/sending`, { owner, body });
    refused(res, 400, 'invalid_request', JSON.stringify(body));
  }
  // A file deleted meanwhile is passed over (the page's last beat after the owner removed it).
  assert.equal((await call(api, 'DELETE', `/folders/${folderId}/files/${fileId}`, { owner })).status, 204);
  assert.equal((await beat(false)).status, 204);
});
