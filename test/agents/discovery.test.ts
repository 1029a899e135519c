import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentCard as A2aAgentCard } from '@a2a-js/sdk';
import { loadConfig } from '../../src/config/config.js';
import { aiPluginManifest } from '../../src/discovery/ai-plugin.js';
import { MCP_PROTOCOL_VERSIONS } from '../../src/discovery/mcp-card.js';
import { CHUNK_UPLOAD_RULE } from '../../src/discovery/openapi.js';
import { SURFACES, type SurfaceKey } from '../../src/discovery/surfaces.js';
import { useServer } from '../support/server.js';

/**
 * The agent-facing documents (llms.txt, ai-plugin.json, MCP server card, A2A agent card) over a
 * real server: well-formed, and every address they give resolves.
 */
const server = useServer();

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
    // A loopback instance has no mailbox to publish (it once said webmaster@127.0.0.1).
    assert.equal(server.server.services.config.contactEmail, null);
    assert.equal('contact_email' in m, false);
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
    assert.deepEqual(card.remotes[0]!.supportedProtocolVersions, [...MCP_PROTOCOL_VERSIONS]);
    assert.deepEqual(card.tools.map((t) => t.name).sort(), ['create_share_folder', 'get_usage_guide']);
    assert.equal(await resolves(card.remotes[0]!.url), 200);
  });
});

/** A raw 2025-era initialize: the JSON-RPC result (the SDK answers it as one SSE message). */
async function initialize(protocolVersion: string) {
  const res = await fetch(`${server.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'card', version: '1' } },
    }),
  });
  assert.equal(res.status, 200);
  const text = await res.text();
  const data = text.includes('data: ') ? text.slice(text.indexOf('data: ') + 6).split('\n')[0]! : text;
  return (JSON.parse(data) as { result: { protocolVersion: string; capabilities: Record<string, unknown> } }).result;
}

describe('MCP server card and initialize say the same', () => {
  test('capabilities, and every listed protocol revision is the one initialize agrees to', async () => {
    const card = (await (await get('/mcp/server-card')).json()) as {
      capabilities: Record<string, unknown>;
      remotes: { supportedProtocolVersions: string[] }[];
    };
    assert.deepEqual(card.capabilities, { tools: { listChanged: false } });
    const listed = card.remotes[0]!.supportedProtocolVersions;
    assert.equal(listed[0], '2026-07-28', 'the native revision first');
    for (const version of listed.slice(1)) {
      const result = await initialize(version);
      assert.equal(result.protocolVersion, version, `initialize with ${version}`);
      assert.deepEqual(result.capabilities, card.capabilities, `capabilities under ${version}`);
    }
    // A revision the card does not list is answered with the newest 2025-era one it does.
    assert.equal((await initialize('2024-10-07')).protocolVersion, listed[1]);
    assert.equal((await initialize('1999-01-01')).protocolVersion, listed[1]);
  });

  test('2026-07-28: server/discover lists the same revision and capabilities', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'card', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
    try {
      const card = (await (await get('/mcp/server-card')).json()) as {
        capabilities: Record<string, unknown>;
        tools: { name: string; description: string; inputSchema: unknown }[];
      };
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
      assert.deepEqual(client.getServerCapabilities()?.tools, card.capabilities.tools);
      const listed = (await client.listTools()).tools;
      assert.deepEqual(
        listed.map((t) => [t.name, t.description, t.inputSchema]),
        card.tools.map((t) => [t.name, t.description, t.inputSchema]),
      );
    } finally {
      await client.close();
    }
  });
});

describe('A2A agent card', () => {
  type Card = Record<string, unknown> & {
    name: string;
    supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
    url: string;
    preferredTransport: string;
    protocolVersion: string;
    documentationUrl: string;
    provider: { organization: string; url: string };
    skills: { id: string; examples: string[] }[];
    capabilities: Record<string, unknown>;
  };
  const card = async (headers: Record<string, string> = {}, query = '') => {
    const res = await get(`/.well-known/agent-card.json${query}`, headers);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('vary') ?? '', /A2A-Version/i, 'caches keep the versions apart');
    return (await res.json()) as Card;
  };

  test('A2A-Version 1.0 gets the 1.0 card: interfaces, the skill, docs and provider, and no 0.3 field', async () => {
    const v1 = await card({ 'A2A-Version': '1.0' });
    assert.deepEqual(
      v1.supportedInterfaces.map((i) => i.protocolVersion),
      ['1.0', '0.3'],
    );
    for (const i of v1.supportedInterfaces) {
      assert.equal(i.url, `${server.baseUrl}/a2a`);
      assert.equal(i.protocolBinding, 'JSONRPC');
      assert.match(i.protocolVersion, /^\d+\.\d+$/, 'major.minor, no patch');
    }
    for (const field of ['url', 'preferredTransport', 'protocolVersion', 'supportsAuthenticatedExtendedCard'])
      assert.ok(!Object.hasOwn(v1, field), `no 0.3 field ${field}`);
    assert.deepEqual(Object.keys(v1).sort(), [
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'description',
      'documentationUrl',
      'name',
      'provider',
      'skills',
      'supportedInterfaces',
      'version',
    ]);
    assert.equal(v1.documentationUrl, server.server.services.config.docsUrl);
    assert.ok(v1.provider.organization && v1.provider.url);
    assert.equal(v1.skills[0]!.id, 'create-empty-webfolder');
    assert.ok(v1.skills[0]!.examples.length >= 2);
    assert.equal(await resolves(v1.supportedInterfaces[0]!.url), 200);
    assert.deepEqual(await card({}, '?A2A-Version=1.0'), v1, 'the query parameter selects it too');
    // Every field is one of the 1.0 schema's: the SDK's ProtoJSON codec of the 1.0 AgentCard keeps
    // the whole card through a round trip (it drops what the schema does not define).
    assert.deepEqual(A2aAgentCard.toJSON(A2aAgentCard.fromJSON(v1)), v1);
  });

  test('no A2A-Version (A2A: that means 0.3), or 0.3, gets the 0.3 card, with no 1.0 field', async () => {
    const v03 = await card();
    assert.deepEqual(await card({ 'A2A-Version': '0.3' }), v03);
    assert.equal(v03.url, `${server.baseUrl}/a2a`);
    assert.equal(v03.preferredTransport, 'JSONRPC');
    assert.equal(v03.protocolVersion, '0.3.0');
    assert.ok(!Object.hasOwn(v03, 'supportedInterfaces'));
    assert.ok(!('extendedAgentCard' in v03.capabilities));
    assert.equal(v03.documentationUrl, server.server.services.config.docsUrl);
    assert.equal(v03.skills[0]!.id, 'create-empty-webfolder');
    assert.equal(await resolves(v03.url), 200);
  });

  test('GET /a2a is 405 with Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${server.baseUrl}/a2a`, { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /POST/);
    }
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

describe('ai-plugin.json contact', () => {
  test('CONTACT_EMAIL, or webmaster@ a domain-name host, is published as contact_email', () => {
    const config = loadConfig({ CONTACT_EMAIL: 'ops@example.com', BASE_URL: 'http://127.0.0.1:8080' });
    assert.equal(aiPluginManifest(config).contact_email, 'ops@example.com');
    const withDomain = loadConfig({ BASE_URL: 'https://files.example.org' });
    assert.equal(aiPluginManifest(withDomain).contact_email, 'webmaster@files.example.org');
  });
});
