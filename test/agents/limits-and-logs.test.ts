import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnServer, startServer, tempDir } from '../support/server.js';

/**
 * The agent surfaces share the create budget (RATE_LIMIT_CREATE) and have their own protocol
 * budget (RATE_LIMIT_AGENTS); and the folder secret never reaches the log.
 */
const a2aSend = (baseUrl: string, text: string, id: number | string = randomUUID()) =>
  fetch(`${baseUrl}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } },
    }),
  });

describe('create budget', () => {
  test('REST, MCP and A2A creates together stop at RATE_LIMIT_CREATE, with a clear refusal', async () => {
    const server = await startServer({ RATE_LIMIT_CREATE: '3', RATE_LIMIT_AGENTS: '1000' });
    try {
      const client = new Client(
        { name: 'limits', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
      const rest = await fetch(`${server.baseUrl}/v2/folders`, { method: 'POST' });
      assert.equal(rest.status, 200);
      const ok = await client.callTool({ name: 'create_share_folder', arguments: {} });
      assert.notEqual(ok.isError, true);
      const third = await a2aSend(server.baseUrl, 'create a folder');
      assert.equal(third.status, 200);
      assert.ok(((await third.json()) as { result?: unknown }).result);

      const refusedA2a = await a2aSend(server.baseUrl, 'create a folder');
      assert.equal(refusedA2a.status, 429);
      const body = (await refusedA2a.json()) as { error: { message: string } };
      assert.match(body.error.message, /retry in \d+ seconds/);

      const refusedMcp = await client.callTool({ name: 'create_share_folder', arguments: {} });
      assert.equal(refusedMcp.isError, true);
      assert.match((refusedMcp.content as { text: string }[])[0]!.text, /too many requests: retry in \d+ seconds/);
      const refusedRest = await fetch(`${server.baseUrl}/v2/folders`, { method: 'POST' });
      assert.equal(refusedRest.status, 429, 'the REST create shares the same budget');
      assert.ok(Number(refusedRest.headers.get('retry-after')) > 0);
      // Listing tools is protocol traffic, not a create: still served.
      assert.equal((await client.listTools()).tools.length, 2);
      await client.close();
    } finally {
      await server.close();
    }
  });

  test('the agents bucket limits protocol traffic with a JSON-RPC shaped 429', async () => {
    const server = await startServer({ RATE_LIMIT_AGENTS: '2' });
    try {
      const statuses: number[] = [];
      let last: { error?: { message: string } } = {};
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${server.baseUrl}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
          }),
        });
        statuses.push(res.status);
        if (res.status === 429) last = (await res.json()) as typeof last;
        else await res.body?.cancel();
      }
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.match(last.error?.message ?? '', /too many requests/);
    } finally {
      await server.close();
    }
  });
});

describe('logging', () => {
  let dataDir = '';
  after(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('the folder secret never appears in the log, even at trace level', async () => {
    dataDir = await tempDir();
    const server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
    try {
      const secrets: string[] = [];
      const client = new Client(
        { name: 'logs', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
      const made = await client.callTool({ name: 'create_share_folder', arguments: { title: 'log check' } });
      secrets.push((made.structuredContent as { folderUrl: string }).folderUrl.split('#')[1]!);
      await client.close();
      const res = await a2aSend(server.baseUrl, 'create a share folder called log check');
      const reply = (await res.json()) as { result: { parts: { kind: string; data?: { folderUrl: string } }[] } };
      secrets.push(reply.result.parts.find((p) => p.kind === 'data')!.data!.folderUrl.split('#')[1]!);
      // Refusals are logged too: they must not echo anything secret either.
      await a2aSend(server.baseUrl, 'create a request folder');
      await server.stop();
      const output = server.output();
      assert.ok(output.includes('"url":"/mcp"') || output.includes('/mcp'), 'requests were logged');
      for (const secret of secrets) {
        assert.ok(secret.length >= 16);
        assert.ok(!output.includes(secret), 'the secret is not in the log');
      }
    } finally {
      if (server.child.exitCode === null) await server.kill();
    }
  });
});
