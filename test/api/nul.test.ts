import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createEmpty } from '../support/api.js';
import { type RunningServer, startServer } from '../support/server.js';
import { onEveryStore, type StoreSuite } from '../support/stores.js';

/**
 * NUL characters (U+0000) in any string field are refused as 400 invalid_request by the one
 * validation layer, on every surface, whatever the store: PostgreSQL cannot store them and answered
 * 500. Run against SQLite and against a real PostgreSQL (TEST_REQUIRE_SERVICES=1 makes
 * a missing PostgreSQL a failure instead of a skip).
 */
const NUL = '\u0000';

interface Answer {
  readonly status: number;
  readonly body: { error?: unknown; code?: unknown };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

function refused(answer: Answer, field: RegExp, what: string): void {
  assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.code, 'invalid_request', what);
  assert.match(String(answer.body.error), field, what);
  assert.match(String(answer.body.error), /control characters/, what);
}

const OWNER = 'A'.repeat(43);

const suite: StoreSuite = (store, env, skip) => {
  describe(`NUL characters are refused (${store})`, () => {
    let server: RunningServer | null = null;
    before(async () => {
      const extra = await env();
      if (extra) server = await startServer(extra);
    });
    after(async () => server?.close());

    test('v2 create: title, filename, mimetype and ske', async (t) => {
      if (!server) return void t.skip(skip());
      const url = `${server.baseUrl}/v2/folders`;
      const file = { filename: 'a', filesize: 1 };
      refused(await post(url, { title: `a${NUL}b` }), /^title /, 'title');
      for (const [name, body, field] of [
        ['filename', { files: [{ ...file, filename: `x${NUL}` }] }, /^files\[0\]\.filename /],
        ['mimetype', { files: [{ ...file, mimetype: `text/plain${NUL}` }] }, /^files\[0\]\.mimetype /],
        ['ske', { files: [file], encryption: { ske: `s${NUL}` } }, /^encryption\.ske /],
      ] as const)
        refused(await post(url, { encryption: { ske: 'ske' }, ...body }), field, name);
      // And a valid request still works on this store.
      assert.equal((await post(url, { title: 'fine' })).status, 200);
    });

    test('site register: filename, mimetype, ske, sealed key and owner key', async (t) => {
      if (!server) return void t.skip(skip());
      const folder = await createEmpty(server.baseUrl);
      const url = `${server.baseUrl}/api/site/folders/${folder.folderId}/files`;
      const file = { filename: 'n', filesize: 1 };
      for (const [name, body, field] of [
        ['filename', { files: [{ ...file, filename: `n${NUL}` }], ske: 's' }, /^files\[0\]\.filename /],
        ['mimetype', { files: [{ ...file, mimetype: NUL }], ske: 's' }, /^files\[0\]\.mimetype /],
        ['sealedKey', { files: [{ ...file, sealedKey: `k${NUL}` }], ske: 's' }, /^files\[0\]\.sealedKey /],
        ['ske', { files: [file], ske: `s${NUL}` }, /^ske /],
        ['ownerPublicKey', { files: [file], ske: 's', ownerPublicKey: `p${NUL}` }, /^ownerPublicKey /],
      ] as const)
        refused(await post(url, body, { 'x-owner-token': OWNER }), field, name);
      const info = (await (await fetch(`${server.baseUrl}/api/site/folders/${folder.folderId}`)).json()) as {
        owned: boolean;
      };
      assert.equal(info.owned, false, 'nothing was claimed by the refused requests');
    });

    test('the agent surfaces: an MCP tool argument and an A2A data part', async (t) => {
      if (!server) return void t.skip(skip());
      const mcp = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_share_folder', arguments: { title: `t${NUL}` } },
        }),
      });
      const text = await mcp.text();
      assert.match(text, /"isError":true/, text);
      assert.match(text, /title must not contain control characters/, text);
      assert.match(text, /"code":"invalid_request"/, text);
      const a2a = await post(`${server.baseUrl}/a2a`, {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'data', data: { title: NUL } }] },
        },
      });
      assert.match(JSON.stringify(a2a.body), /title must not contain control characters/);
    });
  });
};

onEveryStore(suite);
