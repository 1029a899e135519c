import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { which } from '../support/which.js';
import { documentedBlock, type ProxySetup, type RunningProxy, spawnProxy } from './proxy-suite.js';

/** Debian's nginx, where the system has it. */
export const nginx = which('nginx', ['/usr/sbin']);

/** The ```nginx server block of docs/deployment.md, pointed at this test's ports, certificate and files. */
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

/**
 * Runs nginx in the foreground with the documented server block; `http` is added to the http block,
 * `server` inside the server block (a private instance's map and login lines) and `location` inside
 * its `location /` block (where a proxy_set_header must go: a location with its own replaces the
 * server's).
 */
export async function startNginx(
  { dir, proxyPort, upstreamPort }: ProxySetup,
  extra: { readonly http?: string; readonly server?: string; readonly location?: string } = {},
): Promise<RunningProxy> {
  const tmp = join(dir, 'tmp');
  let server = await documentedServerBlock(dir, proxyPort, upstreamPort);
  if (extra.server) server = server.replace(/\n}\s*$/, `\n${extra.server}\n}\n`);
  if (extra.location) server = server.replace('location / {', () => `location / {\n${extra.location}`);
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
${extra.http ?? ''}
${server}
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  return spawnProxy(nginx!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], 'SIGQUIT');
}
