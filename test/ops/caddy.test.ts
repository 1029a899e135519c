import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../support/server.js';
import { which } from '../support/which.js';
import { documentedBlock, openssl, proxySuite } from './proxy-suite.js';

/**
 * The service behind Debian's Caddy (2.6) with TLS, as docs/deployment.md says to run it: the test
 * takes the ```caddyfile site block from that page, puts this test's address and certificate in
 * place of the public name (Caddy would otherwise get one from Let's Encrypt) and runs the
 * reverse-proxy checks of proxy-suite.ts through it. Skips without caddy or openssl, fails instead
 * when TEST_REQUIRE_CADDY=1 (CI).
 */
const caddy = which('caddy', ['/usr/bin']);
const missing = !caddy ? 'caddy' : !openssl ? 'openssl' : null;
const SKIP = missing
  ? `${missing} is not installed (apt-get install -y caddy openssl, or scripts/ci/30-nginx.sh)`
  : false;
if (SKIP && process.env.TEST_REQUIRE_CADDY === '1') throw new Error(`${SKIP} (TEST_REQUIRE_CADDY=1)`);
if (SKIP) process.stderr.write(`test/ops/caddy: skipping: ${SKIP}\n`);

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
  const proxy = spawn(caddy!, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let log = '';
  proxy.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  proxy.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  return {
    exited: () => (proxy.exitCode === null ? null : log),
    stop: async () => {
      if (proxy.exitCode !== null) return;
      const exited = new Promise((r) => proxy.once('exit', r));
      proxy.kill('SIGTERM');
      await exited;
    },
  };
});
