import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../support/server.js';
import { which } from '../support/which.js';
import { documentedBlock, missingTools, proxySuite, spawnProxy } from './proxy-suite.js';

/**
 * The service behind Debian's Caddy (2.6) with TLS, as docs/deployment.md says to run it: the test
 * takes the ```caddyfile site block from that page, puts this test's address and certificate in
 * place of the public name (Caddy would otherwise get one from Let's Encrypt) and runs the
 * reverse-proxy checks of proxy-suite.ts through it. Skips without caddy or openssl, fails instead
 * when TEST_REQUIRE_CADDY=1 (CI).
 */
const caddy = which('caddy', ['/usr/bin']);
const SKIP = missingTools('caddy', caddy, 'TEST_REQUIRE_CADDY');

/** The documented site block with this test's address, certificate and upstream port. */
async function documentedSite(dir: string, proxyPort: number, upstreamPort: number): Promise<string> {
  const replaced = (await documentedBlock('caddyfile'))
    .replace(
      /^files\.example\.com \{/m,
      `https://localhost:${proxyPort} {\n    bind 127.0.0.1\n    tls ${join(dir, 'cert.pem')} ${join(dir, 'key.pem')}`,
    )
    .replace(/reverse_proxy 127\.0\.0\.1:8080/, `reverse_proxy 127.0.0.1:${upstreamPort}`);
  for (const expected of [`localhost:${proxyPort}`, 'key.pem', `127.0.0.1:${upstreamPort}`])
    assert.ok(replaced.includes(expected), `the documented block has its ${expected} line`);
  return replaced;
}

proxySuite('caddy', SKIP, async ({ dir, proxyPort, upstreamPort }) => {
  // No admin endpoint, no redirect server on port 80, state in the test's directory.
  const conf = `{
    admin off
    auto_https disable_redirects
    http_port ${await freePort()}
    https_port ${proxyPort}
    storage file_system ${join(dir, 'caddy-data')}
}

${await documentedSite(dir, proxyPort, upstreamPort)}
`;
  await writeFile(join(dir, 'Caddyfile'), conf);
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  return spawnProxy(caddy!, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], 'SIGTERM', env);
});
