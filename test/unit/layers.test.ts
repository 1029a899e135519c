import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { test } from 'node:test';
import { importsOf, ROOT, sourceFiles } from '../support/imports.js';

/**
 * The layers of the whole code base, read from the import statements themselves: every import in
 * src/ and web/src between two folders must be allowed by the table below, and the folders must form
 * no cycle. A folder is a top-level folder of src/ (`src/http/routes/api.ts` is in `http`); the
 * composition root (src/server.ts, src/backends.ts, src/main.ts) is `root`. The page's folders are
 * `web/<folder>` (web/src/views/files.ts is in `web/views`), and its top-level files each their own
 * (`web/main`, `web/core`, `web/config`).
 */
const ALLOWED: Record<string, readonly string[]> = {
  // Pure rules: imports nothing of ours.
  domain: [],
  // The contract (schemas, types, error codes) states the domain's limits as data.
  contract: ['domain'],
  // Standalone but for the domain's arithmetic (the RFC 8188 length is defined once, there).
  crypto: ['domain'],
  config: ['domain'],
  // The ports' implementations.
  store: ['domain'],
  blobs: ['config', 'contract', 'domain'],
  // Use cases: the domain, the contract, the configuration, and the store and blob ports.
  app: ['domain', 'contract', 'config', 'store', 'blobs'],
  // Documents built from plain data; no SDK, no transport.
  discovery: ['config', 'contract', 'domain'],
  // The docs site's rendering; never the transport.
  docs: ['config', 'contract', 'domain', 'discovery'],
  // Agent logic (the MCP server, the A2A service, intent parsing) over the use cases; its HTTP
  // routes are plugins of src/http like every other route.
  agents: ['app', 'config', 'contract', 'discovery', 'domain'],
  // What a release's browser code is: the site manifest's build and signature (run by npm run build).
  release: ['domain'],
  // The transport: every route family, over the use cases and the agent logic.
  http: ['agents', 'app', 'blobs', 'config', 'contract', 'discovery', 'docs', 'domain', 'release'],
  // Client side: no server code (test/unit/client-layers.test.ts checks the details).
  transfer: ['contract', 'crypto', 'domain'],
  client: ['contract', 'crypto', 'domain', 'transfer'],
  // The page. It reaches the shared code through one entry, web/src/core.ts, and nothing else does.
  'web/core': ['contract', 'crypto', 'domain', 'transfer'],
  // The settings the server writes into the page (the site API's path is the contract's).
  'web/config': ['web/core'],
  // The folder page's state and protocols: DOM-free, words-free (the views say things).
  'web/state': ['web/core'],
  // The crypto workers, the service worker and their typed channels.
  'web/workers': ['web/config', 'web/core'],
  // The browser's parts plugged into the state: storage, XMLHttpRequest, downloads, drops, thumbnails.
  'web/adapters': ['web/config', 'web/core', 'web/state', 'web/workers'],
  // The message catalogs; the chosen language is kept by the storage adapter.
  'web/i18n': ['web/adapters'],
  'web/views': ['web/adapters', 'web/config', 'web/core', 'web/i18n', 'web/state', 'web/workers'],
  // The router; the core says which page a path is (src/domain/links.ts).
  'web/main': ['web/config', 'web/core', 'web/i18n', 'web/state', 'web/views'],
  // Delivery of the use cases' events (webhooks, mail) from the store's outbox.
  notify: ['app', 'config', 'contract', 'domain', 'store'],
  // Operations beside the transport: health, readiness, metrics, start-up and shutdown; they watch
  // every layer below and use the transport's logger, which never imports them.
  ops: ['app', 'blobs', 'config', 'contract', 'domain', 'http', 'notify', 'store'],
  // The composition root opens the backends and registers the HTTP plugins and operations.
  root: ['app', 'blobs', 'config', 'contract', 'domain', 'http', 'notify', 'ops', 'store'],
  // The operator's commands on the server's machine: open the configured backends the way the root
  // does (nothing imports them; bin/webfolder.js dispatches to them).
  admin: ['app', 'config', 'contract', 'domain', 'notify', 'ops', 'root', 'store'],
};

function folderOf(path: string): string {
  const rel = relative(ROOT, path);
  if (rel.startsWith('web/src/')) {
    const [first = '', ...rest] = rel.slice('web/src/'.length).split('/');
    return `web/${rest.length > 0 ? first : first.replace(/\.(js|ts)$/, '')}`;
  }
  const parts = rel.split('/');
  return parts.length > 2 ? parts[1]! : 'root';
}

/** Every import between two folders, as [from folder, to folder, file, target]. */
async function edges(): Promise<[string, string, string, string][]> {
  const out: [string, string, string, string][] = [];
  for (const dir of ['src', 'web/src']) {
    for (const file of await sourceFiles(dir)) {
      for (const { target } of await importsOf(file)) {
        if (target === null) continue;
        const from = folderOf(file);
        const to = folderOf(target);
        if (from !== to) out.push([from, to, relative(ROOT, file), relative(ROOT, target)]);
      }
    }
  }
  return out;
}

test('every import between folders is allowed by the layer table', async () => {
  const found = await edges();
  assert.ok(found.length > 50, 'the scan sees the imports');
  for (const folder of ['web/state', 'web/views', 'web/workers', 'web/adapters', 'web/core'])
    assert.ok(
      found.some(([from]) => from === folder),
      `the scan sees the page's folder ${folder}`,
    );
  const wrong = found
    .filter(([from, to]) => !(ALLOWED[from] ?? []).includes(to))
    .map(([from, to, file, target]) => `${from} -> ${to}: ${file} imports ${target}`);
  assert.deepEqual(wrong, []);
});

test('every folder of src/ and web/src has its row in the layer table', async () => {
  const folders = new Set<string>();
  for (const dir of ['src', 'web/src']) for (const file of await sourceFiles(dir)) folders.add(folderOf(file));
  assert.ok(folders.has('domain') && folders.has('web/state'), 'the scan sees the folders');
  const missing = [...folders].filter((folder) => !(folder in ALLOWED)).sort();
  assert.deepEqual(missing, [], 'a new folder needs its place in the table, even when it imports nothing of ours');
});

test('no folder-level cycle', async () => {
  const graph = new Map<string, Set<string>>();
  for (const [from, to] of await edges()) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  assert.deepEqual(cycles, []);
});

test('the table itself has no cycle, so that following it cannot make one', () => {
  const order: string[] = [];
  const remaining = new Map(Object.entries(ALLOWED).map(([k, v]) => [k, new Set(v)]));
  while (remaining.size > 0) {
    const ready = [...remaining].filter(([, deps]) => [...deps].every((d) => order.includes(d))).map(([k]) => k);
    assert.ok(ready.length > 0, `a cycle among ${[...remaining.keys()].join(', ')}`);
    for (const k of ready) {
      order.push(k);
      remaining.delete(k);
    }
  }
});

test('no module imports itself through others (type imports included)', async () => {
  const graph = new Map<string, string[]>();
  for (const dir of ['src', 'web/src'])
    for (const file of await sourceFiles(dir))
      graph.set(
        relative(ROOT, file),
        (await importsOf(file)).flatMap(({ target }) =>
          target === null ? [] : [relative(ROOT, target).replace(/\.js$/, '.ts')],
        ),
      );
  assert.ok(graph.size > 100, 'the scan sees the modules');
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  assert.deepEqual(cycles, []);
});
