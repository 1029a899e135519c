import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { NotificationSettings } from '../../src/app/site/notifications.js';
import { newToken } from '../../src/domain/ids.js';
import { keyOfSecret } from '../../src/notify/signing.js';
import { chunkBody, chunkUrl, createEmpty, postJson } from '../support/api.js';
import { until } from '../support/poll.js';
import { type SmtpReceiver, startHookReceiver, startSmtpReceiver } from '../support/receivers.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * Owner notifications against real receivers: a real SMTP server (smtp-server) and a webhook
 * receiver on loopback that checks the folder's own signing secret. The owner is told of others'
 * downloads and uploads, never of its own; only the owner may see or change the settings.
 */
type Registered = {
  files: Array<{ fileId: string; chunkSize: number; uploadUrls: import('../../src/contract/types.js').UploadUrls }>;
};

let smtp: SmtpReceiver;
let srv: RunningServer;
before(async () => {
  smtp = await startSmtpReceiver();
  srv = await startServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'webfolder <noreply@example.org>',
    OWNER_WEBHOOK_ALLOW_PRIVATE: 'true',
    // The instance's name begins each subject (SITE_NAME).
    SITE_NAME: 'Acme Files',
    // Digests of one second, so that the test need not wait an hour (test/ops/mail-consent.test.ts
    // tests the consent, the limits and the digests themselves).
    MAIL_DIGEST_SECONDS: '1',
  });
});
after(async () => {
  await srv.close();
  await smtp.close();
});

/** The text of a quoted-printable mail body, with soft line breaks joined. */
const unQuote = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** A mail's subject, decoded from its RFC 2047 encoded words (a German subject has umlauts). */
function mailSubject(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)$/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .replace(/\r?\n[ \t]/g, ' ');
}

const api = () => `${srv.baseUrl}/api/site/folders`;

async function put(folderId: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${api()}/${folderId}/notifications`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as NotificationSettings & { error?: string; code?: string } };
}

async function upload(folderId: string, headers: Record<string, string>, filesize: number): Promise<string> {
  const reg = await postJson<Registered>(
    `${api()}/${folderId}/files`,
    { ske: 'ske', files: [{ filename: 'enc', filesize }] },
    headers,
  );
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  const file = reg.body.files[0]!;
  const res = await fetch(chunkUrl(file.uploadUrls, 1), {
    method: 'PUT',
    body: chunkBody(filesize, file.chunkSize, 1) as unknown as BodyInit,
  });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  // The site asks for status after its last chunk: that is when completion is seen.
  const status = await fetch(`${api()}/${folderId}/files/${file.fileId}/status`, { headers });
  assert.deepEqual(await status.json(), { complete: true, missing: [] });
  return file.fileId;
}

async function download(folderId: string, fileId: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${api()}/${folderId}/files/${fileId}/chunks/00001`, { headers });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
}

test('the owner is told by mail and at its webhook of downloads and uploads by others, not of its own', async () => {
  const folder = await createEmpty(srv.baseUrl, { mode: 'share', title: 'Private title' });
  const owner = { 'x-owner-token': newToken() };
  const visitor = { 'x-visitor-token': newToken() };
  const ownFile = await upload(folder.folderId, owner, 500);

  const hook = await startHookReceiver(Buffer.alloc(16));
  try {
    const set = await put(folder.folderId, owner, {
      email: 'owner@example.org',
      webhookUrl: hook.url,
      onDownload: true,
      onUpload: true,
      // The owner's page was in German: the confirmation mail is too, and so are the digests.
      language: 'de',
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.match(set.body.webhookSecret!, /^whsec_/);
    hook.setKey(keyOfSecret(set.body.webhookSecret!));
    const read = await fetch(`${api()}/${folder.folderId}/notifications`, { headers: owner });
    assert.deepEqual(await read.json(), set.body);
    // The same URL keeps its secret; another URL gets a new one.
    const same = await put(folder.folderId, owner, { webhookUrl: hook.url });
    assert.equal(same.body.webhookSecret, set.body.webhookSecret);
    const other = await put(folder.folderId, owner, { webhookUrl: `${hook.url}/other` });
    assert.notEqual(other.body.webhookSecret, set.body.webhookSecret);
    const back = await put(folder.folderId, owner, { webhookUrl: hook.url });
    hook.setKey(keyOfSecret(back.body.webhookSecret!));
    // The address confirms first, so the service is no spam relay: until then it gets only that mail.
    assert.equal(set.body.emailStatus, 'pending');
    const confirmation = await until('the confirmation mail', () => smtp.mails[0]);
    assert.match(unQuote(confirmation.raw), /^Jemand hat Acme Files gebeten, /m);
    const confirm = /https?:\/\/\S+\/mail\/confirm\?\S+/.exec(unQuote(confirmation.raw))![0];
    assert.equal((await fetch(confirm, { method: 'POST' })).status, 200);
    smtp.mails.splice(0);

    // The owner's own download: nothing. Then a visitor uploads and downloads.
    await download(folder.folderId, ownFile, owner);
    await upload(folder.folderId, visitor, 700);
    await download(folder.folderId, ownFile, visitor);

    await until('two owner webhook calls', () => hook.accepted().length >= 2);
    // The mail is a digest, sent when its period ends.
    await until('the digests', async () => {
      await srv.server.notifier.deliverDue();
      return (await srv.server.services.store.outbox.outboxCounts()).pending === 0;
    });
    assert.deepEqual(await srv.server.services.store.outbox.outboxCounts(), { pending: 0, failed: 0 });
    assert.ok(smtp.mails.length >= 1 && smtp.mails.length <= 2, `one digest per period: ${smtp.mails.length}`);
    assert.equal(hook.received.length, 2);
    assert.ok(
      hook.received.every((h) => h.valid),
      'signed with the folder secret',
    );
    assert.deepEqual(hook.received.map((h) => `${h.json.type}:${h.json.data.by}`).sort(), [
      'file.completed:visitor',
      'file.downloaded:visitor',
    ]);
    for (const mail of smtp.mails.map((m) => ({ ...m, raw: unQuote(m.raw) }))) {
      assert.deepEqual(mail.to, ['owner@example.org']);
      assert.equal(mail.from, 'noreply@example.org');
      assert.ok(mail.raw.includes(`${srv.baseUrl}/f/${folder.folderId}`), 'links the folder');
      assert.ok(!mail.raw.includes('Private title'), 'no title');
      assert.ok(!mail.raw.includes(folder.folderUrl.split('#')[1]!), 'no key');
    }
    for (const mail of smtp.mails) {
      assert.match(mailSubject(mail.raw), /^Acme Files: (Dateien wurden|Aktivität in Ihrem Ordner)/);
      assert.match(unQuote(mail.raw), /^Ordner: https?:\/\//m);
    }
    // The digests count others' events only: the visitor's upload and download, not the owner's.
    const count = (what: RegExp) =>
      smtp.mails.map((m) => Number(what.exec(unQuote(m.raw))?.[1] ?? 0)).reduce((a, b) => a + b, 0);
    assert.equal(count(/(\d+) Downloads?/), 1);
    assert.equal(count(/(\d+) Uploads? abgeschlossen/), 1);
    const before = smtp.mails.length;

    // Cleared: nothing more is sent.
    const cleared = await fetch(`${api()}/${folder.folderId}/notifications`, { method: 'DELETE', headers: owner });
    assert.equal(cleared.status, 204);
    await download(folder.folderId, ownFile, visitor);
    await srv.server.notifier.deliverDue();
    assert.equal(smtp.mails.length, before);
  } finally {
    await hook.close();
  }
});

test('an owner whose page language the site does not speak gets English notification mails', async () => {
  const folder = await createEmpty(srv.baseUrl, { mode: 'share', title: 't' });
  const owner = { 'x-owner-token': newToken() };
  const visitor = { 'x-visitor-token': newToken() };
  const file = await upload(folder.folderId, owner, 300);
  smtp.mails.splice(0);
  const set = await put(folder.folderId, owner, { email: 'klingon@example.org', onDownload: true, language: 'tlh' });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  const confirmation = await until('the confirmation mail', () =>
    smtp.mails.find((m) => m.to.includes('klingon@example.org')),
  );
  assert.equal(mailSubject(confirmation.raw), 'Acme Files: confirm notifications to this address');
  const confirm = /https?:\/\/\S+\/mail\/confirm\?\S+/.exec(unQuote(confirmation.raw))![0];
  assert.equal((await fetch(confirm, { method: 'POST' })).status, 200);
  smtp.mails.splice(0);
  await download(folder.folderId, file, visitor);
  await until('the digest', async () => {
    await srv.server.notifier.deliverDue();
    return smtp.mails.length > 0 && (await srv.server.services.store.outbox.outboxCounts()).pending === 0;
  });
  const digest = smtp.mails[0]!;
  assert.equal(mailSubject(digest.raw), 'Acme Files: Files were downloaded from your folder');
  assert.match(unQuote(digest.raw), /: 1 download and 0 uploads completed in your folder\./);
  assert.match(unQuote(digest.raw), /^Folder: https?:\/\//m);
});

test('only the owner may read or change notifications; bad settings are refused with a code', async () => {
  const folder = await createEmpty(srv.baseUrl, { mode: 'send' });
  const owner = { 'x-owner-token': newToken() };
  await upload(folder.folderId, owner, 100);
  const visitor = { 'x-visitor-token': newToken() };
  const asVisitor = await put(folder.folderId, visitor, { email: 'x@example.org', onDownload: true });
  assert.equal(asVisitor.status, 403);
  assert.equal(asVisitor.body.code, 'forbidden');
  const read = await fetch(`${api()}/${folder.folderId}/notifications`, { headers: visitor });
  assert.equal(read.status, 403);
  await read.arrayBuffer();
  const cases: Array<[unknown, RegExp]> = [
    [{ onUpload: true, email: 'o@example.org' }, /onUpload is for share and request folders/],
    [{ email: 'not an address', onDownload: true }, /email must be an e-mail address/],
    [{ onDownload: true }, /give an email or a webhookUrl/],
    [{ webhookUrl: 'ftp://example.org/x', onDownload: true }, /http\(s\) URL/],
    [{ onDownload: 'yes', email: 'o@example.org' }, /onDownload must be true or false/],
    [{ email: 'o@example.org', extra: 1 }, /extra is not a notification setting/],
  ];
  for (const [body, message] of cases) {
    const res = await put(folder.folderId, owner, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.code, 'invalid_request');
    assert.match(res.body.error!, message);
  }
  const unchanged = await fetch(`${api()}/${folder.folderId}/notifications`, { headers: owner });
  assert.deepEqual(await unchanged.json(), {
    email: null,
    webhookUrl: null,
    webhookSecret: null,
    onDownload: false,
    onUpload: false,
    emailStatus: null,
  });
});

test('without OWNER_WEBHOOK_ALLOW_PRIVATE an owner webhook cannot target a private address; without SMTP no e-mail', async () => {
  const plain = await startServer();
  try {
    const folder = await createEmpty(plain.baseUrl, { mode: 'share' });
    const owner = { 'x-owner-token': newToken() };
    const reg = await postJson(
      `${plain.baseUrl}/api/site/folders/${folder.folderId}/files`,
      { ske: 's', files: [{ filename: 'e', filesize: 10 }] },
      owner,
    );
    assert.equal(reg.status, 200);
    for (const [body, message] of [
      [{ webhookUrl: 'http://127.0.0.1:8080/x', onDownload: true }, /public host/],
      [{ webhookUrl: 'http://localhost/x', onDownload: true }, /public host/],
      [{ webhookUrl: 'http://[::1]/x', onDownload: true }, /public host/],
      [{ email: 'o@example.org', onDownload: true }, /does not send e-mail/],
    ] as const) {
      const res = await fetch(`${plain.baseUrl}/api/site/folders/${folder.folderId}/notifications`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...owner },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as { error: string }).error, message);
    }
  } finally {
    await plain.close();
  }
});

test('the CLI sets, shows and clears notifications as the owner of a direct upload (webfolder notify)', async () => {
  const { run } = await import('../../src/client/cli.js');
  const { createDirect } = await import('../support/api.js');
  const direct = await createDirect(srv.baseUrl, [100], { mode: 'share' });
  const link = `${direct.folderUrl}#not-needed`;
  const cli = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: {
        write: (s: string) => {
          stdout += s;
          return true;
        },
      },
      stderr: {
        write: (s: string) => {
          stderr += s;
          return true;
        },
      },
      env: {},
    } as unknown as Parameters<typeof run>[1];
    const code = await run(args, io);
    return { code, stdout, stderr };
  };
  const set = await cli(
    'notify',
    link,
    `--upload-auth=${direct.uploadAuth}`,
    '--email',
    'me@example.org',
    '--on',
    'download,upload',
    '--json',
  );
  assert.equal(set.code, 0, set.stderr);
  assert.deepEqual(JSON.parse(set.stdout), {
    email: 'me@example.org',
    webhookUrl: null,
    webhookSecret: null,
    onDownload: true,
    onUpload: true,
    emailStatus: 'pending',
  });
  const shown = await cli('notify', direct.folderUrl, `--upload-auth=${direct.uploadAuth}`);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /notify of: downloads and uploads\ne-mail: me@example.org\nwebhook: none/);
  assert.match(shown.stdout, /e-mail not confirmed yet: follow the link in the mail sent to me@example.org\n/);
  const wrong = await cli('notify', link, `--upload-auth=${newToken()}`, '--off');
  assert.equal(wrong.code, 3);
  assert.match(wrong.stderr, /only the owner/);
  const off = await cli('notify', link, `--upload-auth=${direct.uploadAuth}`, '--off');
  assert.equal(off.code, 0);
  assert.equal(off.stdout, 'notifications off\n');
  const none = await cli('notify', link, `--upload-auth=${direct.uploadAuth}`, '--json');
  assert.equal(JSON.parse(none.stdout).onDownload, false);
  assert.equal((await cli('notify', link)).code, 2);
});
