import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { run } from '../../src/client/cli.js';
import { ProtocolError } from '../../src/transfer/errors.js';
import { RedirectRefusedError } from '../../src/transfer/outbound.js';
import { fetchChunkBytes, SiteClient } from '../../src/transfer/site-client.js';
import { createFolder, getUploadStatus, putChunk } from '../../src/transfer/v2.js';
import { createFolder as pageCreateFolder } from '../../web/src/state/create.js';
import { openSession, parseFragment } from '../../web/src/state/index.js';
import { memoryStore } from '../site/memory-store.js';
import { leaks, type StandIns, startStandIns } from '../support/stand-in.js';

/**
 * A test per client call that credentials stay on the service's origin: every method of the site
 * client, the v2 client, the chunk transfers, every CLI command that talks to the server and the
 * page's entry points, against a stand-in service on 127.0.0.1 that (a) redirects every request to
 * another origin, 127.0.0.2, which records what it gets, and (b) answers a foreign `{}`. Each call carries credentials (owner,
 * visitor, upload token; the CLI also a login in its server URL); none may reach the other origin,
 * and no call may use a foreign answer. The page's own bundle: test/site/redirect-credentials.test.ts.
 */
const FOLDER = 'AAAAAAAAAAAAAAAA';
const FILE = 'BBBBBBBBBBBBBBBB';
const noRetry = { retry: { retries: 0 } };
const credentials = { ownerToken: 'owner-secret', visitorToken: 'visitor-secret', uploadAuth: 'upload-secret' };

let s: StandIns;
before(async () => {
  s = await startStandIns();
});
after(() => s.close());

const site = () => new SiteClient(`${s.home}/api/site`, FOLDER, credentials, noRetry);
const urls = () => ({
  head: `${s.home}/`,
  path: `b/${FOLDER}/${FILE}`,
  tail: 'X-Amz-Expires=60',
  signatures: ['sig'],
  headers: {},
});

/** Each call that reads a JSON answer, and each that reads none (`json: false`). */
const CALLS: { name: string; call: () => Promise<unknown>; json: boolean }[] = [
  {
    name: 'SiteClient.createFolder',
    call: () => SiteClient.createFolder(`${s.home}/api/site`, 'owner-secret', { mode: 'send', ske: 'x' }, noRetry),
    json: true,
  },
  { name: 'info', call: () => site().info(), json: true },
  { name: 'register', call: () => site().register([{ filename: 'n', filesize: 1 }]), json: true },
  { name: 'list', call: () => site().list({ limit: 5 }), json: true },
  { name: 'listAll', call: () => site().listAll(), json: true },
  { name: 'status', call: () => site().status(FILE), json: true },
  { name: 'uploadUrls', call: () => site().uploadUrls(FILE), json: true },
  { name: 'notifications', call: () => site().notifications(), json: true },
  { name: 'setNotifications', call: () => site().setNotifications({ email: 'a@example.com' }), json: true },
  { name: 'clearNotifications', call: () => site().clearNotifications(), json: false },
  { name: 'updateFolder', call: () => site().updateFolder({ note: null }), json: true },
  { name: 'deleteFolder', call: () => site().deleteFolder(), json: false },
  { name: 'deleteFile', call: () => site().deleteFile(FILE), json: false },
  { name: 'updateFile', call: () => site().updateFile(FILE, { maxDownloads: 1 }), json: true },
  { name: 'activity', call: () => site().activity(), json: true },
  { name: 'putThumbnail', call: () => site().putThumbnail(FILE, new Uint8Array(8)), json: false },
  { name: 'thumbnail', call: () => site().thumbnail(FILE), json: false },
  { name: 'startDownload', call: () => site().startDownload(FILE), json: true },
  {
    name: 'v2 createFolder (empty)',
    call: () => createFolder({ server: s.home, title: 't', ...noRetry }),
    json: true,
  },
  {
    name: 'v2 createFolder (direct)',
    call: () => createFolder({ server: s.home, ske: 'x', files: [{ filename: 'n', filesize: 1 }], ...noRetry }),
    json: true,
  },
  {
    name: 'v2 getUploadStatus (uploadAuth in the query)',
    call: () =>
      getUploadStatus({ server: s.home, folderId: FOLDER, fileId: FILE, uploadAuth: 'upload-secret', ...noRetry }),
    json: true,
  },
  {
    name: 'page: createFolder (web/src/state/create.ts)',
    call: () => pageCreateFolder(`${s.home}/api/site`, memoryStore(), { mode: 'send', title: 't' }, noRetry),
    json: true,
  },
  {
    name: 'page: openSession (web/src/state/open.ts)',
    call: async () => {
      const opened = await openSession(FOLDER, parseFragment('#AAAAAAAAAAAAAAAAAAAAAA'), {
        siteApi: `${s.home}/api/site`,
        store: memoryStore(),
        http: noRetry,
      });
      // The session reports a failure to open as a value: the views show its error.
      if ('kind' in opened && opened.kind === 'failed') throw opened.error;
      return opened;
    },
    json: true,
  },
];

describe('every client call refuses a redirect to another origin; nothing reaches it', () => {
  for (const { name, call } of CALLS) {
    test(name, async () => {
      s.behave = { kind: 'redirect-away' };
      const seenHome = s.homeSeen.length;
      const seenElsewhere = s.elsewhereSeen.length;
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof RedirectRefusedError, `${name}: ${String(error)}`);
      assert.ok(error.message.includes(s.elsewhere), error.message);
      const asked = s.homeSeen.slice(seenHome);
      assert.equal(asked.length, 1, 'one request, not retried');
      assert.ok(leaks(asked).length > 0 || name.startsWith('v2 createFolder'), 'the call carried a credential home');
      assert.equal(s.elsewhereSeen.length, seenElsewhere, 'the other origin got no request at all');
    });
  }
});

describe('every client call that reads an answer refuses a foreign `{}`', () => {
  for (const { name, call } of CALLS.filter((c) => c.json)) {
    test(name, async () => {
      s.behave = { kind: 'json', body: {} };
      const error = await call().then(
        (value) => value,
        (e: unknown) => e,
      );
      assert.ok(error instanceof ProtocolError, `${name} used a foreign answer: ${JSON.stringify(error)}`);
      assert.match(error.message, /unexpected answer: \w+ is required/);
    });
  }
});

describe('every call the service answers 204 refuses a foreign 200 `{}` (no deletion is claimed done)', () => {
  for (const { name, call } of CALLS.filter((c) => !c.json && c.name !== 'thumbnail')) {
    test(name, async () => {
      s.behave = { kind: 'json', body: {} };
      await assert.rejects(call(), (e: unknown) => e instanceof ProtocolError && /200 where 204/.test(e.message));
    });
  }
});

describe('chunk transfers: presigned addresses carry nothing of ours', () => {
  test('fetchChunk: the site redirects to object storage; that GET carries no token, no ticket', async () => {
    s.behave = { kind: 'redirect-away' };
    s.elsewhereAnswer = (_req, res) => res.end('chunk bytes');
    const before = s.elsewhereSeen.length;
    const bytes = await site().fetchChunk(FILE, 1, 'GET chunk 1', undefined, 'ticket-secret');
    assert.equal(Buffer.from(bytes).toString(), 'chunk bytes');
    const fetched = s.elsewhereSeen.slice(before);
    assert.equal(fetched.length, 1, 'the chunk came from the other origin');
    assert.deepEqual(leaks(fetched), []);
    assert.equal(s.homeSeen.at(-1)!.headers['x-download-ticket'], 'ticket-secret', 'the ticket went home');
  });

  test('fetchChunkBytes: a foreign `{}` for the presigned address is refused', async () => {
    s.behave = { kind: 'json', body: {} };
    await assert.rejects(
      fetchChunkBytes(`${s.home}/c/00001`, { 'x-owner-token': 'owner-secret' }, 'GET chunk 1', noRetry),
      (e: unknown) => e instanceof ProtocolError && /GET chunk 1: unexpected answer: url is required/.test(e.message),
    );
  });

  test('putChunk: the headers of a presigned URL cannot smuggle a credential', async () => {
    s.elsewhereAnswer = (_req, res) => res.end();
    const before = s.elsewhereSeen.length;
    const signed = {
      ...urls(),
      head: `${s.elsewhere}/`,
      headers: { 'x-upload-auth': 'upload-secret', 'x-owner-token': 'owner-secret', 'x-amz-acl': 'private' },
    };
    await putChunk(signed, 1, new Uint8Array(40), 'PUT chunk 1', noRetry);
    const put = s.elsewhereSeen.slice(before);
    assert.equal(put.length, 1);
    assert.equal(put[0]!.headers['x-amz-acl'], 'private', 'the signed headers go with it');
    assert.deepEqual(leaks(put), []);
  });
});

/** An API key of a signed-in person: like the login, for the server's origin only. */
const API_KEY = `wfk_${'K'.repeat(43)}`;
let withKey = false;

/**
 * The CLI in-process (the same `run` bin/webfolder.js calls), with a login in its server URL, or
 * (`withKey`) an API key in $WEBFOLDER_API_KEY and no login.
 */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d: Buffer) => (stdout += d.toString()));
  err.on('data', (d: Buffer) => (stderr += d.toString()));
  const server = withKey ? s.home : s.home.replace('http://', 'http://user:login-secret@');
  const env = {
    WEBFOLDER_SERVER: server,
    WEBFOLDER_STATE_DIR: join(dir, 'state'),
    ...(withKey ? { WEBFOLDER_API_KEY: API_KEY } : {}),
  };
  const code = await run([...argv, '--retries=0'], { stdout: out, stderr: err, env });
  return { code, stdout, stderr };
}

let dir: string;
describe('every CLI command that talks to the server', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webfolder-outbound-'));
    await writeFile(join(dir, 'a.txt'), 'hello');
    // An interrupted upload, for `resume` and `status <state file>`: its uploadAuth goes in a query.
    const state = {
      version: 1,
      server: s.home,
      folderId: FOLDER,
      folderUrl: `${s.home}/f/${FOLDER}`,
      uploadAuth: 'upload-secret',
      secret: 'AAAAAAAAAAAAAAAAAAAAAA',
      files: [
        {
          path: join(dir, 'a.txt'),
          name: 'a.txt',
          fileId: FILE,
          size: 5,
          mtime: null,
          chunkSize: 5,
          chunks: 1,
          uploadUrls: { ...urls(), head: `${s.elsewhere}/` },
        },
      ],
    };
    await writeFile(join(dir, 'state.json'), JSON.stringify(state));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const link = () => `${s.home}/f/${FOLDER}#AAAAAAAAAAAAAAAAAAAAAA`;
  const COMMANDS: { name: string; argv: () => string[] }[] = [
    { name: 'create', argv: () => ['create', '--title', 't'] },
    { name: 'upload', argv: () => ['upload', join(dir, 'a.txt'), '--quiet'] },
    { name: 'status', argv: () => ['status', `${FOLDER}/${FILE}`] },
    { name: 'status (state file)', argv: () => ['status', join(dir, 'state.json')] },
    { name: 'resume', argv: () => ['resume', join(dir, 'state.json'), '--quiet'] },
    { name: 'download', argv: () => ['download', link(), join(dir, 'out'), '--upload-auth=upload-secret', '--quiet'] },
    { name: 'notify', argv: () => ['notify', link(), '--upload-auth=upload-secret', '--email', 'a@example.com'] },
    { name: 'request', argv: () => ['request', '--title', 't'] },
    { name: 'info', argv: () => ['info', link(), '--upload-auth=upload-secret'] },
    { name: 'delete', argv: () => ['delete', link(), '--upload-auth=upload-secret'] },
    { name: 'set', argv: () => ['set', link(), '--upload-auth=upload-secret', '--note', 'n'] },
    { name: 'activity', argv: () => ['activity', link(), '--upload-auth=upload-secret'] },
  ];

  for (const { name, argv } of COMMANDS) {
    test(`${name}: a redirect elsewhere is refused with a clear error, and nothing reaches there`, async () => {
      s.behave = { kind: 'redirect-away' };
      const seenHome = s.homeSeen.length;
      const seenElsewhere = s.elsewhereSeen.length;
      const r = await cli(...argv());
      assert.equal(r.code, 3, `exit ${r.code}: ${r.stderr}`);
      assert.match(r.stderr, /redirecting to another origin, http:\/\/127\.0\.0\.2:\d+; not followed/);
      assert.doesNotMatch(r.stderr + r.stdout, /secret/, 'no credential in what the CLI says');
      const asked = s.homeSeen.slice(seenHome);
      assert.ok(asked.length >= 1);
      assert.equal(asked[0]!.headers.authorization, `Basic ${Buffer.from('user:login-secret').toString('base64')}`);
      assert.equal(s.elsewhereSeen.length, seenElsewhere, 'the other origin got no request at all');
    });

    test(`${name}: with an API key, the key goes to the server only, never across the redirect`, async () => {
      s.behave = { kind: 'redirect-away' };
      const seenHome = s.homeSeen.length;
      const seenElsewhere = s.elsewhereSeen.length;
      withKey = true;
      try {
        const r = await cli(...argv());
        assert.equal(r.code, 3, `exit ${r.code}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr + r.stdout, /KKKK/, 'the key is never printed');
      } finally {
        withKey = false;
      }
      const asked = s.homeSeen.slice(seenHome);
      assert.ok(asked.length >= 1);
      assert.equal(asked[0]!.headers.authorization, `Bearer ${API_KEY}`);
      assert.equal(s.elsewhereSeen.length, seenElsewhere, 'the other origin got no request at all');
    });

    test(`${name}: a foreign answer is refused, never printed as undefined`, async () => {
      s.behave = { kind: 'json', body: {} };
      const r = await cli(...argv());
      assert.equal(r.code, 3, `exit ${r.code}: ${r.stdout} ${r.stderr}`);
      assert.match(
        r.stderr,
        /unexpected answer: (\w+ is required \(is this address a webfolder service\?\)|200 where 204)/,
      );
      assert.doesNotMatch(r.stdout + r.stderr, /undefined/);
    });
  }
});
