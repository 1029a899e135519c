import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { signedBy } from '../../src/client/verify-site.js';
import {
  integrityOf,
  pageReferences,
  parseManifest,
  parseSignature,
  SITE_MANIFEST_PATH,
  type SiteManifest,
} from '../../src/domain/site-manifest.js';
import { MANIFEST_FILE } from '../../src/release/build-manifest.js';
import { signManifest } from '../../src/release/sign-manifest.js';
import { startCli } from '../support/cli.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';

/**
 * The build's site manifest (dist/site-manifest.json) against the build itself: every file of
 * dist/web and every docs asset is in it with its hash, the shell's template is dist/web/index.html,
 * every script and stylesheet the template names carries the manifest's integrity, and an instance
 * serves the manifest's bytes at its well-known address, under the site's path (and passes
 * verify-site there). And the release
 * signature: made with a throwaway key, it holds for those bytes and that key only.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const WEB = join(ROOT, 'dist', 'web');
const built = existsSync(MANIFEST_FILE);
if (!built) process.stderr.write('test/release: skipping: no site manifest (npm run build)\n');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the site manifest', { skip: !built && 'npm run build first' }, () => {
  let bytes: Buffer;
  let manifest: SiteManifest;
  before(() => {
    bytes = readFileSync(MANIFEST_FILE);
    manifest = parseManifest(bytes.toString('utf8'));
  });

  test('lists every file of the page and every docs asset, with the SHA-256 of its bytes', () => {
    const onDisk = new Map<string, string>();
    for (const entry of readdirSync(WEB, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) {
        const file = join(entry.parentPath, entry.name);
        if (file !== join(WEB, 'index.html')) onDisk.set(`web /${relative(WEB, file)}`, sha256(readFileSync(file)));
      }
    const assets = join(ROOT, 'dist', 'docs-site', '_assets');
    for (const name of readdirSync(assets))
      if (!/\.(br|gz)$/.test(name)) onDisk.set(`docs /_assets/${name}`, sha256(readFileSync(join(assets, name))));
    const listed = new Map(manifest.files.map((f) => [`${f.site} ${f.path}`, f.sha256]));
    assert.deepEqual([...listed.keys()].sort(), [...onDisk.keys()].sort());
    for (const [what, hash] of onDisk) assert.equal(listed.get(what), hash, what);
    const kinds = Object.fromEntries(manifest.files.map((f) => [f.path, f.kind]));
    assert.equal(kinds['/sw.js'], 'service-worker');
    assert.equal(kinds['/crypto-worker.js'], 'worker');
    assert.ok(
      manifest.files.some((f) => f.site === 'docs' && f.kind === 'script'),
      "the docs' scripts",
    );
  });

  test("the shell is the built page, and each script and stylesheet it names carries the manifest's integrity", () => {
    const template = readFileSync(join(WEB, 'index.html'));
    assert.equal(manifest.shell.template, template.toString('utf8'));
    assert.equal(manifest.shell.sha256, sha256(template));
    const refs = pageReferences(manifest.shell.template);
    assert.ok(refs.some((r) => r.kind === 'script') && refs.some((r) => r.kind === 'style'), JSON.stringify(refs));
    for (const ref of refs) {
      assert.ok(ref.kind === 'script' || ref.kind === 'style' || ref.kind === 'modulepreload', `no ${ref.kind}`);
      const path = ref.url.replace('/__webfolder_base__/', '/');
      const entry = manifest.files.find((f) => f.site === 'web' && f.path === path);
      assert.ok(entry, `${path} is in the manifest`);
      assert.equal(ref.integrity, integrityOf(entry.sha256), path);
    }
    assert.equal(manifest.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  test('a release signature holds for the manifest and its key, and for nothing else', () => {
    const key = generateKeyPairSync('ed25519');
    const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const signature = parseSignature(JSON.stringify(signManifest(bytes, pem)));
    assert.ok(signedBy(bytes, signature, [signature.publicKey]));
    assert.ok(!signedBy(bytes, signature, []), 'a key that is not trusted');
    assert.ok(!signedBy(Buffer.concat([bytes, Buffer.from('\n')]), signature, [signature.publicKey]), 'other bytes');
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
    assert.ok(!signedBy(bytes, { ...signature, publicKey: other }, [other]), 'another key');
    assert.throws(
      () =>
        signManifest(
          bytes,
          generateKeyPairSync('ec', { namedCurve: 'P-256' })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
        ),
      /not an Ed25519 key/,
    );
  });
});

describe('an instance serves the manifest', { skip: !built && 'npm run build first' }, () => {
  let server: RunningServer;
  before(async () => {
    // Under a site path, as WEB_URL allows: the well-known address is below it.
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = await startServer({ BASE_URL: origin, WEB_URL: `${origin}/files` }, { port });
  });
  after(async () => server?.close());

  test('at <site>/.well-known/webfolder/site-manifest.json, byte for byte; no signature on an unsigned build', async () => {
    const answer = await fetch(`${server.baseUrl}/files${SITE_MANIFEST_PATH}`, {
      headers: { 'accept-encoding': 'br' },
    });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(Buffer.from(await answer.arrayBuffer()), readFileSync(MANIFEST_FILE));
    const signature = await fetch(`${server.baseUrl}/files${SITE_MANIFEST_PATH}.sig`);
    assert.equal(signature.status, existsSync(`${MANIFEST_FILE}.sig`) ? 200 : 404);
    if (signature.status === 404) assert.equal((await signature.json()).code, 'not_found');
  });

  test('verify-site passes for a site under a path', async () => {
    const run = await startCli(['verify-site', `${server.baseUrl}/files/`], {}).done;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^verifying http:\/\/127\.0\.0\.1:\d+\/files against/m);
  });
});
