import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useCliServer } from '../support/cli.js';

/**
 * The owner's settings from the CLI, as the page has them (site, library and CLI
 * alike): `upload --note`, `set` (expiry, the folder's limit, a file's own limit, the note) and
 * `activity`. A real server child process on loopback and the real `webfolder` entry; the owner and
 * a recipient each have their own state directory.
 */
const fx = useCliServer('cli-settings', { MAX_EXPIRES_HOURS: '720' });
const as = fx.as;
const owner = as('owner');
const recipient = as('recipient');

interface InfoJson {
  expiresAt: number | null;
  maxDownloads: number | null;
  note: string | null;
  files: { fileId: string; name: string | null; downloads: number; maxDownloads: number | null }[];
}

async function write(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(fx.dir, name);
  await writeFile(path, content);
  return path;
}

async function info(who: typeof owner, link: string): Promise<InfoJson> {
  const r = await who('info', link, '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as InfoJson;
}

/** Every byte of the server's SQLite files (database and write-ahead log), to look for a plaintext. */
async function databaseBytes(): Promise<Buffer> {
  const names = (await readdir(fx.dataDir)).filter((n) => n.includes('.sqlite') || n.includes('.db'));
  assert.ok(names.length > 0, `a SQLite file in ${fx.dataDir}`);
  return Buffer.concat(await Promise.all(names.map((n) => readFile(join(fx.dataDir, n)))));
}

describe('a note to recipients', () => {
  test('upload --note: recipients read it decrypted; the server holds only ciphertext', async () => {
    const note = `Signed copy inside ${randomBytes(6).toString('hex')}`;
    const file = await write('contract.pdf', randomBytes(5_000));
    const up = await owner('upload', file, '--note', note, '--json');
    assert.equal(up.code, 0, up.stderr);
    const { link } = JSON.parse(up.stdout) as { link: string; note: boolean };
    assert.equal((await info(recipient, link)).note, note);
    const text = await recipient('info', link);
    assert.match(text.stdout, new RegExp(`note: ${note}`));
    assert.equal(
      (await databaseBytes()).includes(Buffer.from(note)),
      false,
      'the note never reaches the server in plaintext',
    );

    // The owner changes it, then removes it.
    const changed = await owner('set', link, '--note', 'Second thoughts');
    assert.equal(changed.code, 0, changed.stderr);
    assert.equal((await info(recipient, link)).note, 'Second thoughts');
    assert.equal((await owner('set', link, '--note', 'none')).code, 0);
    assert.equal((await info(recipient, link)).note, null);
  });

  test('a note over 800 characters is refused before anything is created', async () => {
    const file = await write('n.txt', 'x');
    const r = await owner('upload', file, '--note', 'é'.repeat(801));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /801 characters: at most 800/);
  });
});

describe('set', () => {
  test('the expiry moves, the folder limit and a file limit change, and the server enforces them', async () => {
    const a = await write('a.txt', 'first file');
    const b = await write('b.txt', 'second file');
    const up = await owner('upload', a, b, '--expires', '1d', '--json');
    assert.equal(up.code, 0, up.stderr);
    const { link } = JSON.parse(up.stdout) as { link: string };
    const before = await info(recipient, link);
    assert.equal(before.maxDownloads, null);

    const extended = await owner('set', link, '--expires', '14d', '--json');
    assert.equal(extended.code, 0, extended.stderr);
    const after = await info(recipient, link);
    assert.ok(after.expiresAt! > before.expiresAt! + 12 * 86_400_000, 'the expiry moved 13 days later');
    assert.equal((JSON.parse(extended.stdout) as { expiresAt: number }).expiresAt, after.expiresAt);

    // One download of b.txt only (its own limit); the folder's limit of 5 stays for a.txt.
    assert.equal((await owner('set', link, '--max-downloads', '5')).code, 0);
    const one = await owner('set', link, '--file', 'b.txt', '--max-downloads', '1');
    assert.equal(one.code, 0, one.stderr);
    const limited = await info(recipient, link);
    assert.equal(limited.maxDownloads, 5);
    const fileB = limited.files.find((f) => f.name === 'b.txt')!;
    assert.equal(fileB.maxDownloads, 1);
    assert.equal(limited.files.find((f) => f.name === 'a.txt')!.maxDownloads, null);

    const first = await recipient('download', link, join(fx.dir, 'got-1'));
    assert.equal(first.code, 0, first.stderr);
    assert.equal(await readFile(join(fx.dir, 'got-1', 'b.txt'), 'utf8'), 'second file');
    const second = await recipient('download', link, join(fx.dir, 'got-2'));
    assert.equal(second.code, 3, 'the second download of b.txt is refused');
    assert.match(second.stderr, /limit/i);

    // none: the folder's limit applies to b.txt again (5, of which 1 is used).
    assert.equal((await owner('set', link, '--file', fileB.fileId, '--max-downloads', 'none')).code, 0);
    const again = await recipient('download', link, join(fx.dir, 'got-3'));
    assert.equal(again.code, 0, again.stderr);
  });

  test('bad values and a stranger are refused, and nothing changes', async () => {
    const file = await write('c.txt', 'third');
    const up = await owner('upload', file, '--json');
    const { link } = JSON.parse(up.stdout) as { link: string };
    const before = await info(recipient, link);
    for (const args of [
      ['--expires', '0d'],
      ['--max-downloads', '-1'],
      ['--max-downloads=0'],
      [],
      ['--file', 'c.txt', '--expires', '2d'],
      ['--note='],
    ]) {
      const r = await owner('set', link, ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    }
    const unknown = await owner('set', link, '--file', 'nope.txt', '--max-downloads', '1');
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /no file named/);
    const stranger = await recipient('set', link, '--max-downloads', '1');
    assert.equal(stranger.code, 2, stranger.stderr);
    assert.match(stranger.stderr, /owner's credential/);
    assert.deepEqual(await info(recipient, link), before);
  });
});

describe('activity', () => {
  test('the owner sees the upload and a recipient download, with decrypted names', async () => {
    const file = await write('report.pdf', randomBytes(2_000));
    const up = await owner('upload', file, '--json');
    const { link } = JSON.parse(up.stdout) as { link: string };
    const first = JSON.parse((await owner('activity', link, '--json')).stdout) as { events: { kind: string }[] };
    assert.deepEqual(
      first.events.map((e) => e.kind),
      ['upload'],
      'the completed upload, before anyone downloads',
    );
    const got = await recipient('download', link, join(fx.dir, 'act'));
    assert.equal(got.code, 0, got.stderr);
    const r = await owner('activity', link, '--json');
    assert.equal(r.code, 0, r.stderr);
    const { events } = JSON.parse(r.stdout) as { events: { kind: string; name: string | null; ip: string | null }[] };
    assert.deepEqual(
      events.map((e) => [e.kind, e.name, e.ip]),
      [
        ['download', 'report.pdf', null],
        ['upload', 'report.pdf', null],
      ],
    );
    const text = await owner('activity', link);
    assert.match(text.stdout, /download {2}report\.pdf/);
    // Deleted, the file is still named: by its deletion's line (the stored encrypted name).
    const deleted = await owner('delete', link, '--file', 'report.pdf');
    assert.equal(deleted.code, 0, deleted.stderr);
    const after = JSON.parse((await owner('activity', link, '--json')).stdout) as {
      events: { kind: string; name: string | null }[];
    };
    assert.deepEqual(
      after.events.map((e) => [e.kind, e.name]),
      [
        ['delete', 'report.pdf'],
        ['download', 'report.pdf'],
        ['upload', 'report.pdf'],
      ],
    );
    const refused = await recipient('activity', link);
    assert.equal(refused.code, 2, 'a recipient has no owner credential');
  });
});

describe('notify', () => {
  test('finds the owner credential of a folder this machine made, as delete does', async () => {
    const file = await write('d.txt', 'fourth');
    const { link } = JSON.parse((await owner('upload', file, '--json')).stdout) as { link: string };
    // A webhook: this server sends no e-mail. No download happens, so nothing is delivered.
    const hook = 'https://hooks.example.org/webfolder';
    const set = await owner('notify', link, '--webhook-url', hook, '--on', 'download', '--json');
    assert.equal(set.code, 0, set.stderr);
    assert.equal((JSON.parse(set.stdout) as { webhookUrl: string }).webhookUrl, hook);
    const shown = await owner('notify', link);
    assert.match(shown.stdout, /notify of: downloads\ne-mail: none\nwebhook: https:\/\/hooks\.example\.org\/webfolder/);
    const stranger = await recipient('notify', link, '--off');
    assert.equal(stranger.code, 2, stranger.stderr);
    assert.match(stranger.stderr, /owner's credential/);
    assert.match((await owner('notify', link)).stdout, /notify of: downloads/, 'the stranger changed nothing');
  });
});
