import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WebfolderError } from '../../src/transfer/errors.js';
import { SiteClient } from '../../src/transfer/site-client.js';
import { useServer } from '../support/server.js';
import { PASSWORD, token, uploadFile } from './owner-support.js';

/**
 * The owner's controls through the library (SiteClient), as the CLI and the page use them, against a
 * real server: every method, and refusals surfacing as WebfolderError with the server's code.
 */
const server = useServer();
const siteApi = () => `${server.baseUrl}/api/site`;

const NO_RETRY = { retry: { retries: 0 } };

async function refusedWith(promise: Promise<unknown>, status: number, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof WebfolderError, String(error));
    assert.equal(error.status, status);
    assert.equal(error.serverCode, code);
    return true;
  });
}

test('SiteClient: create, settings, counted downloads with tickets, activity, deletions', async () => {
  const ownerToken = token();
  const created = await SiteClient.createFolder(
    siteApi(),
    ownerToken,
    { mode: 'send', ske: 'c2tl', maxDownloads: 1, password: PASSWORD, expiresInHours: 12 },
    NO_RETRY,
  );
  assert.match(created.folderUrl, new RegExp(`/f/${created.folderId}$`));
  const owner = new SiteClient(siteApi(), created.folderId, { ownerToken }, NO_RETRY);
  const visitor = new SiteClient(siteApi(), created.folderId, { visitorToken: token() }, NO_RETRY);
  const info = await owner.info();
  assert.equal(info.createdBy, 'site');
  assert.deepEqual(info.password, PASSWORD);

  const expiresAt = Date.now() + 6 * 3_600_000;
  const changed = await owner.updateFolder({ expiresAt, note: 'bm90ZQ' });
  assert.equal(changed.expiresAt, expiresAt);
  assert.equal(changed.note, 'bm90ZQ');
  await refusedWith(visitor.updateFolder({ note: null }), 403, 'forbidden');

  const { fileId, bytes } = await uploadFile(siteApi(), created.folderId, { owner: ownerToken });
  await refusedWith(visitor.fetchChunk(fileId, 1, 'download'), 403, 'download_ticket_required');
  const ticket = await visitor.startDownload(fileId);
  assert.deepEqual([ticket.downloads, ticket.maxDownloads], [1, 1]);
  const got = await visitor.fetchChunk(fileId, 1, 'download', undefined, ticket.ticket);
  assert.ok(Buffer.from(got).equals(bytes));
  assert.ok(visitor.chunkUrl(fileId, 1, ticket.ticket).endsWith(`?ticket=${encodeURIComponent(ticket.ticket)}`));
  await refusedWith(visitor.startDownload(fileId), 410, 'download_limit_reached');
  const raised = await owner.updateFile(fileId, { maxDownloads: 2 });
  assert.deepEqual([raised.downloads, raised.downloadsLeft], [1, 1]);
  assert.equal((await visitor.startDownload(fileId)).downloads, 2);

  const activity = await owner.activity();
  assert.deepEqual(
    activity.events.map((e) => e.kind),
    ['download', 'download', 'upload'],
  );
  await refusedWith(visitor.activity(), 403, 'forbidden');

  await refusedWith(visitor.deleteFile(fileId), 403, 'forbidden');
  await owner.deleteFile(fileId);
  assert.deepEqual(await owner.listAll(), []);
  await owner.deleteFolder();
  await refusedWith(owner.info(), 404, 'not_found');
});
