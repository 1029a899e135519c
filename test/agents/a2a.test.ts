import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { type Message, type Part, Role } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { A2AClient as LegacyA2AClient } from 'a2a-legacy/client';
import { useServer } from '../support/server.js';

/**
 * A2A at /a2a over a real server: the official 1.0 client (@a2a-js/sdk 1.3) and a 0.3 client
 * (@a2a-js/sdk 0.3.14 under the a2a-legacy alias), plus raw JSON-RPC for malformed input.
 */
const server = useServer();

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  mediaType: 'text/plain',
  filename: '',
  metadata: undefined,
});
const data = (value: unknown): Part => ({
  content: { $case: 'data', value },
  mediaType: 'application/json',
  filename: '',
  metadata: undefined,
});
const message = (...parts: Part[]): Message => ({
  messageId: randomUUID(),
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

interface EmptyCreate {
  folderId: string;
  folderUrl: string;
  folderUrlBase: string;
  mode: string;
  uploadRequiredWithinHours: number;
  files: unknown[];
}

function replyParts(result: unknown): { text: string; data: EmptyCreate } {
  const m = result as Message;
  assert.ok(Array.isArray(m.parts), `a message came back: ${JSON.stringify(result).slice(0, 300)}`);
  const t = m.parts.find((p) => p.content?.$case === 'text');
  const d = m.parts.find((p) => p.content?.$case === 'data');
  assert.ok(t && d, 'a text part and a data part');
  return { text: t.content!.value as string, data: d.content!.value as EmptyCreate };
}

async function stored(folderId: string) {
  const folder = await server.server.services.store.getFolder(folderId);
  assert.ok(folder, `folder ${folderId} is stored`);
  return folder;
}

describe('A2A 1.0 client', () => {
  test('reads the card and creates a share folder from plain text', async () => {
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    assert.equal(client.protocolVersion, '1.0');
    const result = await client.sendMessage({
      tenant: '',
      message: message(text('create a share folder called Holiday photos')),
      configuration: undefined,
      metadata: undefined,
    });
    const { text: t, data: d } = replyParts(result);
    assert.equal(d.mode, 'share');
    assert.equal(d.uploadRequiredWithinHours, 24);
    assert.deepEqual(d.files, []);
    assert.match(d.folderUrl, /\/f\/[^#]+#.+$/);
    assert.ok(t.includes(d.folderUrl), 'the text part carries the full link');
    assert.match(t, /24 hours/);
    const folder = await stored(d.folderId);
    assert.equal(folder.title, 'Holiday photos');
    assert.equal(folder.mode, 'share');
  });

  test('a data part sets title and mode', async () => {
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    const result = await client.sendMessage({
      tenant: '',
      message: message(data({ title: 'Project files', mode: 'send' })),
      configuration: undefined,
      metadata: undefined,
    });
    const { data: d } = replyParts(result);
    assert.equal(d.mode, 'send');
    assert.equal((await stored(d.folderId)).title, 'Project files');
  });

  test('bad input is an A2A error with the reason', async () => {
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    const cases: [Part, RegExp][] = [
      [data({ mode: 'request' }), /becomes the owner/],
      [text('create a request folder called Inbox'), /becomes the owner/],
      [data({ title: 'x'.repeat(201) }), /200 characters/],
      [data({ mode: 'bogus' }), /"send" or "share"/],
      [data({ files: [{ filename: 'a', filesize: 1 }] }), /files are not accepted/],
    ];
    for (const [part, reason] of cases) {
      await assert.rejects(
        client.sendMessage({ tenant: '', message: message(part), configuration: undefined, metadata: undefined }),
        (error: Error) => reason.test(error.message),
      );
    }
  });
});

describe('A2A 1.0: a message whose part is empty', () => {
  const empty: Part = { content: undefined, mediaType: '', filename: '', metadata: undefined };

  test('the official client gets -32602 and no folder is created', async () => {
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    const before = (await server.server.services.store.byteCounts.usage()).folders;
    for (const parts of [[empty], [text('create a folder called X'), empty]])
      await assert.rejects(
        client.sendMessage({ tenant: '', message: message(...parts), configuration: undefined, metadata: undefined }),
        (error: Error) => /has no content/.test(error.message),
      );
    assert.equal((await server.server.services.store.byteCounts.usage()).folders, before, 'no folder was created');
  });

  test('"parts":[{}] on the wire is -32602', async () => {
    const before = (await server.server.services.store.byteCounts.usage()).folders;
    const res = await fetch(`${server.baseUrl}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{}] } },
      }),
    });
    assert.ok(res.status < 500);
    const reply = (await res.json()) as { error?: { code: number; message: string }; result?: unknown };
    assert.equal(reply.error?.code, -32602, JSON.stringify(reply));
    assert.match(reply.error.message, /part 1 has no content/);
    assert.equal((await server.server.services.store.byteCounts.usage()).folders, before, 'no folder was created');
  });
});

describe('A2A 0.3 client (a2a-legacy)', () => {
  test('creates a folder with message/send', async () => {
    const client = await LegacyA2AClient.fromCardUrl(`${server.baseUrl}/.well-known/agent-card.json`);
    const response = await client.sendMessage({
      message: {
        kind: 'message',
        messageId: randomUUID(),
        role: 'user',
        parts: [{ kind: 'text', text: 'Create a folder called Wedding pictures in share mode' }],
      },
    });
    assert.ok(!('error' in response), JSON.stringify(response));
    const result = (
      response as { result: { kind: string; parts: { kind: string; text?: string; data?: EmptyCreate }[] } }
    ).result;
    assert.equal(result.kind, 'message');
    const d = result.parts.find((p) => p.kind === 'data')!.data!;
    const t = result.parts.find((p) => p.kind === 'text')!.text!;
    assert.equal(d.mode, 'share');
    assert.ok(t.includes(d.folderUrl));
    assert.equal((await stored(d.folderId)).title, 'Wedding pictures');
  });

  test('request mode is an error response', async () => {
    const client = await LegacyA2AClient.fromCardUrl(`${server.baseUrl}/.well-known/agent-card.json`);
    const response = await client.sendMessage({
      message: {
        kind: 'message',
        messageId: randomUUID(),
        role: 'user',
        parts: [{ kind: 'data', data: { mode: 'request' } }],
      },
    });
    assert.ok('error' in response);
    assert.equal((response as { error: { code: number } }).error.code, -32602);
    assert.match((response as { error: { message: string } }).error.message, /becomes the owner/);
  });
});

describe('A2A endpoint, raw JSON-RPC', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  test('malformed JSON is -32700', async () => {
    const res = await post('{"jsonrpc":');
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32700);
  });

  test('an unknown method is -32601 in both versions', async () => {
    for (const headers of [{}, { 'A2A-Version': '1.0' }] as Record<string, string>[]) {
      const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'folders/destroy', params: {} }), headers);
      assert.ok(res.status < 500, `status ${res.status}`);
      const body = (await res.json()) as { id: unknown; error: { code: number } };
      assert.equal(body.error.code, -32601);
    }
  });

  test('not a request object, batches, wrong jsonrpc: -32600, never 500', async () => {
    for (const body of [
      '[]',
      '42',
      '"x"',
      'null',
      '{"jsonrpc":"1.0","id":1,"method":"message/send"}',
      '[{"jsonrpc":"2.0","id":1,"method":"message/send"}]',
    ]) {
      const res = await post(body);
      assert.ok(res.status >= 200 && res.status < 500, `status ${res.status} for ${body}`);
      const reply = (await res.json()) as { error?: { code: number } };
      assert.ok(reply.error, `an error for ${body}`);
    }
  });

  test('bad params are -32602, never 500', async () => {
    const bodies = [
      { jsonrpc: '2.0', id: 1, method: 'message/send', params: {} },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [] } },
      },
      { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: 'hello' } },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ data: 5 }] } },
      },
    ];
    for (const body of bodies) {
      const res = await post(JSON.stringify(body));
      assert.ok(res.status < 500, `status ${res.status} for ${JSON.stringify(body)}`);
      const reply = (await res.json()) as { error?: { code: number; message: string } };
      assert.ok(reply.error, `an error for ${JSON.stringify(body)}`);
    }
  });

  test('SendMessage without the version header is served as 1.0', async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'a',
        method: 'SendMessage',
        params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'create a folder' }] } },
      }),
    );
    assert.equal(res.status, 200);
    const reply = (await res.json()) as { result?: { message?: { parts: unknown[] } } };
    assert.ok(reply.result?.message?.parts.length, JSON.stringify(reply));
  });

  test('an unsupported A2A-Version is a version error', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }), {
      'A2A-Version': '9.9',
    });
    assert.ok(res.status < 500);
    assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32009);
  });

  test('streaming is refused cleanly', async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/stream',
        params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'x' }] } },
      }),
    );
    assert.ok(res.status < 500);
    assert.ok(((await res.json()) as { error?: unknown }).error);
  });

  test('an oversized body is a 413 JSON-RPC error', async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { pad: 'x'.repeat(200 * 1024) } }),
    );
    assert.equal(res.status, 413);
    assert.ok(((await res.json()) as { error?: unknown }).error);
  });

  test('a non-JSON media type is a 415 JSON-RPC error', async () => {
    const res = await post('hello', { 'content-type': 'text/plain' });
    assert.equal(res.status, 415);
    assert.ok(((await res.json()) as { error?: unknown }).error);
  });
});
