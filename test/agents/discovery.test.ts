import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHUNK_UPLOAD_RULE } from '../../src/discovery/openapi.js';
import { SURFACES, type SurfaceKey } from '../../src/discovery/surfaces.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * The agent-facing documents (llms.txt, ai-plugin.json, MCP server card, A2A agent card) over a
 * real server: well-formed, and every address they give resolves.
 */
let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(async () => server.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(path.startsWith('http') ? path : `${server.baseUrl}${path}`, { headers });
  return res;
}

/** GET for documents; the MCP and A2A endpoints are POST-only, so they are probed with a JSON-RPC call. */
async function resolves(url: string): Promise<number> {
  const u = new URL(url);
  if (u.pathname === '/mcp') {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'links', version: '1' } },
      }),
    });
    await res.body?.cancel();
    return res.status;
  }
  if (u.pathname === '/a2a') {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'none' } }),
    });
    await res.body?.cancel();
    return res.status;
  }
  const res = await fetch(url);
  await res.body?.cancel();
  return res.status;
}

describe('llms.txt', () => {
  test('is text/plain in llmstxt.org shape at both paths', async () => {
    const bodies: string[] = [];
    for (const path of SURFACES.llms.paths) {
      const res = await get(path);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      bodies.push(await res.text());
    }
    assert.equal(bodies[0], bodies[1]);
    const body = bodies[0]!;
    const lines = body.split('\n');
    assert.match(lines[0]!, /^# \S/, 'starts with an H1');
    assert.ok(
      lines.some((l) => /^> \S/.test(l)),
      'has a > summary',
    );
    assert.ok(body.includes('## Which mode to choose'));
    assert.ok(body.includes(CHUNK_UPLOAD_RULE), 'carries the chunk rule verbatim');
    assert.match(body, /24 hours/);
    assert.match(body, /same link/);
  });

  test('links every surface, and every link resolves', async () => {
    const body = await (await get('/llms.txt')).text();
    const links = [...body.matchAll(/^- \[[^\]]+\]\((\S+)\)/gm)].map((m) => m[1]!);
    for (const key of Object.keys(SURFACES) as SurfaceKey[]) {
      for (const path of SURFACES[key].paths) assert.ok(links.includes(`${server.baseUrl}${path}`), `links ${path}`);
    }
    const docsUrl = server.server.services.config.docsUrl;
    for (const link of links) {
      // The docs site is its own component (and often its own host); its pages are tested there.
      if (link.startsWith(docsUrl)) continue;
      assert.equal(await resolves(link), 200, link);
    }
  });
});

describe('ai-plugin.json', () => {
  test('is a v1 manifest pointing at the OpenAPI document', async () => {
    const res = await get('/.well-known/ai-plugin.json');
    assert.equal(res.status, 200);
    const m = (await res.json()) as Record<string, unknown> & {
      api: { type: string; url: string };
      auth: { type: string };
    };
    assert.equal(m.schema_version, 'v1');
    for (const field of ['name_for_human', 'name_for_model', 'description_for_human', 'description_for_model']) {
      assert.equal(typeof m[field], 'string', field);
    }
    assert.ok((m.name_for_model as string).length <= 50);
    assert.ok((m.description_for_human as string).length <= 120);
    assert.equal(m.auth.type, 'none');
    assert.equal(m.api.type, 'openapi');
    const logo = await get(m.logo_url as string);
    assert.equal(logo.status, 200);
    assert.match(logo.headers.get('content-type') ?? '', /^image\//);
    await logo.body?.cancel();
    const openapi = await get(m.api.url);
    assert.equal(openapi.status, 200);
    assert.equal(((await openapi.json()) as { openapi: string }).openapi, '3.1.0');
  });
});

describe('MCP server card', () => {
  test('is served at both paths with the SEP-2127 fields', async () => {
    const cards: string[] = [];
    for (const path of SURFACES.mcpCard.paths) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /json/);
      cards.push(await res.text());
    }
    assert.equal(cards[0], cards[1]);
    assert.match(
      (await get('/mcp/server-card')).headers.get('content-type') ?? '',
      /^application\/mcp-server-card\+json/,
    );
    const card = JSON.parse(cards[0]!) as {
      $schema: string;
      name: string;
      version: string;
      description: string;
      remotes: { type: string; url: string; supportedProtocolVersions: string[] }[];
      tools: { name: string }[];
    };
    assert.match(card.$schema, /^https:\/\//);
    assert.equal(card.name.split('/').length, 2, 'reverse-DNS name with one "/"');
    assert.ok(card.description.length <= 100);
    assert.equal(card.remotes[0]!.type, 'streamable-http');
    assert.equal(card.remotes[0]!.url, `${server.baseUrl}/mcp`);
    assert.deepEqual(card.remotes[0]!.supportedProtocolVersions, ['2026-07-28', '2025-06-18']);
    assert.deepEqual(card.tools.map((t) => t.name).sort(), ['create_share_folder', 'get_usage_guide']);
    assert.equal(await resolves(card.remotes[0]!.url), 200);
  });
});

describe('A2A agent card', () => {
  test('carries the 1.0 and the 0.3 fields, the skill, docs and provider', async () => {
    const res = await get('/.well-known/agent-card.json');
    assert.equal(res.status, 200);
    const card = (await res.json()) as {
      name: string;
      supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
      url: string;
      preferredTransport: string;
      protocolVersion: string;
      documentationUrl: string;
      provider: { organization: string; url: string };
      skills: { id: string; examples: string[] }[];
      capabilities: Record<string, unknown>;
      defaultInputModes: string[];
      defaultOutputModes: string[];
    };
    assert.deepEqual(
      card.supportedInterfaces.map((i) => i.protocolVersion),
      ['1.0', '0.3'],
    );
    for (const i of card.supportedInterfaces) assert.equal(i.url, `${server.baseUrl}/a2a`);
    assert.equal(card.url, `${server.baseUrl}/a2a`);
    assert.equal(card.preferredTransport, 'JSONRPC');
    assert.match(card.protocolVersion, /^0\.3/);
    assert.equal(card.documentationUrl, server.server.services.config.docsUrl);
    assert.ok(card.provider.organization && card.provider.url);
    assert.equal(card.skills[0]!.id, 'create-empty-webfolder');
    assert.ok(card.skills[0]!.examples.length >= 2);
    assert.equal(await resolves(card.url), 200);
  });
});

describe('service index', () => {
  test('lists every agent surface and each resolves', async () => {
    const index = (await (await get('/.well-known/webfolder.json')).json()) as { surfaces: Record<string, string[]> };
    for (const key of ['llms', 'mcp', 'mcpCard', 'agentCard', 'a2a', 'aiPlugin']) {
      assert.ok(index.surfaces[key]?.length, key);
      for (const url of index.surfaces[key]!) assert.equal(await resolves(url), 200, url);
    }
  });
});
