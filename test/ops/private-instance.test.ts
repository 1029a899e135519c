import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import type { CreateResponseDirect } from '../../src/contract/types.js';
import { bytes, CHROMIUM_ARGS, downloadBytes } from '../site/browser.js';
import { chunkBody, chunkUrl } from '../support/api.js';
import { startCli } from '../support/cli.js';
import { caddy, startCaddy } from './caddy.js';
import { nginx, startNginx } from './nginx.js';
import {
  documentedBlocks,
  missingTools,
  openssl,
  type ProxySetup,
  type RunningProxy,
  useProxiedServer,
} from './proxy-suite.js';

/**
 * A private instance (docs/deployment.md, "A private instance"): the documented nginx `map` and
 * `auth_basic` lines, and the documented Caddy matcher and `basicauth`, ask for a login on the
 * requests that make folders and on nothing else. Checked through each proxy with TLS: the API, MCP
 * and A2A refuse to make folders without the login and make them with it, while chunk uploads,
 * upload-status, the folder page and downloads stay open; in Chromium a person with the login makes
 * a folder on the home page and a recipient without it downloads; the CLI takes the login in its
 * server address and never shows it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const NAME = 'alice';
const PASSWORD = 'correct horse battery';
const LOGIN = `Basic ${Buffer.from(`${NAME}:${PASSWORD}`).toString('base64')}`;
const WRONG = `Basic ${Buffer.from(`${NAME}:wrong`).toString('base64')}`;

/** A proxy that asks for the login as docs/deployment.md configures it. */
interface LoginProxy {
  readonly name: string;
  readonly skip: string | false;
  start(setup: ProxySetup): Promise<RunningProxy>;
}

const proxies: LoginProxy[] = [
  {
    name: 'nginx',
    skip: missingTools('nginx', nginx, 'TEST_REQUIRE_NGINX'),
    async start(setup) {
      const hash = execFileSync(openssl!, ['passwd', '-apr1', PASSWORD], { encoding: 'utf8' }).trim();
      await writeFile(join(setup.dir, 'webfolder.htpasswd'), `${NAME}:${hash}\n`);
      const [, map = '', lines = ''] = await documentedBlocks('nginx');
      assert.ok(map.includes('map ') && lines.includes('auth_basic'), 'the documented map and login lines');
      const users = `auth_basic_user_file ${join(setup.dir, 'webfolder.htpasswd')};`;
      return startNginx(setup, { http: map, server: lines.replace(/auth_basic_user_file\s+\S+;/, users) });
    },
  },
  {
    name: 'caddy',
    skip: missingTools('caddy', caddy, 'TEST_REQUIRE_CADDY'),
    async start(setup) {
      const hash = execFileSync(caddy!, ['hash-password', '--plaintext', PASSWORD], { encoding: 'utf8' }).trim();
      const [, lines = ''] = await documentedBlocks('caddyfile');
      assert.ok(lines.includes('basicauth @makesFolders'), 'the documented login lines');
      // A replacer function: the hash's "$2a$…" must stay text, not a replacement pattern.
      return startCaddy(setup, {
        site: lines.replace(/^(\s+)alice \S+$/m, (_, indent: string) => `${indent}${NAME} ${hash}`),
      });
    },
  },
];

for (const login of proxies)
  describe(`a private instance behind ${login.name}: a login to make folders, open links`, { skip: login.skip }, () => {
    const fx = useProxiedServer(login.name, login.skip, login.start);
    const call = fx.call;
    const json = (body: unknown, authorization?: string) => ({
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    });

    test('making folders needs the login on every surface; everything a link leads to stays open', async () => {
      const asks = async (
        method: string,
        path: string,
        init: { headers?: Record<string, string>; body?: string } = {},
      ) => {
        const res = await call(method, path, init.headers, init.body);
        assert.equal(res.status, 401, `${method} ${path} without the login: ${res.status} ${res.text.slice(0, 200)}`);
        assert.match(String(res.headers['www-authenticate']), /^Basic realm="webfolder"/);
      };
      await asks('POST', '/v2/folders', json({ title: 'no login' }));
      await asks('POST', '/v2/folders', json({ title: 'wrong login' }, WRONG));
      await asks('POST', '/api/site/folders', json({ mode: 'send' }));
      await asks('POST', '/v1/delivery-webfolder', json({ files: [] }));
      await asks('POST', '/mcp', json({ jsonrpc: '2.0', id: 1, method: 'initialize' }));
      await asks('POST', '/a2a', json({ jsonrpc: '2.0', id: 1, method: 'message/send' }));
      await asks('GET', '/', { headers: { accept: 'text/html' } });
      // Nothing was made by any of those.
      assert.equal((await fx.server.server.services.store.byteCounts.usage()).folders, 0);

      // With the login: a direct upload whose chunks, status and download need none.
      const filesize = 7 * 1024 * 1024 + 3;
      const create = json({ encryption: { ske: 'ske' }, files: [{ filename: 'enc', filesize }] }, LOGIN);
      const made = await call('POST', '/v2/folders', create.headers, create.body);
      assert.equal(made.status, 200, made.text);
      const created = JSON.parse(made.text) as CreateResponseDirect;
      const file = created.files[0]!;
      for (let n = 1; n <= file.chunks; n++) {
        const body = chunkBody(filesize, file.chunkSize, n);
        const put = await call(
          'PUT',
          chunkUrl(file.uploadUrls, n),
          { 'content-length': String(body.length), ...file.uploadUrls.headers },
          body,
        );
        assert.equal(put.status, 200, `chunk ${n} without the login: ${put.text}`);
      }
      const status = await call(
        'GET',
        `/v2/folders/${created.folderId}/files/${file.fileId}/upload-status?uploadAuth=${created.uploadAuth}`,
      );
      assert.equal(status.status, 200, status.text);
      assert.equal((JSON.parse(status.text) as { complete: boolean }).complete, true);
      for (const path of [
        new URL(created.folderUrl).pathname,
        `/api/site/folders/${created.folderId}`,
        `/api/site/folders/${created.folderId}/files/${file.fileId}/chunks/00001`,
        '/.well-known/webfolder.json',
        '/.well-known/agent-card.json',
        '/openapi.json',
        '/llms.txt',
      ]) {
        const res = await call('GET', path);
        assert.equal(res.status, 200, `GET ${path} without the login: ${res.status}`);
      }
    });

    test('Chromium: a person with the login makes a folder on the home page; a recipient without it downloads', {
      skip: !existsSync(CHROMIUM) && `Chromium not found at ${CHROMIUM}`,
    }, async () => {
      const key = new X509Certificate(fx.cert).publicKey.export({ type: 'spki', format: 'der' });
      const spki = createHash('sha256').update(key).digest('base64');
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spki}`],
      });
      try {
        const stranger = await browser.newContext({ ignoreHTTPSErrors: true });
        // The home page asks for the login; a browser with none to give stops there.
        await assert.rejects((await stranger.newPage()).goto(`${fx.publicUrl}/`), /ERR_INVALID_AUTH_CREDENTIALS/);

        const person = await browser.newContext({
          ignoreHTTPSErrors: true,
          acceptDownloads: true,
          httpCredentials: { username: NAME, password: PASSWORD },
        });
        const page = await person.newPage();
        await page.goto(`${fx.publicUrl}/`);
        await page.locator('#new-title').fill('Private instance');
        await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
        await page.locator('#role[data-role="owner"]').waitFor({ timeout: 30_000 });
        const content = bytes(6 * 1024 * 1024 + 11, 97);
        const path = join(fx.dir, 'private.bin');
        await writeFile(path, content);
        await page.setInputFiles('#file-input', path);
        await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 120_000 });
        const link = await page.locator('#share-link').inputValue();

        const recipient = await browser.newContext({ ignoreHTTPSErrors: true, acceptDownloads: true });
        const asked: string[] = [];
        const visitor = await recipient.newPage();
        visitor.on('response', (r) => {
          if (r.status() === 401) asked.push(r.url());
        });
        await visitor.goto(link);
        const row = visitor.locator('#files li', { hasText: 'private.bin' });
        await row.locator('button.download:not([disabled])').waitFor({ timeout: 30_000 });
        const got = await downloadBytes(visitor, () => row.locator('button.download').click());
        assert.ok(got.content.equals(content), 'the recipient downloads the same bytes');
        assert.deepEqual(asked, [], 'the recipient is never asked for the login');
      } finally {
        await browser.close();
      }
    });

    test('the CLI: the login in the server address makes the folder and is never shown; downloads need none', async () => {
      const content = bytes(5 * 1024 * 1024 + 17, 98);
      const path = join(fx.dir, 'cli.bin');
      await writeFile(path, content);
      const env = (server: string) => ({
        WEBFOLDER_SERVER: server,
        WEBFOLDER_STATE_DIR: join(fx.dir, 'cli-state'),
        NODE_EXTRA_CA_CERTS: join(fx.dir, 'cert.pem'),
      });
      const withLogin = `https://${NAME}:${encodeURIComponent(PASSWORD)}@${new URL(fx.publicUrl).host}`;

      const without = await startCli(['upload', path, '--quiet'], env(fx.publicUrl)).done;
      assert.equal(without.code, 3, without.stderr);
      assert.match(without.stderr, /the server asks for a login .*WEBFOLDER_SERVER=https:\/\/name:password@host/);

      const run = await startCli(['upload', path, '--json', '--quiet'], env(withLogin)).done;
      assert.equal(run.code, 0, run.stderr);
      const { link } = JSON.parse(run.stdout) as { link: string };
      assert.ok(link.startsWith(`${fx.publicUrl}/f/`), link);
      const state = await readdir(join(fx.dir, 'cli-state'), { recursive: true });
      for (const text of [
        run.stdout,
        run.stderr,
        without.stderr,
        ...(await Promise.all(
          state.filter((f) => f.endsWith('.json')).map((f) => readFile(join(fx.dir, 'cli-state', f), 'utf8')),
        )),
      ])
        assert.ok(
          !text.includes(PASSWORD) && !text.includes(encodeURIComponent(PASSWORD)),
          'the password is never written',
        );

      const out = join(fx.dir, 'cli-out');
      const got = await startCli(['download', link, out, '--quiet'], {
        WEBFOLDER_STATE_DIR: join(fx.dir, 'cli-recipient'),
        NODE_EXTRA_CA_CERTS: join(fx.dir, 'cert.pem'),
      }).done;
      assert.equal(got.code, 0, got.stderr);
      assert.ok((await readFile(join(out, 'cli.bin'))).equals(content));
    });
  });
