import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { AbortedError, download, resume, type UploadState, upload } from '../../src/client/node/index.js';
import { type FolderSession, openSession, parseFragment, type SiteStore } from '../../web/src/state/index.js';
import { useCliServer } from '../support/cli.js';
import { entryArgv } from '../support/entries.js';
import { which } from '../support/which.js';

/**
 * The owner's side of the CLI end to end: `upload --expires --max-downloads --password`,
 * `download` with a password and against a limit, `info`, `delete` of a file and of the folder, and
 * `request` with a visitor uploading through the page's own session module. A real server child
 * process on loopback, the real `webfolder` entry. The uploader and each recipient have their own
 * state directory, as they would have their own machines.
 */
const fx = useCliServer('cli-owner');
const as = fx.as;
const owner = as('owner');
const recipient = as('recipient');
const stranger = as('stranger');

interface InfoJson {
  expiresAt: number | null;
  maxDownloads: number | null;
  password: boolean;
  isOwner: boolean;
  fileCount: number;
  files: { fileId: string; name: string | null; downloads: number; downloadsLeft: number | null }[];
}

async function write(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(fx.dir, name);
  await writeFile(path, content);
  return path;
}

describe('upload with expiry, a one-download limit and a password', () => {
  test('info shows them; the password opens it, a wrong one does not; the 2nd download is refused', async () => {
    const bytes = randomBytes(100_000);
    const file = await write('secret.bin', bytes);
    const passwordFile = await write('pw.txt', 'correct horse battery staple\n');
    const wrongFile = await write('wrong.txt', 'correct horse battery stable\n');
    const up = await owner(
      'upload',
      file,
      '--expires',
      '3d',
      '--max-downloads',
      '1',
      '--password-file',
      passwordFile,
      '--json',
    );
    assert.equal(up.code, 0, up.stderr);
    const out = JSON.parse(up.stdout) as { link: string; expiresAt: number; maxDownloads: number; password: boolean };
    assert.match(out.link, /#[A-Za-z0-9_-]{22}$/, 'upload --json keeps printing the link');
    assert.equal(out.maxDownloads, 1);
    assert.equal(out.password, true);

    const info = await owner('info', out.link, '--password-file', passwordFile, '--json');
    assert.equal(info.code, 0, info.stderr);
    const shown = JSON.parse(info.stdout) as InfoJson;
    assert.equal(shown.expiresAt, out.expiresAt, 'the expiry asked for is the folder expiry');
    assert.equal(shown.maxDownloads, 1);
    assert.equal(shown.password, true);
    assert.equal(shown.isOwner, true, 'the uploader is found to be the owner from its state directory');
    assert.deepEqual(
      shown.files.map((f) => [f.name, f.downloads, f.downloadsLeft]),
      [['secret.bin', 0, 1]],
    );
    const human = await owner('info', out.link, '--password-file', passwordFile);
    assert.match(
      human.stdout,
      new RegExp(`available until: ${new Date(out.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`),
    );
    assert.match(human.stdout, /download limit per file: 1\n/);

    // The link alone is not enough: without a terminal to ask on, a clear message and exit 2.
    const none = await recipient('download', out.link, join(fx.dir, 'none'));
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /this folder has a password: give it with --password-file <path>/);
    const wrong = await recipient('download', out.link, join(fx.dir, 'wrong'), '--password-file', wrongFile);
    assert.equal(wrong.code, 5, wrong.stderr);
    assert.match(wrong.stderr, /wrong password/);
    assert.ok(!existsSync(join(fx.dir, 'wrong', 'secret.bin')));

    const status = await recipient('status', out.link, '--password-file', passwordFile, '--json');
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { complete: boolean }).complete, true);
    assert.equal((await recipient('status', out.link)).code, 2, 'status needs the password too');

    const first = await recipient('download', out.link, join(fx.dir, 'first'), '--password-file', passwordFile);
    assert.equal(first.code, 0, first.stderr);
    assert.ok((await readFile(join(fx.dir, 'first', 'secret.bin'))).equals(bytes));

    const second = await stranger('download', out.link, join(fx.dir, 'second'), '--password-file', passwordFile);
    assert.equal(second.code, 3, second.stderr);
    assert.match(second.stderr, /"secret\.bin" was not downloaded: its download limit is used up/);
    assert.ok(!existsSync(join(fx.dir, 'second', 'secret.bin')));

    const after = JSON.parse(
      (await owner('info', out.link, '--password-file', passwordFile, '--json')).stdout,
    ) as InfoJson;
    assert.deepEqual(
      after.files.map((f) => [f.downloads, f.downloadsLeft]),
      [[1, 0]],
    );
    // The owner's own download is not counted, and not refused.
    const own = await owner('download', out.link, join(fx.dir, 'own'), '--password-file', passwordFile);
    assert.equal(own.code, 0, own.stderr);
    assert.ok((await readFile(join(fx.dir, 'own', 'secret.bin'))).equals(bytes));
  });

  test('a password folder made by the CLI opens in the page session with the same password', async () => {
    const file = await write('for-the-page.txt', 'read me in a browser\n');
    const passwordFile = await write('page-pw.txt', 'Grüße aus Köln\n');
    const up = await owner('upload', file, '--password-file', passwordFile, '--json');
    assert.equal(up.code, 0, up.stderr);
    const { link, folderId } = JSON.parse(up.stdout) as { link: string; folderId: string };
    const opened = await openSession(folderId, parseFragment(new URL(link).hash), {
      siteApi: `${fx.server.baseUrl}/api/site`,
      store: memoryStore(),
    });
    assert.ok('kind' in opened && opened.kind === 'password', JSON.stringify(opened));
    const unlock = (opened as { unlock: (p: string) => Promise<unknown> }).unlock;
    assert.equal(await unlock('Grüße aus Koln'), null, 'a wrong password does not open it in the page either');
    // The same word with a decomposed ü (another keyboard): NFC makes it the same password.
    const session = await unlock('Gru\u0308ße aus Köln');
    assert.ok(session && typeof session === 'object' && 'reader' in session);
    const [listed] = await (session as FolderSession).reader.listFiles();
    assert.equal(listed!.name, 'for-the-page.txt');
  });

  test('bad settings are refused before anything is created', async () => {
    const file = await write('x.txt', 'x\n');
    const bad = [
      [['--expires', '3 days'], /--expires takes a duration/],
      [['--expires', '0h'], /--expires takes a duration/],
      [['--max-downloads', '0'], /--max-downloads must be a whole number/],
      [['--password'], /stdin is not one: use --password-file/],
      [['--mode', 'request', '--password-file', file], /request folder cannot have a password/],
    ] as const;
    for (const [args, message] of bad) {
      const run = await owner('upload', file, ...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
    const tooLong = await owner('upload', file, '--expires', '100w');
    assert.equal(tooLong.code, 3, tooLong.stderr);
    assert.match(tooLong.stderr, /change folder: server answered 400/);
  });
});

describe('library: a password folder resumes from its state without the password', () => {
  test('the state keeps the derived key; the resumed folder opens with the password only', async () => {
    const bytes = randomBytes(200_000);
    const path = await write('resumed.bin', bytes);
    const controller = new AbortController();
    let state: UploadState | undefined;
    await assert.rejects(
      upload([path], {
        server: fx.server.baseUrl,
        password: 'resume me later',
        signal: controller.signal,
        onState: (s) => {
          state = s;
          controller.abort(); // stopped before the first chunk
        },
      }),
      AbortedError,
    );
    assert.ok(state?.key && state.key !== state.secret, 'the derived key is kept beside the link secret');
    const done = await resume(state!);
    assert.equal(done.chunksSent, 1);
    await assert.rejects(download(done.link, join(fx.dir, 'resumed-none')), /password/);
    const got = await download(done.link, join(fx.dir, 'resumed'), { password: 'resume me later' });
    assert.deepEqual(
      got.files.map((f) => f.name),
      ['resumed.bin'],
    );
    assert.ok((await readFile(join(fx.dir, 'resumed', 'resumed.bin'))).equals(bytes));
  });
});

describe('delete', () => {
  test('one file by name or id, then the folder; it is gone (404), and only the owner may', async () => {
    const a = await write('a.txt', 'first\n');
    const b = await write('b.txt', 'second\n');
    const c = await write('c.txt', 'third\n');
    const up = await owner('upload', a, b, c, '--json');
    assert.equal(up.code, 0, up.stderr);
    const { link, files } = JSON.parse(up.stdout) as { link: string; files: { name: string; fileId: string }[] };

    const refused = await recipient('delete', link, '--file', 'a.txt');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /delete needs the folder owner's credential/);

    const byName = await owner('delete', link, '--file', 'a.txt');
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(byName.stdout, 'deleted a.txt\n');
    const byId = await owner('delete', link, '--file', files[1]!.fileId, '--json');
    assert.equal(byId.code, 0, byId.stderr);
    assert.deepEqual(JSON.parse(byId.stdout), {
      deleted: 'file',
      folderId: JSON.parse(up.stdout).folderId,
      fileId: files[1]!.fileId,
    });
    const missing = await owner('delete', link, '--file', 'nope.txt');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no file named or with the id "nope.txt"/);

    const left = JSON.parse((await recipient('info', link, '--json')).stdout) as InfoJson;
    assert.deepEqual(
      left.files.map((f) => f.name),
      ['c.txt'],
    );

    const folder = await owner('delete', link);
    assert.equal(folder.code, 0, folder.stderr);
    assert.match(folder.stdout, /^deleted folder /);
    const gone = await recipient('info', link);
    assert.equal(gone.code, 3, gone.stderr);
    assert.match(gone.stderr, /404/);
    const download = await recipient('download', link, join(fx.dir, 'gone'));
    assert.equal(download.code, 3);
    // The owner record went with the folder.
    const again = await owner('delete', link);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /has none for this folder/);
  });
});

describe('request', () => {
  test('the CLI keeps the owner key; a visitor uploads in the page session; download unseals it', async () => {
    const made = await owner('request', '--title', 'Send me the scans', '--expires', '2d', '--json');
    assert.equal(made.code, 0, made.stderr);
    const out = JSON.parse(made.stdout) as { link: string; ownerLink: string; folderId: string; stateFile: string };
    assert.match(out.link, /#[A-Za-z0-9_-]{22}$/);
    assert.ok(out.ownerLink.startsWith(`${out.link}&owner=`));
    assert.ok(existsSync(out.stateFile));
    assert.ok(!made.stderr.includes(out.link.split('#')[1]!), 'no secret on stderr');

    // A visitor in "the browser": the page's own session module, with a Map for its storage.
    const content = randomBytes(300_000);
    const url = new URL(out.link);
    const session = await openSession(out.folderId, parseFragment(url.hash), {
      siteApi: `${fx.server.baseUrl}/api/site`,
      store: memoryStore(),
    });
    assert.ok('client' in session, JSON.stringify(session));
    assert.equal(session.info.isOwner, false);
    const outcome = await session.uploads.upload([
      { file: new File([content], 'scan.pdf', { lastModified: 1_700_000_000_000 }), path: 'scans/scan.pdf' },
    ]);
    assert.equal(outcome.state, 'complete', JSON.stringify(outcome));

    // Anyone else with the link (the visitor too) cannot list it…
    const visitor = await stranger('download', out.link, join(fx.dir, 'req-visitor'));
    assert.equal(visitor.code, 3, visitor.stderr);
    // …the machine that made it can, and opens the sealed file under its name and folder.
    const dest = join(fx.dir, 'req-owner');
    const dl = await owner('download', out.link, dest, '--json');
    assert.equal(dl.code, 0, dl.stderr);
    assert.ok((await readFile(join(dest, 'scans', 'scan.pdf'))).equals(content));
    // The owner link works from another machine too.
    const elsewhere = await recipient('download', out.ownerLink, join(fx.dir, 'req-elsewhere'));
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.ok((await readFile(join(fx.dir, 'req-elsewhere', 'scans', 'scan.pdf'))).equals(content));
    const info = JSON.parse((await owner('info', out.link, '--json')).stdout) as InfoJson & { title: string };
    assert.equal(info.fileCount, 1);
    assert.equal(info.files[0]!.name, 'scans/scan.pdf');
    // Deleted with the owner secret this machine kept (no token to give).
    const deleted = await owner('delete', out.link, '--file', 'scan.pdf');
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, 'deleted scans/scan.pdf\n');
    const folder = await owner('delete', out.link);
    assert.equal(folder.code, 0, folder.stderr);
    assert.equal((await owner('info', out.link)).code, 3, 'gone');
    assert.ok(!existsSync(out.stateFile), 'the kept owner secret went with the folder');
  });
});

describe('password prompt on a terminal', () => {
  const python = which('python3');
  /** The CLI in a pseudo-terminal (test/support/pty-drive.py), answering its prompts. */
  async function onTerminal(who: string, args: string[], answers: string[]): Promise<{ code: number; output: string }> {
    const spec = {
      cmd: [process.execPath, ...entryArgv('client/cli'), ...args],
      env: { WEBFOLDER_SERVER: fx.server.baseUrl, WEBFOLDER_STATE_DIR: join(fx.dir, `state-${who}`) },
      answers,
    };
    const script = new URL('../support/pty-drive.py', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(python!, [script, JSON.stringify(spec)], { maxBuffer: 1 << 24 });
    return JSON.parse(stdout) as { code: number; output: string };
  }

  test('upload --password asks twice without echo; download asks when the folder has one', {
    skip: !python && 'python3 (for a pty) is not installed',
  }, async () => {
    const bytes = randomBytes(50_000);
    const file = await write('typed.bin', bytes);
    const secretWords = 'typed tangerine violin';
    const up = await onTerminal(
      'owner',
      ['upload', file, '--password', '--json', '--quiet'],
      [secretWords, secretWords],
    );
    assert.equal(up.code, 0, up.output);
    assert.match(up.output, /Password for the folder: /);
    assert.match(up.output, /Again: /);
    assert.ok(!up.output.includes(secretWords), 'the password is not echoed');
    const { link } = JSON.parse(/\{"link".*\}/.exec(up.output)![0]) as { link: string };

    const dest = join(fx.dir, 'typed');
    const down = await onTerminal('recipient', ['download', link, dest], [secretWords]);
    assert.equal(down.code, 0, down.output);
    assert.match(down.output, /Password: /);
    assert.ok(!down.output.includes(secretWords), 'the password is not echoed');
    assert.ok((await readFile(join(dest, 'typed.bin'))).equals(bytes));

    const wrong = await onTerminal(
      'recipient',
      ['download', link, join(fx.dir, 'typed-wrong')],
      ['typed tangerine viola'],
    );
    assert.equal(wrong.code, 5, wrong.output);
    const differ = await onTerminal('owner', ['upload', file, '--password'], ['one thing', 'another']);
    assert.equal(differ.code, 2, differ.output);
    assert.match(differ.output, /the two passwords differ/);
  });
});

function memoryStore(): SiteStore {
  const data = new Map<string, string>();
  return {
    ownerSecretOf: (id) => data.get(`owner:${id}`) ?? null,
    saveOwnerSecret: (id, secret) =>
      void (secret === null ? data.delete(`owner:${id}`) : data.set(`owner:${id}`, secret)),
    visitorToken: () => {
      if (!data.has('visitor')) data.set('visitor', randomBytes(32).toString('base64url'));
      return data.get('visitor')!;
    },
    pendingUploads: () => [],
    addPending: () => undefined,
    removePending: () => undefined,
    receipts: () => [],
    addReceipt: () => undefined,
  };
}
