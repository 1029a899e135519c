import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashAddress } from '../../src/app/audit.js';
import { SigningKeys } from '../../src/app/signing-keys.js';
import { useServer } from '../support/server.js';

/**
 * A folder an agent makes is audited like every other create: with AUDIT_CLIENT_ADDRESS=hashed, the
 * MCP and A2A creates record the client's keyed hash, not null.
 */
const ADMIN_TOKEN = 'agent-audit-admin-token-0123456789abcdef';
const SECRET = 'agent-audit-signing-secret-0123456789abcdef';
const server = useServer({ ADMIN_TOKEN, SIGNING_SECRET: SECRET, AUDIT_CLIENT_ADDRESS: 'hashed' });

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

test('MCP and A2A creates record the client hash', async () => {
  const mcp = await post(
    '/mcp',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_share_folder', arguments: { title: 'MCP' } },
    },
    { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  );
  assert.match(await mcp.text(), /folderUrl/);
  const a2a = await post('/a2a', {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'Create a folder' }] },
    },
  });
  assert.match(await a2a.text(), /folderUrl/);
  const listed = await fetch(`${server.baseUrl}/api/admin/audit?action=folder.create`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  const { entries } = (await listed.json()) as { entries: { clientHash: string | null }[] };
  assert.equal(entries.length, 2);
  for (const entry of entries)
    assert.equal(entry.clientHash, hashAddress(new SigningKeys(SECRET).of('auditAddresses'), '127.0.0.1'));
});
