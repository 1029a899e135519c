import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, useServer } from '../support/server.js';

/**
 * MCP at /mcp over a real server, driven by the official clients: @modelcontextprotocol/client
 * (protocol 2026-07-28) and @modelcontextprotocol/sdk 1.20 (2025-06-18 initialize handshake).
 */
const server = useServer();

type TextContent = { type: string; text?: string };
const textOf = (content: unknown) => (content as TextContent[]).map((c) => c.text ?? '').join('\n');

async function assertFolderExists(folderId: string) {
  const folder = await server.server.services.store.getFolder(folderId);
  assert.ok(folder, `folder ${folderId} is stored`);
  return folder;
}

describe('MCP 2026-07-28 client', () => {
  let client: Client;
  before(async () => {
    client = new Client(
      { name: 'webfolder-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
  });
  after(async () => client.close());

  test('negotiates 2026-07-28', () => {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  });

  test('lists both tools with truthful annotations and an output schema', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['create_share_folder', 'get_usage_guide']);
    const create = tools.find((t) => t.name === 'create_share_folder')!;
    assert.equal(create.annotations?.readOnlyHint, false);
    assert.equal(create.annotations?.destructiveHint, false);
    assert.equal(create.annotations?.idempotentHint, false);
    assert.equal(create.annotations?.openWorldHint, false);
    assert.ok(create.outputSchema, 'create_share_folder declares an output schema');
    const props = (create.inputSchema as { properties: Record<string, { enum?: string[]; maxLength?: number }> })
      .properties;
    assert.deepEqual(props.mode?.enum, ['send', 'share']);
    assert.equal(props.title?.maxLength, 200);
    const guide = tools.find((t) => t.name === 'get_usage_guide')!;
    assert.equal(guide.annotations?.readOnlyHint, true);
  });

  test('create_share_folder creates a folder and returns the link with its fragment', async () => {
    const result = await client.callTool({
      name: 'create_share_folder',
      arguments: { title: 'Holiday photos', mode: 'share' },
    });
    assert.notEqual(result.isError, true, textOf(result.content));
    const out = result.structuredContent as {
      folderUrl: string;
      folderUrlBase: string;
      folderId: string;
      mode: string;
      uploadRequiredWithinHours: number;
      instructions: string;
    };
    assert.equal(out.mode, 'share');
    assert.equal(out.uploadRequiredWithinHours, 24);
    assert.match(out.folderUrl, /^http:\/\/127\.0\.0\.1:\d+\/f\/[^#]+#.+$/);
    assert.equal(out.folderUrl.split('#')[0], out.folderUrlBase);
    assert.ok(out.folderUrlBase.endsWith(`/f/${out.folderId}`));
    const text = textOf(result.content);
    assert.ok(text.includes(out.folderUrl), 'the text carries the full link');
    assert.ok(text.includes(out.folderId));
    assert.match(text, /24 hours/);
    assert.match(text, /same link/);
    const folder = await assertFolderExists(out.folderId);
    assert.equal(folder.mode, 'share');
    assert.equal(folder.title, 'Holiday photos');
  });

  test('defaults to send mode and a date title', async () => {
    const result = await client.callTool({ name: 'create_share_folder', arguments: {} });
    const out = result.structuredContent as { folderId: string; mode: string };
    assert.equal(out.mode, 'send');
    const folder = await assertFolderExists(out.folderId);
    assert.ok(folder.title.length > 0);
  });

  test('request mode is refused with the reason', async () => {
    const result = await client
      .callTool({ name: 'create_share_folder', arguments: { mode: 'request' } })
      .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    assert.equal(result.isError, true);
    assert.match(textOf(result.content), /first .*upload.* becomes the owner/);
  });

  test('bad arguments are tool or protocol errors, never a crash', async () => {
    for (const args of [{ title: 'x'.repeat(201) }, { title: 42 }, { mode: 'bogus' }, { files: [] }]) {
      const outcome = await client
        .callTool({ name: 'create_share_folder', arguments: args as Record<string, unknown> })
        .then(
          (r) => ({ isError: r.isError === true, text: textOf(r.content) }),
          (e: Error) => ({ isError: true, text: e.message }),
        );
      assert.equal(outcome.isError, true, `refused: ${JSON.stringify(args).slice(0, 40)}`);
    }
    const long = await client
      .callTool({ name: 'create_share_folder', arguments: { title: 'x'.repeat(201) } })
      .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    assert.match(textOf(long.content), /200 characters/);
  });

  test('unknown tool is an error', async () => {
    const outcome = await client.callTool({ name: 'delete_everything', arguments: {} }).then(
      (r) => r.isError === true,
      () => true,
    );
    assert.equal(outcome, true);
  });

  test('get_usage_guide explains the 24-hour rule and the modes', async () => {
    const result = await client.callTool({ name: 'get_usage_guide', arguments: {} });
    const text = textOf(result.content);
    assert.match(text, /24 hours/);
    assert.match(text, /"send"/);
    assert.match(text, /"share"/);
    assert.match(text, /"request"/);
    assert.match(text, /first .*uploader becomes the folder owner/);
  });
});

describe('MCP 2025-06-18 client (legacy initialize)', () => {
  let client: LegacyClient;
  before(async () => {
    client = new LegacyClient({ name: 'webfolder-legacy-test', version: '1.0.0' });
    await client.connect(new LegacyTransport(new URL(`${server.baseUrl}/mcp`)));
  });
  after(async () => client.close());

  test('lists tools and creates a folder', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['create_share_folder', 'get_usage_guide']);
    const result = await client.callTool({ name: 'create_share_folder', arguments: { title: 'Q3 reports' } });
    assert.notEqual(result.isError, true);
    const out = result.structuredContent as { folderUrl: string; folderId: string; mode: string };
    assert.equal(out.mode, 'send');
    assert.match(out.folderUrl, /#.+$/);
    const folder = await assertFolderExists(out.folderId);
    assert.equal(folder.title, 'Q3 reports');
  });

  test('request mode is refused', async () => {
    const result = await client
      .callTool({ name: 'create_share_folder', arguments: { mode: 'request' } })
      .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    assert.equal(result.isError, true);
    assert.match(textOf(result.content), /becomes the owner/);
  });
});

describe('MCP endpoint, raw HTTP', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...headers,
      },
      body,
    });

  test('malformed JSON is a JSON-RPC parse error, not a 500', async () => {
    const res = await post('{"jsonrpc":"2.0",');
    assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
    const body = (await res.json()) as { error: { code: number } };
    assert.equal(body.error.code, -32700);
  });

  test('an unknown method is a JSON-RPC error', async () => {
    const init = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    assert.equal(init.status, 200);
    await init.body?.cancel();
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'folders/destroy', params: {} }));
    assert.ok(res.status < 500, `status ${res.status}`);
    const text = await res.text();
    assert.match(text, /-32601/);
  });

  test('a non-JSON-RPC body is refused with a 4xx', async () => {
    for (const body of ['[]', '42', '{"hello":"world"}', '']) {
      const res = await post(body);
      assert.ok(res.status >= 200 && res.status < 500, `status ${res.status} for ${body}`);
      if (res.status === 200) assert.match(await res.text(), /error/);
      else await res.body?.cancel();
    }
  });

  test('an oversized body is refused with 413', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(200 * 1024) },
    });
    const res = await post(big);
    assert.equal(res.status, 413);
    const body = (await res.json()) as { error: { code: number } };
    assert.equal(typeof body.error.code, 'number');
  });

  test('a foreign Host header is refused (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const url = new URL(`${server.baseUrl}/mcp`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: 'evil.example:80',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    assert.equal(status, 403);
  });

  test('a foreign Origin is refused, the site origin accepted', async () => {
    const listTools = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const evil = await post(listTools, { origin: 'https://evil.example' });
    assert.equal(evil.status, 403);
    await evil.body?.cancel();
    const own = await post(listTools, { origin: server.baseUrl });
    assert.equal(own.status, 200);
    await own.body?.cancel();
  });
});

describe('MCP host policy', () => {
  test('a public BASE_URL accepts its own host and refuses loopback names', async () => {
    const { hostPolicy, checkHostAndOrigin } = await import('../../src/agents/origin-check.js');
    const { loadConfig } = await import('../../src/config/config.js');
    const policy = hostPolicy(loadConfig({ BASE_URL: 'https://files.example.com', DATA_DIR: '/tmp/unused' }));
    assert.equal(checkHostAndOrigin(policy, 'files.example.com', undefined), null);
    assert.equal(checkHostAndOrigin(policy, 'files.example.com:443', 'https://files.example.com'), null);
    assert.notEqual(checkHostAndOrigin(policy, 'localhost:8080', undefined), null);
    assert.notEqual(checkHostAndOrigin(policy, 'evil.example', undefined), null);
    assert.notEqual(checkHostAndOrigin(policy, 'files.example.com', 'https://evil.example'), null);
    assert.notEqual(checkHostAndOrigin(policy, undefined, undefined), null);
  });
});

describe('MCP behind a public BASE_URL', () => {
  test('accepts the public host (via X-Forwarded-Host with TRUST_PROXY) and refuses the loopback address', async () => {
    const pub = await startServer({ BASE_URL: 'https://files.example.com', TRUST_PROXY: 'true' });
    try {
      const address = pub.server.app.server.address();
      assert.ok(address && typeof address === 'object');
      const local = `http://127.0.0.1:${address.port}/mcp`;
      const init = (headers: Record<string, string>) =>
        fetch(local, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
          }),
        });
      const direct = await init({});
      assert.equal(direct.status, 403, 'the loopback Host is not the configured public host');
      await direct.body?.cancel();
      const proxied = await init({ 'x-forwarded-host': 'files.example.com', 'x-forwarded-proto': 'https' });
      assert.equal(proxied.status, 200);
      await proxied.body?.cancel();
      const spoofed = await init({ 'x-forwarded-host': 'evil.example' });
      assert.equal(spoofed.status, 403);
      await spoofed.body?.cancel();
    } finally {
      await pub.close();
    }
  });
});
