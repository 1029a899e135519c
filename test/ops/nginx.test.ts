import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { which } from '../support/which.js';
import { documentedBlock, missingTools, proxySuite, spawnProxy } from './proxy-suite.js';

/**
 * The service behind Debian's nginx with TLS, as docs/deployment.md says to run it: the test takes
 * the nginx server block from that page (so the documented configuration is the tested one) and runs
 * the reverse-proxy checks of proxy-suite.ts through it. Skips without nginx or openssl, fails
 * instead when TEST_REQUIRE_NGINX=1 (CI).
 */
const nginx = which('nginx', ['/usr/sbin']);
const SKIP = missingTools('nginx', nginx, 'TEST_REQUIRE_NGINX');

/** The ```nginx block of docs/deployment.md, pointed at this test's ports, certificate and files. */
async function documentedServerBlock(dir: string, proxyPort: number, upstreamPort: number): Promise<string> {
  const replaced = (await documentedBlock('nginx'))
    .replace(/listen 443 ssl/, `listen 127.0.0.1:${proxyPort} ssl`)
    .replace(/server_name \S+;/, 'server_name localhost;')
    .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${join(dir, 'cert.pem')};`)
    .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${join(dir, 'key.pem')};`)
    .replace(/proxy_pass http:\/\/127\.0\.0\.1:8080;/, `proxy_pass http://127.0.0.1:${upstreamPort};`);
  for (const expected of [`127.0.0.1:${proxyPort}`, 'key.pem', `127.0.0.1:${upstreamPort}`])
    assert.ok(replaced.includes(expected), `the documented block has its ${expected} line`);
  return replaced;
}

proxySuite('nginx', SKIP, async ({ dir, proxyPort, upstreamPort }) => {
  const tmp = join(dir, 'tmp');
  const conf = `${process.getuid?.() === 0 ? 'user root;\n' : ''}daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
${await documentedServerBlock(dir, proxyPort, upstreamPort)}
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  return spawnProxy(nginx!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], 'SIGQUIT');
});
