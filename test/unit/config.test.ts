import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { type Config, ConfigError, loadConfig } from '../../src/config/config.js';
import { withConfigTables } from '../../src/config/docs-table.js';
import {
  flagOf,
  flagsToEnv,
  KNOWN_VARIABLES,
  SECTIONS,
  unknownVariables,
  VARIABLES,
  type Variable,
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
  assert.doesNotThrow(() => loadConfig({}));
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
  assert.equal(loadConfig({ METRICS_PORT: '9464' }).ops.metricsPort, 9464);
  assert.equal(none.ops.metricsToken, null);
  assert.equal(loadConfig({ METRICS_PORT: '9464', HOST: '0.0.0.0' }).ops.metricsHost, '127.0.0.1');
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN: must be at least 16 characters/);
});

/**
 * An environment in which every section uses all its variables: S3, sign-in, mail and webhooks on,
 * so that no variable is ignored for want of another.
 */
const EVERYTHING_ON = {
  S3_BUCKET: 'files',
  OIDC_ISSUER: 'https://id.example.com',
  OIDC_CLIENT_ID: 'webfolder',
  SMTP_URL: 'smtp://mail.example.com',
  MAIL_FROM: 'files@example.com',
  WEBHOOK_URL: 'https://hooks.example.com/a',
  WEBHOOK_SECRET: 'w'.repeat(32),
};

/** A valid value other than the one `EVERYTHING_ON` gives, for the variables whose bounds are prose. */
const OTHER_VALUES: Record<string, string> = {
  HOST: '127.0.0.9',
  BASE_URL: 'https://files.example.com',
  WEB_URL: 'https://web.example.com',
  DOCS_URL: 'https://docs.example.com',
  CONTACT_EMAIL: 'ops@example.com',
  SITE_NAME: 'Acme Files',
  IMPRINT_URL: 'https://acme.example/imprint',
  PRIVACY_URL: 'https://acme.example/privacy',
  DATA_DIR: '/tmp/elsewhere',
  SIGNING_SECRET: 's'.repeat(32),
  METRICS_TOKEN: 'm'.repeat(16),
  ADMIN_TOKEN: 'a'.repeat(32),
  METRICS_PORT: '9464',
  METRICS_HOST: '10.0.0.1',
  DATABASE_URL: 'postgres://db.example.com/webfolder',
  REDIS_URL: 'redis://cache.example.com',
  S3_BUCKET: 'other-files',
  S3_ENDPOINT: 'https://s3.example.com',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
  WEBHOOK_URL: 'https://hooks.example.com/b',
  WEBHOOK_SECRET: 'x'.repeat(32),
  SMTP_URL: 'smtps://mail.example.com',
  MAIL_FROM: 'Acme <files@example.com>',
  OIDC_ISSUER: 'https://login.example.com',
  OIDC_CLIENT_ID: 'other',
  OIDC_CLIENT_SECRET: 'secret',
  OIDC_SCOPES: 'openid email',
  OIDC_REQUIRED_CLAIM: 'groups=staff',
  OIDC_ADMIN_CLAIM: 'groups=admins',
  ADMIN_EMAILS: 'Admin@Example.com',
  BASE_URL_REQUIRED: 'true',
};

/** Another valid value of a variable whose bounds say which: a number, a flag, one of a list. */
function otherValue(name: string, variable: Variable): string {
  if (name in OTHER_VALUES) return OTHER_VALUES[name]!;
  const fallback = /^`([^`]*)`/.exec(variable.shownDefault)?.[1];
  const range = /^(-?\d+) (?:– (-?\d+)|or more)/.exec(variable.bounds);
  if (range) return String(Number(fallback) === Number(range[1]) ? Number(range[1]) + 1 : Number(range[1]));
  if (variable.bounds.startsWith('`true` / `false`')) return String(fallback !== 'true');
  const choices = [...variable.bounds.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const choice = choices.find((c) => c !== fallback);
  assert.ok(choice, `${name}: no other value for "${variable.bounds}"; add one to OTHER_VALUES`);
  return choice;
}

/** Every leaf of a configuration, by its path (`limits.maxConnections`). */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)) {
    for (const [key, inner] of Object.entries(value)) leaves(inner, path ? `${path}.${key}` : key, out);
  } else out.set(path, Buffer.isBuffer(value) ? value.toString('hex') : JSON.stringify(value));
  return out;
}

test('one table: every variable is read into its own section of the Config, once', () => {
  const base = loadConfig(EVERYTHING_ON);
  const baseLeaves = leaves(base);
  // The Config's top level is the sections' parts and nothing else.
  const tops = Object.entries(SECTIONS).flatMap(([id, section]) =>
    section.placement === 'own' ? [id] : Object.values(section.variables as Record<string, Variable>).map((v) => v.key),
  );
  for (const key of Object.keys(base)) assert.ok(tops.includes(key), `${key} comes from the table`);
  for (const [id, section] of Object.entries(SECTIONS)) {
    const keys = Object.values(section.variables as Record<string, Variable>).map((v) => v.key);
    assert.equal(new Set(keys).size, keys.length, `${id}: each field is filled by one variable`);
    const partOf = (path: string) =>
      section.placement === 'own' ? path === id || path.startsWith(`${id}.`) : !path.includes('.');
    for (const [name, variable] of Object.entries(section.variables as Record<string, Variable>)) {
      if (name === 'BASE_URL_REQUIRED') {
        // It adds no field: it only refuses a start without BASE_URL.
        assert.throws(() => loadConfig({ ...EVERYTHING_ON, BASE_URL_REQUIRED: 'true' }), /BASE_URL: is required/);
        continue;
      }
      const env = { ...EVERYTHING_ON, [name]: otherValue(name, variable) };
      const changed = [...leaves(loadConfig(env))].filter(([path, value]) => baseLeaves.get(path) !== value);
      assert.ok(changed.length > 0, `${name} reaches the Config`);
      for (const [path] of changed) assert.ok(partOf(path), `${name} changes only its section ${id}, not ${path}`);
    }
  }
});

test("the Config holds the code's units and the operator's choices, grouped by what they govern", () => {
  const c: Config = loadConfig({
    DISK_FREE_MIN_MIB: '2',
    DISK_RESERVATION_IDLE_SECONDS: '3',
    REQUEST_TIMEOUT_SECONDS: '61',
    MIN_BODY_RATE_KIB: '2',
    QUOTA_FOLDER_MIB: '1',
    AUDIT_STREAM: 'log',
    MAIL_BUDGET_PER_DAY: '7',
  });
  assert.deepEqual(c.disk, { freeMinBytes: 2 * 1024 * 1024, reservationIdleMs: 3000, reservationSharePercent: 50 });
  assert.equal(c.limits.requestTimeoutMs, 61_000);
  assert.equal(c.limits.minBodyBytesPerSecond, 2048);
  assert.deepEqual(c.quotas, { totalBytes: null, folderBytes: 1024 * 1024, accountBytes: null });
  assert.equal(c.audit.stream, 'log');
  assert.equal(c.mail.budgetPerDay, 7);
  assert.equal(c.s3, null, 'no bucket, no S3');
  assert.equal(c.auth.oidc, null, 'no issuer, no sign-in');
});

test('the tables of docs/configuration.md are the table of variables', async () => {
  const path = new URL('../../docs/configuration.md', import.meta.url);
  const text = await readFile(path, 'utf8');
  assert.equal(
    withConfigTables(text),
    text,
    'the reference differs from src/config/variables.ts: run npm run docs:config',
  );
  assert.throws(
    () => withConfigTables(text.replace('<!-- config: mail -->', '<!-- config: mial -->')),
    /no configuration section "mial"/,
  );
  for (const name of KNOWN_VARIABLES)
    assert.match(text, new RegExp(`^\\| \`${name}\` \\| \`${flagOf(name)}\` \\|`, 'm'));
});
