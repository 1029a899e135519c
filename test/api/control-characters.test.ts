import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RouteOptions } from 'fastify';
import pg from 'pg';
import { compileValidator } from '../../src/contract/validation.js';
import { openConnection } from '../../src/store/sqlite/connection.js';
import { postJson } from '../support/api.js';
import { instanceOf, stringLeaves, withString } from '../support/schema-instance.js';
import { type RunningServer, startServer } from '../support/server.js';
import { onEveryStore, type StoreSuite } from '../support/stores.js';

/**
 * Every string field of every route goes through the contract's schemas, and the one
 * validation layer refuses control characters in all of them. The routes are not a hand list: they
 * are every route the server registered (Webfolder.routes, from Fastify's onRoute), and the fields
 * are every string of a valid instance of each route's params, querystring and body schema. Each
 * field is spoiled in turn with NUL, U+0001, a line feed, DEL and a C1 control; each request must be
 * answered 400 `{error, code: "invalid_request"}` (the v2 contract's status and code) and change
 * nothing in the store. Run on SQLite and on a real PostgreSQL (TEST_REQUIRE_SERVICES=1 makes a
 * missing PostgreSQL a failure).
 */
const BAD = ['\u0000', '\u0001', '\n', '\u007f', '\u0085'];
const OWNER = 'O'.repeat(43);
/** The admin routes' break-glass credential: their guard runs before validation, so they are called as admin. */
const ADMIN_TOKEN = 'control-characters-admin-token-0123456789';

/**
 * The routes that take a body without a JSON body schema, and why. Any other POST/PUT/PATCH without
 * one fails the test: its body would reach a use case unchecked.
 */
const NON_JSON_BODIES: Record<string, string> = {
  'PUT /v2/uploads/:folderId/:fileId/:chunk': 'encrypted chunk bytes (application/octet-stream)',
  'PUT /api/site/folders/:folderId/files/:fileId/thumbnail': 'an encrypted thumbnail (octet-stream)',
  'POST /mcp': 'JSON-RPC, checked by the MCP SDK; tool arguments by agentFolderRequestSchema',
  'DELETE /mcp': 'ends an MCP session; no body',
  'POST /a2a': 'JSON-RPC, checked by the A2A SDK; data parts by agentFolderRequestSchema',
  'PUT /a2a': 'answers 405: A2A is POST only',
  'PATCH /a2a': 'answers 405: A2A is POST only',
  'POST /api/site/folders/:folderId/files/:fileId/upload-urls': 'takes no body (a body is never read)',
  'POST /api/site/folders/:folderId/files/:fileId/downloads': 'takes no body (a body is never read)',
  'POST /mail/confirm': 'a form post (or none); the signed fields are in the query',
  'POST /mail/refuse': 'RFC 8058 one-click (List-Unsubscribe=One-Click, form-encoded); fields in the query',
};

type Part = 'params' | 'querystring' | 'body';
const PARTS: Part[] = ['params', 'querystring', 'body'];

interface Walked {
  readonly method: string;
  readonly url: string;
  readonly schema: Partial<Record<Part, Record<string, unknown>>>;
}

function walkable(routes: readonly RouteOptions[]): Walked[] {
  const out: Walked[] = [];
  for (const route of routes) {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
      (m) => m !== 'HEAD' && m !== 'OPTIONS',
    );
    const schema = (route.schema ?? {}) as Walked['schema'];
    for (const method of methods) out.push({ method, url: route.url, schema });
  }
  return out;
}

async function snapshot(read: () => Promise<Record<string, unknown[]>>): Promise<string> {
  return JSON.stringify(await read());
}

const suite: StoreSuite = (store, env, skip) => {
  describe(`control characters in every string field of every route (${store})`, () => {
    let server: RunningServer | null = null;
    let dump: () => Promise<Record<string, unknown[]>> = async () => ({});
    let closeDump = async () => {};
    let ids: Record<string, string> = {};
    before(async () => {
      const extra = await env();
      if (!extra) return;
      const limits = { RATE_LIMIT_CREATE: '100000', RATE_LIMIT_SITE: '100000', RATE_LIMIT_STATUS: '100000' };
      const mail = { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'webfolder@example.org' };
      server = await startServer({
        ...limits,
        ...mail,
        RATE_LIMIT_CHUNK: '100000',
        RATE_LIMIT_AGENTS: '100000',
        ADMIN_TOKEN,
        ...extra,
      });
      if (extra.DATABASE_URL) {
        const client = new pg.Client({ connectionString: extra.DATABASE_URL });
        await client.connect();
        dump = async () => {
          const tables = await client.query<{ tablename: string }>(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
          );
          const out: Record<string, unknown[]> = {};
          for (const { tablename } of tables.rows)
            out[tablename] = (await client.query(`SELECT * FROM "${tablename}" ORDER BY 1`)).rows;
          return out;
        };
        closeDump = () => client.end();
      } else {
        // The store's own driver choice: better-sqlite3 12 on Node 20, 13 on Node 22 and later.
        const db = openConnection(join(server.dataDir, 'webfolder.db'));
        dump = async () => {
          const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
            name: string;
          }[];
          return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
        };
        closeDump = async () => {
          db.close();
        };
      }
      // A real folder and file, so that a spoiled field is the only thing wrong with a request.
      const headers = { 'x-owner-token': OWNER };
      const made = await postJson<{ folderId: string }>(
        `${server.baseUrl}/api/site/folders`,
        { mode: 'share', ske: 'c2tl' },
        headers,
      );
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const folderId = made.body.folderId;
      const registered = await postJson<{ files: { fileId: string }[] }>(
        `${server.baseUrl}/api/site/folders/${folderId}/files`,
        { files: [{ filename: 'bmFtZQ', filesize: 1 }] },
        headers,
      );
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      ids = { folderId, fileId: registered.body.files[0]!.fileId, fid: registered.body.files[0]!.fileId };
    });
    after(async () => {
      await closeDump();
      await server?.close();
    });

    test('every route that takes a JSON body has a body schema', (t) => {
      if (!server) return void t.skip(skip());
      const missing = walkable(server.server.routes)
        .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.schema.body)
        .map((r) => `${r.method} ${r.url}`)
        .filter((r) => !NON_JSON_BODIES[r]);
      assert.deepEqual(missing, [], 'routes whose bodies skip the contract schemas');
    });

    test('the notification e-mail: control characters and header injection are refused, nothing stored', async (t) => {
      if (!server) return void t.skip(skip());
      const url = `${server.baseUrl}/api/site/folders/${ids.folderId}/notifications`;
      const put = async (body: unknown) => {
        const res = await fetch(url, {
          method: 'PUT',
          headers: { 'x-owner-token': OWNER, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as { error?: string; code?: string; email?: unknown } };
      };
      const set = await put({ email: 'owner@example.org', onDownload: true });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      for (const email of [
        'a\u0000b@example.org',
        'a\u0001b@example.org',
        'a\u007fb@example.org',
        'owner@example.org\r\nBcc: victim@example.org',
        'a\u0085@example.org',
      ]) {
        const answer = await put({ email });
        assert.equal(answer.status, 400, `${JSON.stringify(email)}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.code, 'invalid_request');
        assert.match(String(answer.body.error), /^email /);
      }
      const now = await fetch(url, { headers: { 'x-owner-token': OWNER } });
      assert.equal(((await now.json()) as { email: unknown }).email, 'owner@example.org');
      assert.equal((await fetch(url, { method: 'DELETE', headers: { 'x-owner-token': OWNER } })).status, 204);
      // The address was sent a confirmation (to a closed port): no delivery may change the store
      // while the next test compares it.
      await server.server.notifier.stop();
    });

    test('each string field, spoiled with a control character, is refused with 400 and changes nothing', async (t) => {
      if (!server) return void t.skip(skip());
      const before = await snapshot(dump);
      let requests = 0;
      const fields = new Set<string>();
      for (const route of walkable(server.server.routes)) {
        const valid: Partial<Record<Part, unknown>> = {};
        for (const part of PARTS) {
          const schema = route.schema[part];
          if (!schema) continue;
          const instance = instanceOf(schema) as Record<string, unknown>;
          if (part === 'params') for (const name of Object.keys(instance)) if (ids[name]) instance[name] = ids[name];
          const checked = compileValidator(schema)(instance);
          assert.ok(checked.ok, `${route.method} ${route.url} ${part}: the generated instance is valid`);
          valid[part] = instance;
        }
        for (const part of PARTS) {
          if (valid[part] === undefined) continue;
          for (const leaf of stringLeaves(valid[part])) {
            fields.add(`${route.method} ${route.url} ${part}.${leaf.path.join('.')}`);
            for (const bad of BAD) {
              const spoiled: Partial<Record<Part, unknown>> = {
                ...valid,
                [part]: withString(valid[part], leaf.path, `${leaf.value}${bad}`),
              };
              const what = `${route.method} ${route.url} ${part}.${leaf.path.join('.')} with U+${bad.charCodeAt(0).toString(16).padStart(4, '0')}`;
              // The layer itself refuses it, whatever the route does with it ...
              assert.equal(compileValidator(route.schema[part]!)(spoiled[part]).ok, false, what);
              // ... and so does the server, with the contract's answer.
              const answer = await send(server.baseUrl, route, spoiled);
              requests++;
              assert.equal(answer.status, 400, `${what}: ${answer.text}`);
              const body = JSON.parse(answer.text) as { error?: unknown; code?: unknown };
              assert.equal(typeof body.error, 'string', what);
              assert.equal(body.code, 'invalid_request', what);
            }
          }
        }
      }
      t.diagnostic(`${fields.size} string fields, ${requests} refused requests`);
      // The walk reached the fields this issue is about, and a reasonable number of others.
      assert.ok(fields.has('PUT /api/site/folders/:folderId/notifications body.email'), [...fields].join('\n'));
      assert.ok(fields.has('POST /v2/folders body.title'));
      assert.ok(fields.size >= 25, `only ${fields.size} fields`);
      assert.equal(await snapshot(dump), before, 'the refused requests changed nothing in the store');
    });
  });
};

async function send(
  baseUrl: string,
  route: Walked,
  parts: Partial<Record<Part, unknown>>,
): Promise<{ status: number; text: string }> {
  const params = (parts.params ?? {}) as Record<string, string>;
  const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams((parts.querystring ?? {}) as Record<string, string>).toString();
  const init: RequestInit = { method: route.method, headers: { 'x-owner-token': OWNER, accept: 'application/json' } };
  if (route.url.startsWith('/api/admin/'))
    (init.headers as Record<string, string>).authorization = `Bearer ${ADMIN_TOKEN}`;
  if (parts.body !== undefined) {
    init.body = JSON.stringify(parts.body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}${query ? `?${query}` : ''}`, init);
  return { status: res.status, text: await res.text() };
}

onEveryStore(suite);
