import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

/**
 * One outbound-request layer (src/transfer/outbound.ts). Every request of the
 * library, the CLI, the page and its service worker goes through it, so credentials stay on the
 * service's origin and every answer is checked; an earlier fix came back because a call went beside
 * the one fetch path. This scan makes that impossible to do quietly: no `fetch(`, `exchange(`,
 * XMLHttpRequest, beacon, EventSource, WebSocket or network module anywhere in src/transfer,
 * src/client or web/src, but in the layer and the transports it plugs in (which only answer the
 * layer: they are passed to it as `fetch`, never called by anyone else).
 */
const ROOT = resolve(new URL('../../', import.meta.url).pathname);
const DIRS = ['src/transfer', 'src/client', 'web/src'];
const ALLOWED: Record<string, string> = {
  'src/transfer/outbound.ts': 'the layer',
  'src/transfer/retry.ts': 'the retry policy under the layer (its default transport is the global fetch)',
  'src/client/node/transport.ts': 'the Node transport (node:http for chunk PUTs and GETs)',
  'web/src/adapters/xhr.ts': "the page's chunk PUT transport (XMLHttpRequest for upload progress)",
  'web/src/workers/app-shell.ts': "the service worker's offline shell: the site's own page and assets, never the API",
};

const RULES: [RegExp, string][] = [
  [/\bfetch\s*\(/, 'calls fetch'],
  [/\bexchange\s*\(/, 'calls exchange (the retry policy) beside the layer'],
  [/\bXMLHttpRequest\b/, 'uses XMLHttpRequest'],
  [/\bsendBeacon\b/, 'sends a beacon'],
  [/\bnew\s+(EventSource|WebSocket)\b/, 'opens an EventSource or WebSocket'],
  [/from\s+['"](node:)?(http|https|http2|net|tls|undici|dgram)['"]/, 'imports a network module'],
  [/import\(\s*['"](node:)?(http|https|http2|net|tls|undici|dgram)['"]\s*\)/, 'imports a network module'],
  // require('http'), createRequire(…)('node:http'): any call naming a network module alone.
  [/\(\s*['"](node:)?(http|https|http2|net|tls|undici|dgram)['"]\s*\)/, 'loads a network module'],
  // The Node transport's primitive (node:http's request/get), however the module was reached.
  [/\b(http|https|http2)\.(request|get|connect)\s*\(/, "calls node:http's request beside the Node transport"],
];

/** The code without comments (a comment may well say "fetch(" or "XMLHttpRequest"). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function violations(file: string, text: string): string[] {
  if (ALLOWED[file]) return [];
  const body = code(text);
  return RULES.filter(([rule]) => rule.test(body)).map(([, what]) => `${file} ${what}`);
}

async function sources(): Promise<string[]> {
  const out: string[] = [];
  for (const dir of DIRS)
    for (const entry of await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && /\.(ts|tsx|mts|js)$/.test(entry.name))
        out.push(relative(ROOT, join(entry.parentPath, entry.name)));
  return out;
}

test('no request leaves src/transfer, src/client or web/src beside the outbound layer', async () => {
  const files = await sources();
  assert.ok(
    files.includes('src/transfer/site-client.ts') && files.includes('web/src/state/uploader.ts'),
    'the scan sees them',
  );
  const found: string[] = [];
  for (const file of files) found.push(...violations(file, await readFile(join(ROOT, file), 'utf8')));
  assert.deepEqual(found, []);
});

test('the scan finds each way around the layer, and not a comment about one', () => {
  const cases = [
    'const r = await fetch(url, { headers });',
    'const r = await globalThis.fetch(url);',
    "await exchange('x', url, {}, http);",
    'const xhr = new XMLHttpRequest();',
    "navigator.sendBeacon('/x', body);",
    "new EventSource('/events');",
    "import http from 'node:http';",
    "import { request } from 'undici';",
    "const https = await import('https');",
    "const http = createRequire(import.meta.url)('node:http');",
    "const h = require('http');",
    "import dgram from 'node:dgram';",
    'const req = http.request(url, options);',
    'https.get(url, (res) => {});',
  ];
  for (const snippet of cases) assert.notDeepEqual(violations('src/client/x.ts', snippet), [], snippet);
  assert.deepEqual(violations('src/client/x.ts', '// never fetch(url) here\n/* new XMLHttpRequest() */'), []);
  assert.deepEqual(violations('src/transfer/outbound.ts', 'await exchange(a, b, c, d);'), []);
});

test('the layer itself is the only caller of the retry policy in the transfer core', async () => {
  const text = code(await readFile(join(ROOT, 'src/transfer/outbound.ts'), 'utf8'));
  assert.match(text, /\bexchange\s*\(/, 'the layer sends through the retry policy');
  for (const file of ['src/transfer/site-client.ts', 'src/transfer/v2.ts'])
    assert.match(await readFile(join(ROOT, file), 'utf8'), /from '\.\/outbound\.js'/, `${file} uses the layer`);
});
