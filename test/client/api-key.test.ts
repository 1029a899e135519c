import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startCli } from '../support/cli.js';
import { type OidcFixture, startOidcProvider } from '../support/oidc.js';
import { freePort, type SpawnedServer, spawnServer, tempDir } from '../support/server.js';

/**
 * An API key with the CLI on an instance where only signed-in people make folders: a
 * person signs in through the real OpenID provider, makes a key on the site's API, and the CLI
 * uploads with it (from $WEBFOLDER_API_KEY and from --api-key-file) and downloads; without a key,
 * or with the key revoked, the upload is refused and says why. The server's trace log never holds
 * the key or the session.
 */
let provider: OidcFixture;
let server: SpawnedServer;
let dir: string;
let dataDir: string;
let session: string;
let apiKey: string;
let keyId: string;

before(async () => {
  dir = await tempDir('webfolder-api-key-');
  dataDir = await tempDir('webfolder-api-key-data-');
  const port = await freePort();
  provider = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback`] });
  server = await spawnServer(
    { ...provider.serverEnv(), CREATE_POLICY: 'signed-in', DATA_DIR: dataDir, LOG_LEVEL: 'trace' },
    port,
  );
  const login = await provider.loginOverHttp(server.baseUrl, 'alice');
  session = login.cookies.get('wf_session')!;
  const made = await fetch(`${server.baseUrl}/api/account/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `wf_session=${session}`, origin: server.baseUrl },
    body: JSON.stringify({ name: 'laptop' }),
  });
  assert.equal(made.status, 201);
  ({
    apiKey,
    key: { id: keyId },
  } = (await made.json()) as { apiKey: string; key: { id: string } });
});
after(async () => {
  await server?.kill().catch(() => {});
  await provider?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string> = {}) =>
  startCli(args, {
    WEBFOLDER_SERVER: server.baseUrl,
    WEBFOLDER_STATE_DIR: join(dir, 'state'),
    WEBFOLDER_API_KEY: '',
    ...env,
  }).done;

test('the CLI uploads with an API key (environment or file) and downloads; without one it is told to sign in', async () => {
  const file = join(dir, 'report.txt');
  await writeFile(file, 'quarterly numbers\n'.repeat(1000));

  const anonymous = await cli(['upload', file, '--json']);
  assert.notEqual(anonymous.code, 0);
  assert.match(anonymous.stderr, /signed-in|API key/i, anonymous.stderr);

  const withEnv = await cli(['upload', file, '--json'], { WEBFOLDER_API_KEY: apiKey });
  assert.equal(withEnv.code, 0, withEnv.stderr);
  const uploaded = JSON.parse(withEnv.stdout) as { link: string; folderId: string };
  assert.ok(!withEnv.stderr.includes(apiKey) && !withEnv.stdout.includes(apiKey), 'the key is never printed');

  const keyFile = join(dir, 'key.txt');
  await writeFile(keyFile, `${apiKey}\n`, { mode: 0o600 });
  const withFile = await cli(['upload', file, '--json', '--api-key-file', keyFile]);
  assert.equal(withFile.code, 0, withFile.stderr);

  const dest = join(dir, 'out');
  const download = await cli(['download', uploaded.link, dest, '--json'], { WEBFOLDER_API_KEY: apiKey });
  assert.equal(download.code, 0, download.stderr);
  assert.equal(await readFile(join(dest, 'report.txt'), 'utf8'), await readFile(file, 'utf8'));

  // The folders are the account's: the key's last use is recorded.
  const keys = await fetch(`${server.baseUrl}/api/account/keys`, { headers: { cookie: `wf_session=${session}` } });
  const listed = (await keys.json()) as { keys: { id: string; lastUsedAt: number | null }[] };
  assert.ok(listed.keys.find((k) => k.id === keyId)?.lastUsedAt, 'last use recorded');
});

test('a malformed key is refused by the CLI before anything is sent, without echoing it', async () => {
  const run = await cli(['upload', join(dir, 'report.txt')], { WEBFOLDER_API_KEY: 'wfk_short-secret-value' });
  assert.notEqual(run.code, 0);
  assert.doesNotMatch(run.stderr, /short-secret-value/);
});

test('a revoked key is refused with api_key_invalid; the log never held the key or the session', async () => {
  const revoked = await fetch(`${server.baseUrl}/api/account/keys/${keyId}`, {
    method: 'DELETE',
    headers: { cookie: `wf_session=${session}`, origin: server.baseUrl },
  });
  assert.equal(revoked.status, 204);
  const run = await cli(['upload', join(dir, 'report.txt'), '--json'], { WEBFOLDER_API_KEY: apiKey });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /unknown or revoked/, run.stderr);
  await server.stop();
  const log = server.output();
  assert.match(log, /authorization/i, 'requests with the header were logged (redacted)');
  for (const secret of [apiKey, apiKey.slice(4), session])
    assert.equal(log.includes(secret), false, `the log leaks ${secret.slice(0, 6)}…`);
});
