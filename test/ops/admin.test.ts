import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { newToken } from '../../src/domain/ids.js';
import { chunkBody, chunkUrl, createDirect, createEmpty, putChunk } from '../support/api.js';
import { runAdmin } from '../support/cli.js';
import { until } from '../support/poll.js';
import { startHookReceiver } from '../support/receivers.js';
import { startServer } from '../support/server.js';

/**
 * `webfolder admin` through the real launcher (bin/webfolder.js) in a child process, on the store of
 * a running server: list, show, stats, and a take-down whose bytes and record are gone, and whose
 * folder.deleted event the running server delivers.
 */
const SECRET = 'an operator secret of at least thirty-two characters';

const admin = runAdmin;

test('admin list, show, stats and delete on a running server’s store', { timeout: 300_000 }, async () => {
  const hook = await startHookReceiver(Buffer.from(SECRET));
  const srv = await startServer({ WEBHOOK_URL: hook.url, WEBHOOK_SECRET: SECRET, QUOTA_TOTAL_MIB: '100' });
  try {
    const env = { WEBHOOK_URL: hook.url, WEBHOOK_SECRET: SECRET, QUOTA_TOTAL_MIB: '100' };
    const direct = await createDirect(srv.baseUrl, [1000, 2000], { title: 'Contract drafts' });
    const file = direct.files[0]!;
    assert.equal((await putChunk(chunkUrl(file.uploadUrls, 1), {}, chunkBody(1000, file.chunkSize, 1))).status, 200);
    const empty = await createEmpty(srv.baseUrl, { mode: 'share' });

    const list = await admin(['list', '--json', '--data-dir', srv.dataDir], env);
    assert.equal(list.code, 0, list.stderr);
    const listed = (
      JSON.parse(list.stdout) as { folders: Array<{ folderId: string; files: number; bytes: number; owner: string }> }
    ).folders;
    assert.deepEqual(
      listed.map((f) => [f.folderId, f.files, f.bytes, f.owner]),
      [
        [empty.folderId, 0, 0, 'none'],
        [direct.folderId, 2, 3000, 'uploadAuth'],
      ],
    );
    const text = await admin(['list', '--data-dir', srv.dataDir], env);
    assert.match(text.stdout, new RegExp(`${direct.folderId} .* 2 files .*"Contract drafts"`));

    // show takes an id or a share link; it tells whether notifications are on, not where to.
    const show = await admin(['show', `${srv.baseUrl}/f/${direct.folderId}`, '--json', '--data-dir', srv.dataDir], env);
    assert.equal(show.code, 0, show.stderr);
    const shown = JSON.parse(show.stdout) as {
      title: string;
      files: Array<{ fileId: string; completedAt: string | null }>;
    };
    assert.equal(shown.title, 'Contract drafts');
    assert.equal(shown.files.length, 2);
    assert.ok(shown.files.find((f) => f.fileId === file.fileId)!.completedAt);
    assert.ok(!show.stdout.includes(direct.uploadAuth), 'no credential is shown');

    const stats = await admin(['stats', '--json', '--data-dir', srv.dataDir], env);
    assert.equal(stats.code, 0, stats.stderr);
    const s = JSON.parse(stats.stdout) as Record<string, unknown> & { disk: { freeBytes: number } };
    assert.equal(s.folders, 2);
    assert.equal(s.files, 2);
    assert.equal(s.bytes, 3000);
    assert.equal(s.openUploads, 1);
    assert.deepEqual(s.quota, { totalBytes: 100 * 1024 * 1024, folderBytes: null });
    assert.ok(s.disk.freeBytes > 0);

    // Take-down: bytes and record gone; the site answers 404; the running server delivers folder.deleted.
    const blobDir = join(srv.dataDir, 'blobs', direct.folderId);
    assert.ok(existsSync(blobDir));
    const del = await admin(['delete', direct.folderId, '--data-dir', srv.dataDir], env);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, new RegExp(`deleted folder ${direct.folderId}`));
    assert.ok(!existsSync(blobDir));
    const site = await fetch(`${srv.baseUrl}/api/site/folders/${direct.folderId}`, {
      headers: { 'x-owner-token': newToken() },
    });
    assert.equal(site.status, 404);
    await site.arrayBuffer();
    const deleted = await until('folder.deleted at the webhook', () =>
      hook.accepted().find((h) => h.json.type === 'folder.deleted'),
    );
    assert.equal(deleted.json.data.folderId, direct.folderId);
    assert.ok(deleted.valid);

    // Again: no such folder (exit 3); a malformed id is a usage error (exit 2).
    assert.equal((await admin(['delete', direct.folderId, '--data-dir', srv.dataDir], env)).code, 3);
    assert.equal((await admin(['show', direct.folderId, '--data-dir', srv.dataDir], env)).code, 3);
    const bad = await admin(['delete', 'not-an-id', '--data-dir', srv.dataDir], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not a folder id/);
    const unknown = await admin(['frobnicate', '--data-dir', srv.dataDir], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Usage:/);
  } finally {
    await srv.close();
    await hook.close();
  }
});
