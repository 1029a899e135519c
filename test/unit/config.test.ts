import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import {
  flagOf,
  flagsToEnv,
  KNOWN_VARIABLES,
  readVariables,
  unknownVariables,
  VARIABLES,
} from '../../src/config/variables.js';
import { entryArgv } from '../support/entries.js';

test('only PORT, HOST and DATA_DIR: every URL points at this process', () => {
  const c = loadConfig({ PORT: '9000', HOST: '127.0.0.2', DATA_DIR: '/tmp/x' });
  assert.equal(c.baseUrl, 'http://127.0.0.2:9000');
  assert.equal(c.webUrl, 'http://127.0.0.2:9000');
  assert.equal(c.docsUrl, 'http://127.0.0.2:9000/docs');
  assert.equal(c.dataDir, '/tmp/x');
  assert.equal(c.contactEmail, null, 'no webmaster@ an IP address: nobody receives mail there');
  assert.equal(loadConfig({ BASE_URL: 'https://files.example.org' }).contactEmail, 'webmaster@files.example.org');
  for (const host of ['localhost:8080', '[::1]:8080', 'box', 'nas.local', 'files.example'])
    assert.equal(loadConfig({ BASE_URL: `http://${host}` }).contactEmail, null, host);
  assert.equal(loadConfig({ CONTACT_EMAIL: ' ops@example.com ' }).contactEmail, 'ops@example.com');
  assert.equal(
    loadConfig({ HOST: '0.0.0.0' }).baseUrl,
    'http://localhost:8080',
    'a wildcard bind gets a reachable name',
  );
  assert.equal(loadConfig({ HOST: '::1', PORT: '1' }).baseUrl, 'http://[::1]:1');
});

test("the instance's name and legal pages: webfolder and none by default", () => {
  const plain = loadConfig({});
  assert.deepEqual([plain.siteName, plain.imprintUrl, plain.privacyUrl], ['webfolder', null, null]);
  const branded = loadConfig({
    SITE_NAME: '  Acme Files  ',
    IMPRINT_URL: 'https://acme.example/imprint',
    PRIVACY_URL: 'https://acme.example/privacy',
  });
  assert.deepEqual(
    [branded.siteName, branded.imprintUrl, branded.privacyUrl],
    ['Acme Files', 'https://acme.example/imprint', 'https://acme.example/privacy'],
  );
});

test('explicit URLs win and lose their trailing slash; flags win over the environment', () => {
  const c = loadConfig({ BASE_URL: 'https://api.example.com/', WEB_URL: 'https://example.com/' }, [
    '--docs-url',
    'https://docs.example.com',
    '--port=81',
  ]);
  assert.equal(c.baseUrl, 'https://api.example.com');
  assert.equal(c.webUrl, 'https://example.com');
  assert.equal(c.docsUrl, 'https://docs.example.com');
  assert.equal(c.port, 81);
});

test('invalid configuration names the variable', () => {
  const cases: Array<[Record<string, string>, string[], RegExp]> = [
    [{ PORT: 'eighty' }, [], /^PORT: must be a whole number/],
    [{ PORT: '70000' }, [], /^PORT: must be between 0 and 65535/],
    [{ BASE_URL: 'not a url' }, [], /^BASE_URL: must be an absolute URL/],
    [{ WEB_URL: 'ftp://x' }, [], /^WEB_URL: must use http: or https:/],
    [{ DOCS_URL: 'https://x/#a' }, [], /^DOCS_URL: must not have a query or fragment/],
    [{ CONTACT_EMAIL: 'nobody' }, [], /^CONTACT_EMAIL: must be an e-mail address/],
    [{ SITE_NAME: 'x'.repeat(61) }, [], /^SITE_NAME: must be at most 60 characters/],
    [{ SITE_NAME: 'Acme\nFiles' }, [], /^SITE_NAME: must be one line of text/],
    [{ IMPRINT_URL: 'javascript:alert(1)' }, [], /^IMPRINT_URL: must use http: or https:/],
    [{ PRIVACY_URL: 'privacy.html' }, [], /^PRIVACY_URL: must be an absolute URL/],
    [{ CHUNK_SIZE_MIB: '4' }, [], /^CHUNK_SIZE_MIB: must be between 5/],
    [{ CHUNK_SIZE_MIB: '5.5' }, [], /^CHUNK_SIZE_MIB: must be a whole number/],
    [{ TRUST_PROXY: 'maybe' }, [], /^TRUST_PROXY: must be true or false/],
    [{ LOG_LEVEL: 'loud' }, [], /^LOG_LEVEL: must be one of/],
    [{ SIGNING_SECRET: 'short' }, [], /^SIGNING_SECRET: must be at least 32 characters/],
    [{ DATABASE_URL: 'mysql://x' }, [], /^DATABASE_URL: must use postgres: or postgresql:/],
    [{ S3_BUCKET: 'Bad_Bucket' }, [], /^S3_BUCKET: "Bad_Bucket" is not a valid bucket name/],
    [{}, ['--colour', 'red'], /^--colour: unknown flag/],
    [{}, ['--port'], /^--port: needs a value/],
    [{}, ['serve'], /^serve: unexpected argument/],
  ];
  for (const [env, argv, message] of cases) {
    assert.throws(
      () => loadConfig(env, argv),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
      JSON.stringify([env, argv]),
    );
  }
});

test('a bad variable stops the real start with a message naming it', async () => {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, entryArgv('main'), {
    env: { ...process.env, PORT: 'x' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /invalid configuration: PORT: must be a whole number/);
});

test('one table: every variable has its flag, and the flags are exactly the table', () => {
  assert.equal(new Set(KNOWN_VARIABLES).size, KNOWN_VARIABLES.length);
  assert.deepEqual(KNOWN_VARIABLES, Object.keys(VARIABLES));
  for (const name of KNOWN_VARIABLES) assert.deepEqual(Object.keys(flagsToEnv([flagOf(name), 'x'])), [name]);
  assert.throws(() => flagsToEnv(['--portt', '1']), /--portt: unknown flag/);
  // Every default parses: an empty environment is a working configuration.
  assert.doesNotThrow(() => readVariables({}));
});

test('misspelled and unknown webfolder-like variables are found; other programs’ are not', () => {
  const env = {
    PORTT: '9000',
    BASE_ULR: 'https://x.example',
    S3_SECRET_KEY: 'k',
    RATE_LIMIT_UPLOADS: '5',
    WEBFOLDER_PORT: '1',
    // Other programs' variables, some of them near a name of ours.
    HOME: '/root',
    HOST: '127.0.0.1',
    HOSTNAME: 'box',
    PATH: '/usr/bin',
    PWD: '/',
    LANG: 'C',
    TERM: 'xterm',
    NODE_ENV: 'production',
    container: 'podman',
  };
  assert.deepEqual(unknownVariables(env), [
    { name: 'BASE_ULR', suggestion: 'BASE_URL' },
    { name: 'PORTT', suggestion: 'PORT' },
    { name: 'RATE_LIMIT_UPLOADS', suggestion: null },
    { name: 'S3_SECRET_KEY', suggestion: null },
    { name: 'WEBFOLDER_PORT', suggestion: null },
  ]);
});

test('BASE_URL_REQUIRED (the container image) refuses a start without BASE_URL, with what to set', () => {
  assert.throws(
    () => loadConfig({ BASE_URL_REQUIRED: 'true', HOST: '0.0.0.0' }),
    /BASE_URL: is required here \(the container image\): set it to the address .* -e BASE_URL=https:\/\//,
  );
  assert.equal(loadConfig({ BASE_URL_REQUIRED: 'true', BASE_URL: 'https://f.example/' }).baseUrl, 'https://f.example');
});

test('metrics: nowhere by default, loopback for their own port', () => {
  const none = loadConfig({});
  assert.equal(none.ops.metricsPort, null);
  assert.equal(none.ops.metricsToken, null);
  assert.equal(loadConfig({ METRICS_PORT: '9464', HOST: '0.0.0.0' }).ops.metricsHost, '127.0.0.1');
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN: must be at least 16 characters/);
});
