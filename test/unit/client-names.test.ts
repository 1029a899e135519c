import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, sep } from 'node:path';
import { describe, test } from 'node:test';
import { parseCommandLine } from '../../src/client/cli.js';
import {
  exchange,
  type Fetch,
  failFast,
  NetworkError,
  nameSegments,
  numbered,
  parseShareLink,
  ServerUnreachableError,
  saveName,
  savePath,
  uniqueNames,
  uploadName,
  uploadNameOf,
} from '../../src/client/node/index.js';
import { freePort } from '../support/server.js';

/** The one rule for names with folders (src/transfer/names.ts), the fail-fast transport, our flag messages. */
describe('names with folders', () => {
  test('stored: the relative path with "/", cleaned', () => {
    assert.equal(uploadName('a/sub/b.txt'), 'a/sub/b.txt');
    assert.equal(uploadName('a\\sub/./b.txt'), 'a/sub/b.txt');
    assert.equal(uploadName('/a//b.txt'), 'a/b.txt');
    assert.equal(uploadName('../../b.txt'), 'b.txt');
    assert.equal(uploadName('..', 'fallback'), 'fallback');
  });

  test('the CLI: a relative path below the current directory keeps its folders; others their file name', () => {
    assert.equal(uploadNameOf(join('a', 'sub', 'b.txt')), 'a/sub/b.txt');
    assert.equal(uploadNameOf(`.${sep}b.txt`), 'b.txt');
    assert.equal(uploadNameOf(join('a', '..', 'b.txt')), 'b.txt');
    assert.equal(uploadNameOf(join('..', 'x', 'b.txt')), 'b.txt');
    assert.equal(uploadNameOf(join(process.cwd(), 'a', 'b.txt')), 'b.txt');
  });

  test('saved into a directory or a zip: the folders kept, never leaving it', () => {
    assert.equal(savePath('a/sub/b.txt', 'id'), 'a/sub/b.txt');
    assert.equal(savePath('../../etc/passwd', 'id'), 'etc/passwd');
    assert.equal(savePath('/abs/./x', 'id'), 'abs/x');
    assert.equal(savePath('dir\\evil.exe', 'id'), 'dir/evil.exe');
    assert.equal(savePath('a\u0000b/\nc', 'id'), 'a_b/_c');
    assert.equal(savePath('../..', 'id'), 'id');
    assert.equal(savePath('', 'id'), 'id');
    assert.equal(savePath(`${'x'.repeat(300)}/y`, 'id'), `${'x'.repeat(255)}/y`);
  });

  test('a single download: the last segment', () => {
    assert.equal(saveName('a/sub/b.txt', 'id'), 'b.txt');
    assert.equal(saveName('b.txt', 'id'), 'b.txt');
    assert.equal(saveName('a/..', 'id'), 'a');
    assert.equal(saveName('/', 'id'), 'id');
    assert.deepEqual(nameSegments(' a / b '), ['a', 'b']);
  });

  test('unique paths for a zip number the last segment, before its extension', () => {
    assert.deepEqual(uniqueNames(['a/b.txt', 'a/b.txt', 'a.d/b', 'a.d/b', '../a/b.txt', '', '']), [
      'a/b.txt',
      'a/b (2).txt',
      'a.d/b',
      'a.d/b (2)',
      'a/b (3).txt',
      'file',
      'file (2)',
    ]);
    assert.equal(numbered('.bashrc', 1), '.bashrc (1)');
  });
});

describe('failFast transport', () => {
  test('a refused first connection fails at once, without retries, naming the address', async () => {
    const port = await freePort();
    let calls = 0;
    const counting: Fetch = (url, init) => {
      calls++;
      return fetch(url, init);
    };
    const url = `http://127.0.0.1:${port}/v2/folders`;
    await assert.rejects(
      exchange('create folder', url, { method: 'POST' }, { fetch: failFast(counting), retry: { retries: 5 } }),
      (error: unknown) =>
        error instanceof ServerUnreachableError &&
        error instanceof NetworkError &&
        error.message.includes(`is the server running at http://127.0.0.1:${port}?`),
    );
    assert.equal(calls, 1, 'no retry');
  });

  test('once the server has answered, a refused connection is retried as before', async () => {
    const server = createServer((_req, res) => res.end('{}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    let calls = 0;
    const counting: Fetch = (url, init) => {
      calls++;
      return fetch(url, init);
    };
    const transport = failFast(counting);
    const http = { fetch: transport, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } };
    await exchange('first', `http://127.0.0.1:${port}/`, {}, http);
    await new Promise<void>((r) => server.close(() => r()));
    await assert.rejects(
      exchange('later', `http://127.0.0.1:${port}/`, {}, http),
      (error: unknown) => error instanceof NetworkError && !(error instanceof ServerUnreachableError),
    );
    assert.equal(calls, 1 + 3, 'the later call was tried 1 + 2 retries times');
  });
});

describe('command-line messages', () => {
  const refused = (args: string[], command: string, message: RegExp) =>
    assert.throws(
      () => parseCommandLine(args, command),
      (e: unknown) => e instanceof Error && message.test(e.message) && !e.message.includes('\n'),
    );
  test('our own one-line messages, never node:util text', () => {
    refused(['--bogus'], 'upload', /^unknown option --bogus$/);
    refused(['--titel', 'x'], 'upload', /^unknown option --titel \(did you mean --title\?\)$/);
    refused(['-x'], 'upload', /^unknown option -x$/);
    refused(['--title'], 'upload', /^--title needs a value/);
    refused(['--json=yes'], 'upload', /^--json takes no value$/);
    refused(['--title', 'x'], 'download', /^--title does not apply to download$/);
    refused(['--upload-auth', '-abc'], 'download', /ambiguous: write --upload-auth=VALUE$/);
    assert.deepEqual(parseCommandLine(['x', '--', '--json'], 'upload').positionals, ['x', '--json']);
    assert.equal(parseCommandLine(['--upload-auth=-abc'], 'download').flags['upload-auth'], '-abc');
  });
});

describe('owner links', () => {
  test('"#<secret>&owner=<owner secret>" gives both; a share link has no owner secret', () => {
    const owner = parseShareLink('https://x.example/f/AbC123#q_-x&owner=N8s-y');
    assert.equal(owner.secret, 'q_-x');
    assert.equal(owner.ownerSecret, 'N8s-y');
    assert.equal(owner.folderId, 'AbC123');
    assert.equal(parseShareLink('https://x.example/f/AbC123#q_-x').ownerSecret, undefined);
  });
});
