import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { hashToken, newId, newToken } from '../../src/domain/ids.js';
import { useServer } from '../support/server.js';

/**
 * The principal (src/http/callers/principal.ts) with no sign-in configured: nothing changes for requests
 * without a key, and a presented API key that is not valid is refused with its code.
 */
const node = useServer();

const BOGUS = `wfk_${'A'.repeat(43)}`;

test('an unknown API key is refused with api_key_invalid where keys count: 401, and 400 on the v2 contract operation', async () => {
  const account = await fetch(`${node.baseUrl}/api/account`, { headers: { authorization: `Bearer ${BOGUS}` } });
  assert.equal(account.status, 401);
  assert.equal(((await account.json()) as { code: string }).code, 'api_key_invalid');
  // Where no key counts (the service index, a page), it is not read at all.
  const index = await fetch(`${node.baseUrl}/`, { headers: { authorization: `Bearer ${BOGUS}` } });
  assert.equal(index.status, 200);
  const create = await fetch(`${node.baseUrl}/v2/folders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BOGUS}`, 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(create.status, 400);
  assert.equal(((await create.json()) as { code: string }).code, 'api_key_invalid');
});

test('without a key, or with another kind of bearer token, requests are anonymous as before', async () => {
  const plain = await fetch(`${node.baseUrl}/v2/folders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(plain.status, 200);
  const other = await fetch(`${node.baseUrl}/v2/folders`, {
    method: 'POST',
    headers: { authorization: 'Bearer something-else', 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(other.status, 200);
  const folder = await node.server.services.store.getFolder(((await other.json()) as { folderId: string }).folderId);
  assert.equal(folder?.accountId, null);
});

describe('CREATE_POLICY=signed-in', () => {
  // The issuer is read only at the first sign-in: none happens here (keys are made in the store).
  const closed = useServer({
    OIDC_ISSUER: 'http://127.0.0.1:9/unused',
    OIDC_CLIENT_ID: 'webfolder',
    CREATE_POLICY: 'signed-in',
  });
  let key: string;
  let accountId: string;
  before(async () => {
    const accounts = closed.server.services.store.accounts;
    const account = await accounts.signIn({
      newId: newId(),
      issuer: 'http://127.0.0.1:9/unused',
      subject: 'script',
      email: null,
      name: null,
      admin: false,
      now: Date.now(),
    });
    accountId = account.id;
    key = `wfk_${newToken().padEnd(43, 'A').slice(0, 43)}`;
    await accounts.createApiKey({ id: newId(), accountId, name: 'ci', hash: hashToken(key), createdAt: Date.now() });
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${closed.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  test('anonymous creates are refused with sign_in_required (400 on v2 and v1, 401 on the site)', async () => {
    const v2 = await post('/v2/folders', {});
    assert.equal(v2.status, 400);
    assert.equal(((await v2.json()) as { code: string }).code, 'sign_in_required');
    const v1 = await post('/v1/delivery-webfolder', {
      title: 't',
      ske: 'ske',
      files: [{ filename: 'n', filesize: 1 }],
    });
    // v1 answers the statuses of the v2 operation it translates onto: the contract's 400.
    assert.equal(v1.status, 400);
    assert.equal(((await v1.json()) as { code: string }).code, 'sign_in_required');
    const site = await post(
      '/api/site/folders',
      { mode: 'send', ske: 'ske' },
      { 'x-owner-token': newToken(), origin: closed.baseUrl },
    );
    assert.equal(site.status, 401);
    assert.equal(((await site.json()) as { code: string }).code, 'sign_in_required');
  });

  test('an API key makes folders, recorded under its account, on v2 and on the site', async () => {
    const v2 = await post('/v2/folders', { title: 'With a key' }, { authorization: `Bearer ${key}` });
    assert.equal(v2.status, 200);
    const { folderId } = (await v2.json()) as { folderId: string };
    assert.equal((await closed.server.services.store.getFolder(folderId))?.accountId, accountId);
    const site = await post(
      '/api/site/folders',
      { mode: 'send', ske: 'ske' },
      { 'x-owner-token': newToken(), origin: closed.baseUrl, authorization: `Bearer ${key}` },
    );
    assert.equal(site.status, 201, await site.clone().text());
    const made = (await site.json()) as { folderId: string };
    assert.equal((await closed.server.services.store.getFolder(made.folderId))?.accountId, accountId);
  });

  test('MCP: an anonymous create_share_folder is a tool error with the code', async () => {
    const call = await post(
      '/mcp',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_share_folder', arguments: { title: 'x' } },
      },
      { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    );
    const text = await call.text();
    assert.match(text, /sign_in_required/);
  });
});
