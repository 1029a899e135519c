import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import type { CreateResponseDirect, CreateResponseEmpty, UploadStatusResponse } from '../../src/contract/types.js';
import { CHROMIUM_ARGS } from '../site/browser.js';
import { chunkBody, chunkUrl } from '../support/api.js';
import { until } from '../support/poll.js';
import { freePort, type RunningServer, startServer, tempDir } from '../support/server.js';
import { which } from '../support/which.js';

/**
 * The checks a reverse proxy in front of the service must pass, as docs/deployment.md configures
 * it (test/ops/nginx.test.ts, test/ops/caddy.test.ts): through the proxy with TLS (a self-signed
 * certificate made with openssl), BASE_URL is what clients see, chunks upload to the presigned URLs
 * (streamed, several MiB), the site's page loads and talks to its API (Chromium), and MCP and A2A
 * create folders with links on the public address.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const MIB = 1024 * 1024;
export const openssl = which('openssl');

/** The fenced blocks of docs/deployment.md in `language`, in the page's order. */
export async function documentedBlocks(language: string): Promise<string[]> {
  const doc = await readFile(join(ROOT, 'docs/deployment.md'), 'utf8');
  const blocks = [...doc.matchAll(new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
  assert.ok(blocks.length > 0, `docs/deployment.md has a ${language} block`);
  return blocks;
}

/** The first fenced block of docs/deployment.md in `language`. */
export async function documentedBlock(language: string): Promise<string> {
  return (await documentedBlocks(language))[0]!;
}

/** A self-signed certificate for localhost and 127.0.0.1 (cert.pem, key.pem in `dir`); its PEM. */
export async function makeCertificate(dir: string): Promise<string> {
  execFileSync(
    openssl!,
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return readFile(join(dir, 'cert.pem'), 'utf8');
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Requests to the public address over TLS, trusting exactly the test's certificate (both known once started). */
export function callThrough(publicUrl: () => string, cert: () => string) {
  return (method: string, pathOrUrl: string, headers: Record<string, string> = {}, body?: Buffer | string) => {
    const url = new URL(pathOrUrl, publicUrl());
    return new Promise<Answer>((resolve, reject) => {
      const req = httpsRequest(url, { method, headers, ca: cert(), agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  };
}

/**
 * Why a proxy suite cannot run here (its program or openssl missing), or false; thrown instead when
 * `requireFlag` is 1 (CI, where the suite must run).
 */
export function missingTools(program: string, path: string | null, requireFlag: string): string | false {
  const missing = !path ? program : !openssl ? 'openssl' : null;
  const skip = missing
    ? `${missing} is not installed (apt-get install -y ${program} openssl, or scripts/ci/30-nginx.sh)`
    : false;
  if (skip && process.env[requireFlag] === '1') throw new Error(`${skip} (${requireFlag}=1)`);
  if (skip) process.stderr.write(`test/ops/${program}: skipping: ${skip}\n`);
  return skip;
}

/** Runs a proxy in the foreground; `stop` sends `signal` and waits for it to exit. */
export function spawnProxy(
  path: string,
  args: readonly string[],
  signal: NodeJS.Signals,
  env: NodeJS.ProcessEnv = process.env,
): RunningProxy {
  const proxy = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let log = '';
  proxy.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  proxy.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  return {
    exited: () => (proxy.exitCode === null ? null : log),
    stop: async () => {
      if (proxy.exitCode !== null) return;
      const exited = new Promise((r) => proxy.once('exit', r));
      proxy.kill(signal);
      await exited;
    },
  };
}

export interface ProxySetup {
  /** A directory of the test's own, holding cert.pem and key.pem. */
  readonly dir: string;
  readonly proxyPort: number;
  readonly upstreamPort: number;
}

export interface RunningProxy {
  /** True while the proxy process runs; its output so far otherwise, for the failure message. */
  exited(): string | null;
  stop(): Promise<void>;
}

/** The service behind a proxy on the public address, started for a suite; read the fields in tests. */
export interface ProxiedServer {
  readonly publicUrl: string;
  /** The proxy's certificate (PEM): the one thing clients trust. */
  readonly cert: string;
  /** The suite's own directory (certificate, key, proxy configuration). */
  readonly dir: string;
  readonly server: RunningServer;
  /** A request to the public address over TLS. */
  call: ReturnType<typeof callThrough>;
}

/**
 * Registers the before/after hooks that start the service on a loopback port with BASE_URL on the
 * proxy's port, then the proxy (`start`, with a self-signed certificate), and wait until it answers
 * through the proxy. `skip` is the reason the proxy cannot run here, or false; `env` adds to the
 * service's configuration.
 */
export function useProxiedServer(
  name: string,
  skip: string | false,
  start: (setup: ProxySetup) => Promise<RunningProxy>,
  env: Readonly<Record<string, string>> = {},
): ProxiedServer {
  // The hooks fill this object in before the tests read it (as useBrowserFixture does).
  const state = { publicUrl: '', cert: '', dir: '' } as {
    publicUrl: string;
    cert: string;
    dir: string;
    server: RunningServer;
    call: ProxiedServer['call'];
  };
  let proxy: RunningProxy | null = null;
  const call = callThrough(
    () => state.publicUrl,
    () => state.cert,
  );
  state.call = call;
  before(async () => {
    if (skip) return;
    state.dir = await tempDir(`webfolder-${name}-`);
    await mkdir(join(state.dir, 'tmp'));
    state.cert = await makeCertificate(state.dir);
    const proxyPort = await freePort();
    state.publicUrl = `https://localhost:${proxyPort}`;
    state.server = await startServer({ BASE_URL: state.publicUrl, TRUST_PROXY: 'true', CHUNK_SIZE_MIB: '5', ...env });
    const address = state.server.server.app.server.address();
    assert.ok(typeof address === 'object' && address);
    proxy = await start({ dir: state.dir, proxyPort, upstreamPort: address.port });
    await until(`${name} to answer on ${state.publicUrl}`, async () => {
      const exited = proxy!.exited();
      if (exited !== null) throw new Error(`${name} exited: ${exited}`);
      return (await call('GET', '/healthz').catch(() => null))?.status === 200;
    });
  });
  after(async () => {
    await proxy?.stop();
    await state.server?.close();
    if (state.dir) await rm(state.dir, { recursive: true, force: true });
  });
  return state;
}

/**
 * Registers the suite: the service behind the proxy (`start`), and the checks through it. `skip`
 * is the reason the proxy cannot run here, or false.
 */
export function proxySuite(name: string, skip: string | false, start: (setup: ProxySetup) => Promise<RunningProxy>) {
  const fx = useProxiedServer(name, skip, start);
  const call = fx.call;

  const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  test(`through ${name} with TLS: BASE_URL in every link, chunk uploads to the presigned URLs, status`, {
    skip,
  }, async () => {
    const filesize = 12 * MIB; // three chunks of 5 MiB: streamed through the proxy
    const create = json({ encryption: { ske: 'ske' }, files: [{ filename: 'enc', filesize }] });
    const res = await call('POST', '/v2/folders', create.headers, create.body);
    assert.equal(res.status, 200, res.text);
    const created = JSON.parse(res.text) as CreateResponseDirect;
    assert.ok(created.folderUrl.startsWith(`${fx.publicUrl}/f/`), created.folderUrl);
    const file = created.files[0]!;
    assert.ok(file.uploadUrls.head.startsWith(fx.publicUrl), file.uploadUrls.head);
    for (let n = 1; n <= file.chunks; n++) {
      const url = chunkUrl(file.uploadUrls, n);
      assert.ok(url.startsWith(`${fx.publicUrl}/v2/uploads/`), url);
      const body = chunkBody(filesize, file.chunkSize, n);
      const put = await call('PUT', url, { 'content-length': String(body.length), ...file.uploadUrls.headers }, body);
      assert.equal(put.status, 200, put.text);
    }
    const status = await call(
      'GET',
      `/v2/folders/${created.folderId}/files/${file.fileId}/upload-status?uploadAuth=${created.uploadAuth}`,
    );
    assert.deepEqual(JSON.parse(status.text) as UploadStatusResponse, { complete: true, missing: [] });
    // Downloads stream back through the proxy.
    const chunk = await call('GET', `/api/site/folders/${created.folderId}/files/${file.fileId}/chunks/00002`);
    assert.equal(chunk.status, 200);
    // Discovery documents name the public address.
    const openapi = JSON.parse((await call('GET', '/openapi.json')).text) as { servers: Array<{ url: string }> };
    assert.equal(openapi.servers[0]!.url, fx.publicUrl);
  });

  test(`through ${name}: the site page loads in Chromium and talks to its API`, {
    skip: skip || (!existsSync(CHROMIUM) && `Chromium not found at ${CHROMIUM}`),
  }, async () => {
    const create = json({ title: 'Through the proxy', mode: 'share' });
    const created = JSON.parse(
      (await call('POST', '/v2/folders', create.headers, create.body)).text,
    ) as CreateResponseEmpty;
    assert.ok(created.folderUrl.startsWith(`${fx.publicUrl}/f/`));
    const key = new X509Certificate(fx.cert).publicKey.export({ type: 'spki', format: 'der' });
    const spki = createHash('sha256').update(key).digest('base64');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        ...CHROMIUM_ARGS,
        // Trust exactly the test's certificate (by its key), also for the service worker's script,
        // which ignoreHTTPSErrors does not cover.
        `--ignore-certificate-errors-spki-list=${spki}`,
      ],
    });
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      // Every request the page makes succeeds through the proxy (the browser's own favicon probe aside).
      const failed: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) failed.push(`${r.status()} ${r.url()}`);
      });
      page.on('requestfailed', (r) => failed.push(`${r.failure()?.errorText} ${r.url()}`));
      const response = await page.goto(created.folderUrl);
      assert.equal(response?.status(), 200);
      // The role comes from the site API: the page's script ran and reached it through the proxy.
      await page.locator('#role[data-role="unclaimed"]').waitFor({ timeout: 30_000 });
      assert.match(await page.content(), /Through the proxy/);
      assert.deepEqual(failed, []);
    } finally {
      await browser.close();
    }
  });

  test(`through ${name}: MCP and A2A create folders whose links are on the public address`, { skip }, async () => {
    const mcpHeaders = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const rpc = (text: string) => {
      // Either a JSON body or an event stream whose data lines carry it.
      const data = text.includes('data:')
        ? text
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5))
            .join('')
        : text;
      return JSON.parse(data) as { result?: Record<string, unknown>; error?: unknown };
    };
    const init = await call(
      'POST',
      '/mcp',
      mcpHeaders,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `${name}-test`, version: '1' } },
      }),
    );
    assert.equal(init.status, 200, init.text);
    assert.ok(rpc(init.text).result, init.text);
    const session = init.headers['mcp-session-id'];
    const withSession = typeof session === 'string' ? { ...mcpHeaders, 'mcp-session-id': session } : mcpHeaders;
    await call('POST', '/mcp', withSession, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const tool = await call(
      'POST',
      '/mcp',
      withSession,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'create_share_folder', arguments: { title: 'From MCP' } },
      }),
    );
    assert.equal(tool.status, 200, tool.text);
    assert.ok(tool.text.includes(`${fx.publicUrl}/f/`), tool.text);

    const card = JSON.parse((await call('GET', '/.well-known/agent-card.json')).text) as Record<string, unknown>;
    assert.ok(JSON.stringify(card).includes(`${fx.publicUrl}/a2a`), JSON.stringify(card));
    const a2a = await call(
      'POST',
      '/a2a',
      { 'content-type': 'application/json', 'a2a-version': '0.3' },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: randomUUID(),
            role: 'user',
            parts: [{ kind: 'text', text: 'Create a folder called From A2A' }],
          },
        },
      }),
    );
    assert.equal(a2a.status, 200, a2a.text);
    assert.ok(a2a.text.includes(`${fx.publicUrl}/f/`), a2a.text);
  });
}
