import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseCommandLine } from '../../src/client/cli.js';
import { getUploadStatus, readStateFile } from '../../src/client/node/index.js';
import { type CliRun, startCli } from '../support/cli.js';
import { type Gate, startGate } from '../support/gate.js';
import { until } from '../support/poll.js';
import { freePort, type SpawnedServer, spawnServer, tempDir } from '../support/server.js';

/**
 * The `webfolder` command as a child process against a real server child process: output shapes,
 * exit codes, SIGKILL mid-upload then `webfolder resume` (only the missing chunks are PUT, counted
 * from the server's request log), download and byte comparison.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const MIB = 1024 * 1024;

let server: SpawnedServer;
/** In front of the server for chunk uploads (BASE_URL), so a test can hold chunks back. */
let gate: Gate;
let dataDir: string;
let dir: string;
let stateDir: string;

before(async () => {
  dataDir = await tempDir('webfolder-cli-data-');
  dir = await tempDir('webfolder-cli-');
  stateDir = join(dir, 'state');
  // A low chunk rate makes the CLI meet 429s, which it must honour: 4 chunk requests a second, which
  // an upload or a download of a few chunks on loopback goes past (each 429's Retry-After is then a
  // second at most, not the two of a longer window). Chunk URLs lead through the gate (BASE_URL);
  // links and API calls go to the server directly (WEB_URL, WEBFOLDER_SERVER).
  const port = await freePort();
  gate = await startGate(port);
  server = await spawnServer(
    {
      DATA_DIR: dataDir,
      BASE_URL: gate.url,
      WEB_URL: `http://127.0.0.1:${port}`,
      CHUNK_SIZE_MIB: '5',
      RATE_LIMIT_CHUNK: '4',
      RATE_LIMIT_WINDOW_SECONDS: '1',
      // Request lines are written at debug: the resume test counts the PUTs the server answered 200.
      LOG_LEVEL: 'debug',
    },
    port,
  );
});
after(async () => {
  await server.stop();
  await gate.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

type Run = CliRun;

function start(
  args: string[],
  env: Record<string, string> = {},
  /** Another entry than the CLI's own (entries.ts), as `node --import tsx <script>`. */
  script?: string,
  cwd = ROOT,
): { child: ChildProcess; done: Promise<Run> } {
  const options = script ? { script, cwd } : { cwd };
  return startCli(args, { WEBFOLDER_SERVER: server.baseUrl, WEBFOLDER_STATE_DIR: stateDir, ...env }, options);
}

const cli = (args: string[], env: Record<string, string> = {}) => start(args, env).done;

/** Successful chunk PUTs in the server's request log (pino lines), from character offset `from`. */
function successfulPuts(from: number): number {
  const requests = new Map<string, string>();
  let count = 0;
  for (const line of server.output().slice(from).split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: { reqId?: string; req?: { method?: string; url?: string }; res?: { statusCode?: number } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.req?.method && entry.reqId) requests.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
    if (entry.res?.statusCode === 200 && entry.reqId && /^PUT \/v2\/uploads\//.test(requests.get(entry.reqId) ?? ''))
      count++;
  }
  return count;
}

describe('webfolder upload / download', () => {
  test('--json prints one object with the link and folderId; secrets stay off stderr; download is byte-identical', async () => {
    const a = join(dir, 'a.bin');
    const b = join(dir, 'b.txt');
    const bytes = randomBytes(11 * MIB + 7);
    await writeFile(a, bytes);
    await writeFile(b, 'second file\n');
    const run = await cli(['upload', a, b, '--json', '--title', 'cli test', '--state', join(dir, 'json-state.json')]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'exactly one JSON line');
    const out = JSON.parse(lines[0]!) as {
      link: string;
      folderId: string;
      folderUrl: string;
      files: { name: string; fileId: string; size: number; chunks: number }[];
      chunksSent: number;
    };
    assert.match(out.link, new RegExp(`^${server.baseUrl}/f/${out.folderId}#[A-Za-z0-9_-]{22}$`));
    assert.equal(out.folderUrl, out.link.split('#')[0]);
    assert.deepEqual(
      out.files.map((f) => [f.name, f.size, f.chunks]),
      [
        ['a.bin', bytes.length, 3],
        ['b.txt', 12, 1],
      ],
    );
    assert.ok(!('uploadAuth' in out), 'uploadAuth is not printed');
    const secret = out.link.split('#')[1]!;
    assert.ok(!run.stderr.includes(secret), 'the secret is not on stderr');
    assert.ok(!existsSync(join(dir, 'json-state.json')), 'the state file is removed once the upload is complete');

    const dest = join(dir, 'received');
    const dl = await cli(['download', out.link, dest, '--json']);
    assert.equal(dl.code, 0, dl.stderr);
    const dlOut = JSON.parse(dl.stdout) as { files: { name: string; path: string }[] };
    assert.deepEqual(
      dlOut.files.map((f) => f.name),
      ['a.bin', 'b.txt'],
    );
    assert.ok((await readFile(join(dest, 'a.bin'))).equals(bytes));
    assert.equal(await readFile(join(dest, 'b.txt'), 'utf8'), 'second file\n');

    const status = await cli(['status', out.link, '--json']);
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { complete: boolean }).complete, true);

    const wrong = await cli(['download', `${out.folderUrl}#${'A'.repeat(22)}`, join(dir, 'nope')]);
    assert.equal(wrong.code, 5);
    assert.match(wrong.stderr, /does not open the folder/);
  });

  test('a directory uploads as one folder of more than 10 files with its paths; sizes as the site writes them', async () => {
    // The CLI once refused directories and more than 10 files, while the site put a picked
    // folder of any size into one folder; and it wrote 5,000,000 bytes as "4.8 MiB".
    const tree = join(dir, 'tree');
    await mkdir(join(tree, 'sub', 'deeper'), { recursive: true });
    const expected = new Map<string, Buffer>();
    for (let i = 0; i < 11; i++) {
      const rel = i < 5 ? `f${i}.txt` : i < 9 ? `sub/f${i}.txt` : `sub/deeper/f${i}.txt`;
      const bytes = randomBytes(100 + i);
      await writeFile(join(tree, rel), bytes);
      expected.set(`tree/${rel}`, bytes);
    }
    const big = randomBytes(5_000_000);
    await writeFile(join(tree, 'big.bin'), big);
    expected.set('tree/big.bin', big);
    await writeFile(join(tree, 'sub', 'empty.txt'), '');
    const run = await cli(['upload', tree, '--json', '--state', join(dir, 'tree-state.json')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /left out 1 empty file/);
    const out = JSON.parse(run.stdout) as { link: string; files: { name: string }[] };
    assert.deepEqual(out.files.map((f) => f.name).sort(), [...expected.keys()].sort());

    const dest = join(dir, 'tree-received');
    const dl = await cli(['download', out.link, dest]);
    assert.equal(dl.code, 0, dl.stderr);
    for (const [name, bytes] of expected) assert.ok((await readFile(join(dest, name))).equals(bytes), name);
    assert.match(dl.stderr, /saved \S*big\.bin \(5\.00 MB\)/);
    assert.doesNotMatch(dl.stderr, /MiB|KiB/);
  });

  test('request mode: upload prints the owner token (uploadAuth), and only with it does download list the folder', async () => {
    const file = join(dir, 'asked-for.txt');
    await writeFile(file, 'for the owner only\n');
    const run = await cli(['upload', file, '--mode', 'request', '--json', '--state', join(dir, 'request-state.json')]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { link: string; uploadAuth?: string };
    assert.match(out.uploadAuth ?? '', /^[A-Za-z0-9_-]{20,}$/, 'uploadAuth is printed in request mode');
    assert.ok(!run.stderr.includes(out.uploadAuth!), 'the token goes to stdout only');

    // A visitor is another machine (its own state directory: this one keeps the uploader's credential).
    const visitor = await cli(['download', out.link, join(dir, 'request-visitor')], {
      WEBFOLDER_STATE_DIR: join(dir, 'visitor-state'),
    });
    assert.equal(visitor.code, 3, 'without the token the listing is refused');
    const owner = await cli([
      'download',
      out.link,
      join(dir, 'request-owner'),
      // With "=", as the help and the hint say: one token in 64 begins with "-".
      `--upload-auth=${out.uploadAuth!}`,
      '--json',
    ]);
    assert.equal(owner.code, 0, owner.stderr);
    assert.equal(await readFile(join(dir, 'request-owner', 'asked-for.txt'), 'utf8'), 'for the owner only\n');

    // Human output: the link stays the first line (scripts read it), the token comes after it.
    const human = await cli(['upload', file, '--mode', 'request']);
    assert.equal(human.code, 0, human.stderr);
    const [link, tokenLine, ...rest] = human.stdout.trim().split('\n');
    assert.match(link!, /#[A-Za-z0-9_-]{22}$/);
    assert.match(tokenLine!, /^owner token: [A-Za-z0-9_-]{20,}$/);
    assert.deepEqual(rest, []);
    // The hint shows the spelling that works for every token, "-" first included.
    assert.match(human.stderr, /webfolder download <link> --upload-auth=<token>/);
    assert.doesNotMatch(human.stderr, /--upload-auth <token>/);
  });

  test('SIGKILL mid-upload, then `webfolder resume` sends only the missing chunks and the file is byte-identical', async () => {
    const path = join(dir, 'killed.bin');
    const bytes = randomBytes(8 * 5 * MIB - 3); // 8 chunks
    await writeFile(path, bytes);
    const statePath = join(dir, 'killed-state.json');
    // The gate lets the PUTs of the first 4 chunks through (retries after a 429 included) and holds
    // every other: with 2 PUTs at a time, 4 chunks get stored, 2 wait at the gate, and the upload can
    // go no further. Then it is killed. (Which 4 is the engine's choice of order.)
    const chunkNumber = (url = '') => Number(/\/(\d{5})\?/.exec(url)?.[1] ?? 0);
    const passed = new Set<number>();
    gate.hold((req) => {
      if (req.method !== 'PUT') return false;
      const n = chunkNumber(req.url);
      if (passed.size < 4) passed.add(n);
      return !passed.has(n);
    });
    const { child, done } = start(['upload', path, '--concurrency', '2', '--state', statePath]);
    const state = await until('the state file', async () =>
      existsSync(statePath) ? await readStateFile(statePath) : undefined,
    );
    const statusNow = () =>
      getUploadStatus({
        server: server.baseUrl,
        folderId: state.folderId,
        fileId: state.files[0]!.fileId,
        uploadAuth: state.uploadAuth,
      });
    await until('4 chunks stored and 2 PUTs held at the gate', async () =>
      gate.held().length === 2 && (await statusNow()).missing.length === 4 ? true : undefined,
    );
    const notPassed = [1, 2, 3, 4, 5, 6, 7, 8].filter((n) => !passed.has(n));
    const held = gate.held().map((req) => chunkNumber(req.url));
    assert.ok(
      held.every((n) => notPassed.includes(n)),
      `held ${held}, passed ${[...passed]}`,
    );
    child.kill('SIGKILL');
    const killed = await done;
    assert.equal(killed.code, null, 'the CLI died by the signal');
    gate.drop();
    const missing = (await statusNow()).missing;
    assert.deepEqual(missing, notPassed, 'the kill left exactly the chunks that never passed the gate missing');

    const logFrom = server.output().length;
    const resumed = await cli(['resume', statePath, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const out = JSON.parse(resumed.stdout) as { link: string; chunksSent: number };
    assert.equal(out.chunksSent, missing.length, 'only the missing chunks are sent');
    assert.equal(successfulPuts(logFrom), missing.length, 'the server stored exactly the missing chunks');
    assert.deepEqual(await statusNow(), { complete: true, missing: [] });

    const dest = join(dir, 'after-resume');
    const dl = await cli(['download', out.link, dest]);
    assert.equal(dl.code, 0, dl.stderr);
    assert.ok((await readFile(join(dest, 'killed.bin'))).equals(bytes), 'byte-identical after resume');
  });
});

describe('webfolder exit codes and other commands', () => {
  test('Ctrl-C (SIGINT) stops an upload with exit 130, keeps the state file and says how to resume', async () => {
    const path = join(dir, 'interrupted.bin');
    await writeFile(path, randomBytes(6 * 5 * MIB));
    const statePath = join(dir, 'interrupted-state.json');
    const { child, done } = start(['upload', path, '--concurrency', '1', '--state', statePath]);
    for (let i = 0; i < 600 && !existsSync(statePath); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(statePath), 'the state file is written before the chunks');
    child.kill('SIGINT');
    const run = await done;
    assert.equal(run.code, 130, run.stderr);
    assert.ok(existsSync(statePath), 'the state file is kept');
    assert.match(run.stderr, /webfolder resume .*interrupted-state\.json/);
    const state = await readStateFile(statePath);
    assert.ok(!run.stderr.includes(state.secret) && !run.stderr.includes(state.uploadAuth), 'no secret on stderr');
  });

  test('usage errors exit 2', async () => {
    assert.equal((await cli([])).code, 2);
    assert.equal((await cli(['frobnicate'])).code, 2);
    assert.equal((await cli(['upload', '--bogus'])).code, 2);
    assert.equal((await cli(['upload', join(dir, 'does-not-exist')])).code, 2);
    const f = join(dir, 'one.txt');
    await writeFile(f, '1');
    assert.equal((await cli(['upload', f, '--mode', 'broadcast'])).code, 2);
  });

  test('a token that begins with "-" is passed with "=" (the spelling the help and the hint use)', async () => {
    // base64url tokens begin with "-" one time in 64; parseArgs refuses such a value as the next argument.
    const token = `-${'A'.repeat(42)}`;
    const link = 'http://127.0.0.1:1/f/AbC123#secret';
    assert.equal(parseCommandLine(['download', link, `--upload-auth=${token}`]).flags['upload-auth'], token);
    assert.throws(() => parseCommandLine(['download', link, '--upload-auth', token]), /ambiguous/);
    const help = await cli(['--help']);
    assert.match(help.stdout, /--upload-auth=TOKEN/);
    assert.doesNotMatch(help.stdout, /--upload-auth[ \]]/, 'the help never shows the spelling that breaks');

    // End to end: the "-" token reaches the server (which refuses it as not the owner's: exit 3, not 2).
    const file = join(dir, 'dash.txt');
    await writeFile(file, 'dash\n');
    const made = await cli(['upload', file, '--mode', 'request', '--json', '--state', join(dir, 'dash-state.json')]);
    assert.equal(made.code, 0, made.stderr);
    const { link: folderLink } = JSON.parse(made.stdout) as { link: string };
    const spaced = await cli(['download', folderLink, join(dir, 'dash-out'), '--upload-auth', token]);
    assert.equal(spaced.code, 2, spaced.stderr);
    const joined = await cli(['download', folderLink, join(dir, 'dash-out'), `--upload-auth=${token}`]);
    assert.equal(joined.code, 3, joined.stderr);
    assert.doesNotMatch(joined.stderr, /ambiguous|usage/i);
  });

  test('--help exits 0 with examples and exit codes', async () => {
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Examples:/);
    assert.match(help.stdout, /Exit codes:/);
    const sub = await cli(['upload', '--help']);
    assert.equal(sub.code, 0);
  });

  test('a server refusal exits 3 with its {error} message; an unreachable server exits 4', async () => {
    const refused = await cli(['create', '--title', 'x'.repeat(201)]);
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /400.*title/);
    const port = await freePort();
    const unreachable = await cli(['create', '--retries', '0'], { WEBFOLDER_SERVER: `http://127.0.0.1:${port}` });
    assert.equal(unreachable.code, 4);
    assert.match(unreachable.stderr, /network error/);
  });

  test('create --json answers the empty-folder variant; status of ids works without uploadAuth', async () => {
    const created = await cli(['create', '--title', 'for someone', '--mode', 'share', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const body = JSON.parse(created.stdout) as {
      folderId: string;
      folderUrl: string;
      folderUrlBase: string;
      mode: string;
      files: unknown[];
    };
    assert.equal(body.mode, 'share');
    assert.deepEqual(body.files, []);
    assert.ok(body.folderUrl.startsWith(`${body.folderUrlBase}#`));

    const f = join(dir, 'status.txt');
    await writeFile(f, 'status');
    const up = await cli(['upload', f, '--json']);
    const out = JSON.parse(up.stdout) as { folderId: string; files: { fileId: string }[] };
    const status = await cli(['status', `${out.folderId}/${out.files[0]!.fileId}`, '--json']);
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { complete: boolean }).complete, true);
  });

  test('`webfolder serve` starts the service with flags as configuration', async () => {
    const port = await freePort();
    const data = join(dir, 'serve-data');
    // The launcher starts the service; the client CLI itself never imports server code.
    const { child, done } = start(
      ['serve', '--port', String(port), '--host', '127.0.0.1', '--data-dir', data, '--log-level', 'warn'],
      {},
      'bin/webfolder.js',
    );
    let index: { version?: string } | null = null;
    for (let i = 0; i < 300 && index === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      index = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'application/json' } })
        .then((r) => (r.ok ? (r.json() as Promise<{ version?: string }>) : null))
        .catch(() => null);
    }
    assert.ok(index, 'the service answers');
    assert.equal(index.version, 'v2');
    child.kill('SIGTERM');
    assert.equal((await done).code, 0);
  });

  test('a refused first connection fails at once: "is the server running at URL?", exit 4, no retry', async () => {
    const port = await freePort();
    const f = join(dir, 'nowhere.txt');
    await writeFile(f, 'nowhere\n');
    const address = `http://127.0.0.1:${port}`;
    for (const args of [['upload', f], ['create'], ['download', `${address}/f/AbCdEf123456#${'A'.repeat(22)}`]]) {
      const run = await cli(args, { WEBFOLDER_SERVER: address });
      assert.equal(run.code, 4, `${args[0]}: ${run.stderr}`);
      assert.equal(
        run.stderr,
        `webfolder: network error: ${address} refused the connection: is the server running at ${address}?\n`,
      );
    }
  });

  test('an unknown or misplaced flag gets our own one-line message, through the real entry', async () => {
    const bin = (args: string[]) => start(args, {}, 'bin/webfolder.js').done;
    const unknown = await bin(['upload', 'x.txt', '--titel', 'T']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, 'webfolder: unknown option --titel (did you mean --title?) (see webfolder --help)\n');
    const misplaced = await bin(['download', '--mode', 'send']);
    assert.equal(misplaced.code, 2);
    assert.equal(misplaced.stderr, 'webfolder: --mode does not apply to download (see webfolder --help)\n');
    const bogus = await bin(['upload', '--bogus']);
    assert.doesNotMatch(bogus.stderr, /To specify a positional argument|ERR_PARSE_ARGS/);
  });

  test('subfolders: a relative path keeps its folders in the name, and download recreates them', async () => {
    const base = join(dir, 'tree');
    await mkdir(join(base, 'a', 'sub'), { recursive: true });
    await writeFile(join(base, 'a', 'sub', 'b.txt'), 'deep\n');
    await writeFile(join(base, 'top.txt'), 'top\n');
    const up = await start(['upload', join('a', 'sub', 'b.txt'), 'top.txt', '--json'], {}, undefined, base).done;
    assert.equal(up.code, 0, up.stderr);
    const out = JSON.parse(up.stdout) as { link: string; files: { name: string }[] };
    assert.deepEqual(
      out.files.map((f) => f.name),
      ['a/sub/b.txt', 'top.txt'],
    );
    const dest = join(dir, 'tree-received');
    const dl = await cli(['download', out.link, dest]);
    assert.equal(dl.code, 0, dl.stderr);
    assert.equal(await readFile(join(dest, 'a', 'sub', 'b.txt'), 'utf8'), 'deep\n');
    assert.equal(await readFile(join(dest, 'top.txt'), 'utf8'), 'top\n');
    // Again into the same directory: numbered, in the same folder, nothing overwritten.
    const again = await cli(['download', out.link, dest]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await readFile(join(dest, 'a', 'sub', 'b (1).txt'), 'utf8'), 'deep\n');
  });

  test('bin/webfolder.js runs the same CLI', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/webfolder.js'), '--help'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    assert.equal(code, 0);
    assert.match(stdout, /webfolder upload/);
  });
});
