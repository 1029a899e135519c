import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../support/server.js';
import { which } from '../support/which.js';
import { documentedBlock, type ProxySetup, type RunningProxy, spawnProxy } from './proxy-suite.js';

/** Debian's Caddy, where the system has it. */
export const caddy = which('caddy', ['/usr/bin']);

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

/**
 * Runs Caddy in the foreground with the documented site block (its address and certificate the
 * test's: Caddy would otherwise get one from Let's Encrypt); `site` is added inside the site block
 * (a private instance's login), `proxy` inside its reverse_proxy block.
 */
export async function startCaddy(
  { dir, proxyPort, upstreamPort }: ProxySetup,
  extra: { readonly site?: string; readonly proxy?: string } = {},
): Promise<RunningProxy> {
  let site = await documentedSite(dir, proxyPort, upstreamPort);
  if (extra.site) site = site.replace(/\n}\s*$/, `\n${extra.site}\n}\n`);
  if (extra.proxy) site = site.replace(/reverse_proxy \S+ \{/, (line) => `${line}\n${extra.proxy}`);
  // No admin endpoint, no redirect server on port 80, state in the test's directory.
  const conf = `{
    admin off
    auto_https disable_redirects
    http_port ${await freePort()}
    https_port ${proxyPort}
    storage file_system ${join(dir, 'caddy-data')}
}

${site}
`;
  await writeFile(join(dir, 'Caddyfile'), conf);
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  return spawnProxy(caddy!, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], 'SIGTERM', env);
}
