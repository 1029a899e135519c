import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MANIFEST_FILE } from '../../src/release/build-manifest.js';
import { startCli } from '../support/cli.js';
import { caddy, startCaddy } from './caddy.js';
import { nginx, startNginx } from './nginx.js';
import { missingTools, type ProxySetup, type RunningProxy, useProxiedServer } from './proxy-suite.js';

/**
 * `webfolder verify-site` through the reverse proxies of docs/deployment.md, with TLS: as documented
 * (the service compresses, the proxy passes its encoding on), with the proxy compressing itself
 * (the service asked for nothing compressed), and with no compression at all. The verifier asks as a
 * browser does (gzip, deflate, br) and compares decoded bytes, so every variant must pass; each
 * variant first checks that the main script really came with the encoding it is about.
 */
const NGINX_SKIP = missingTools('nginx', nginx, 'TEST_REQUIRE_NGINX');
const CADDY_SKIP = missingTools('caddy', caddy, 'TEST_REQUIRE_CADDY');
const BUILT = existsSync(MANIFEST_FILE) ? false : 'no site manifest (npm run build)';

interface Variant {
  readonly name: string;
  readonly skip: string | false;
  /** The Content-Encoding the main script comes with through the proxy ('' for none). */
  readonly encoding: string;
  readonly start: (setup: ProxySetup) => Promise<RunningProxy>;
}

const NO_UPSTREAM_COMPRESSION_NGINX = '        proxy_set_header Accept-Encoding "";';
const VARIANTS: readonly Variant[] = [
  { name: 'nginx as documented', skip: NGINX_SKIP, encoding: 'br', start: (s) => startNginx(s) },
  {
    name: 'nginx compressing itself',
    skip: NGINX_SKIP,
    encoding: 'gzip',
    start: (s) =>
      startNginx(s, {
        location: NO_UPSTREAM_COMPRESSION_NGINX,
        server: '    gzip on;\n    gzip_types text/css text/javascript application/javascript application/json;',
      }),
  },
  {
    name: 'nginx without compression',
    skip: NGINX_SKIP,
    encoding: '',
    start: (s) => startNginx(s, { location: NO_UPSTREAM_COMPRESSION_NGINX }),
  },
  { name: 'Caddy as documented', skip: CADDY_SKIP, encoding: 'br', start: (s) => startCaddy(s) },
  {
    name: 'Caddy compressing itself',
    skip: CADDY_SKIP,
    encoding: 'gzip',
    start: (s) => startCaddy(s, { site: '    encode zstd gzip', proxy: '        header_up -Accept-Encoding' }),
  },
];

for (const variant of VARIANTS) {
  const skip = variant.skip || BUILT;
  describe(`verify-site behind ${variant.name}`, { skip }, () => {
    const proxied = useProxiedServer(variant.name.replace(/\W+/g, '-'), skip, variant.start);

    test('the instance passes, and the script came with the encoding of the variant', async () => {
      const manifest = JSON.parse(await readFile(MANIFEST_FILE, 'utf8')) as { files: { path: string; kind: string }[] };
      const main = manifest.files.find((f) => f.kind === 'script' && /^\/assets\/index-.*\.js$/.test(f.path))!;
      const answer = await proxied.call('GET', main.path, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'] ?? '', variant.encoding);
      const run = await startCli(['verify-site', proxied.publicUrl], {
        NODE_EXTRA_CA_CERTS: join(proxied.dir, 'cert.pem'),
      }).done;
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^OK: \d+ files and pages match the release$/m);
    });
  });
}
