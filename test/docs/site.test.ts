import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { KNOWN_VARIABLES } from '../../src/config/config.js';
import { startServer, useServer } from '../support/server.js';

/**
 * The docs site over a real server: every docs/*.md is a page in the navigation, every internal link
 * and anchor resolves, the API reference loads its assets and the service's OpenAPI document, and
 * the Content-Security-Policy never allows inline scripts.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const DOCS_DIR = join(ROOT, 'docs');

const srv = useServer();
let slugs: string[];
before(async () => {
  slugs = (await readdir(DOCS_DIR)).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
});

const pagePath = (slug: string) => (slug === 'index' ? '/docs/' : `/docs/${slug}`);

/** href and src attribute values, entities decoded. */
function links(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) =>
    m[1]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'"),
  );
}
const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

function cspDirectives(header: string | null): Map<string, string[]> {
  assert.ok(header, 'Content-Security-Policy header present');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map((d) => [d[0]!, d.slice(1)]),
  );
}

function assertNoInlineScripts(header: string | null): Map<string, string[]> {
  const csp = cspDirectives(header);
  const scripts = csp.get('script-src') ?? csp.get('default-src');
  assert.ok(scripts, 'script-src (or default-src) is set');
  for (const bad of ["'unsafe-inline'", "'unsafe-eval'", '*', 'http:', 'https:', 'data:'])
    assert.ok(!scripts.includes(bad), `script-src has no ${bad}: ${header}`);
  return csp;
}

describe('docs site', () => {
  test('the index renders with a navigation that lists every docs/*.md and the API reference', async () => {
    assert.ok(slugs.includes('index'), 'docs/index.md exists');
    for (const path of ['/docs', '/docs/']) {
      const res = await fetch(`${srv.baseUrl}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const html = await res.text();
      const nav = /<nav class="sidebar" aria-label="Documentation">([\s\S]*?)<\/nav>/.exec(html)?.[1];
      assert.ok(nav, 'the page has the navigation');
      const navLinks = new Set(links(nav));
      for (const slug of slugs) assert.ok(navLinks.has(pagePath(slug)), `navigation links ${slug}.md`);
      assert.ok(navLinks.has('/docs/api'), 'navigation links the API reference');
      assert.match(html, /<h1 id="webfolder">webfolder<\/h1>/);
      assert.match(html, /aria-current="page"/);
    }
  });

  test('every guide page answers 200 HTML with its title, heading ids and the shared layout', async () => {
    for (const slug of slugs) {
      const res = await fetch(`${srv.baseUrl}${pagePath(slug)}`);
      assert.equal(res.status, 200, slug);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      const html = await res.text();
      const markdown = await readFile(join(DOCS_DIR, `${slug}.md`), 'utf8');
      const h1 = /^# (.+)$/m.exec(markdown)?.[1];
      if (h1) assert.match(html, /<h1 id="[^"]+">/, `${slug} has its h1`);
      assert.match(html, /<html lang="en">/);
      assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
      assert.match(html, /<main id="content"/);
      assert.doesNotMatch(html, /<script/i, `${slug}: guide pages run no script`);
      const article = /<article>([\s\S]*)<\/article>/.exec(html)?.[1] ?? '';
      assert.doesNotMatch(article, /href="[^"]*\.md(#[^"]*)?"/, `${slug}: links to .md files are mapped to page URLs`);
      // The Markdown source is served next to the page.
      const raw = await fetch(`${srv.baseUrl}/docs/${slug}.md`);
      assert.equal(raw.status, 200);
      assert.match(raw.headers.get('content-type') ?? '', /^text\/markdown/);
      assert.equal(await raw.text(), markdown);
    }
  });

  test('every internal link and anchor on every page resolves', async () => {
    const origin = new URL(srv.baseUrl).origin;
    const queue = [...slugs.map(pagePath), '/docs/api', '/docs/nope'];
    const seen = new Map<string, { status: number; ids: Set<string> }>();
    const anchors: { from: string; path: string; fragment: string }[] = [];
    let checked = 0;
    while (queue.length) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      const res = await fetch(`${origin}${path}`, { redirect: 'manual', headers: { accept: 'text/html' } });
      const type = res.headers.get('content-type') ?? '';
      const body = type.startsWith('text/html') ? await res.text() : await res.arrayBuffer().then(() => '');
      seen.set(path, { status: res.status, ids: ids(body) });
      checked++;
      // A redirect (the header's "Open the site" goes through one to WEB_URL): its target must answer.
      const location = res.status === 302 ? res.headers.get('location') : null;
      if (location) {
        const to = new URL(location, `${origin}${path}`);
        if (to.origin === origin && !seen.has(to.pathname)) queue.push(to.pathname);
      }
      if (!body || !path.startsWith('/docs')) continue;
      for (const link of links(body)) {
        const url = new URL(link, `${origin}${path}`);
        if (url.origin !== origin) continue;
        if (url.hash) anchors.push({ from: path, path: url.pathname, fragment: decodeURIComponent(url.hash.slice(1)) });
        if (!seen.has(url.pathname)) queue.push(url.pathname);
      }
    }
    const broken = [...seen]
      .filter(([path, r]) => r.status !== 200 && path !== '/docs/nope' && !(r.status === 302 && path === '/docs/_site'))
      .map(([path, r]) => `${path} -> ${r.status}`);
    assert.deepEqual(broken, [], 'every linked address answers 200');
    const missing = anchors
      .filter((a) => !seen.get(a.path)?.ids.has(a.fragment))
      .map((a) => `${a.from}: ${a.path}#${a.fragment}`);
    assert.deepEqual(missing, [], 'every #fragment names an id on its page');
    assert.ok(checked > slugs.length + 3, `crawled ${checked} addresses`);
  });

  test('the API reference loads Redoc and the stylesheet from this process and points at the OpenAPI document', async () => {
    const res = await fetch(`${srv.baseUrl}/docs/api`);
    assert.equal(res.status, 200);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
    assert.equal(scripts.length, 2, 'the Redoc bundle and the init script');
    assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script');
    assert.ok(scripts.some((s) => /redoc-[\d.]+(-local)?\.standalone\.js$/.test(s)));
    const styles = [...html.matchAll(/<link rel="stylesheet"[^>]* href="([^"]+)"/g)].map((m) => m[1]!);
    for (const asset of [...scripts, ...styles]) {
      assert.ok(asset.startsWith('/docs/_assets/'), `${asset} is served by the process, no CDN`);
      const a = await fetch(`${srv.baseUrl}${asset}`);
      assert.equal(a.status, 200, asset);
      assert.match(a.headers.get('content-type') ?? '', asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      assert.match(a.headers.get('cache-control') ?? '', /immutable/);
      assert.ok((await a.arrayBuffer()).byteLength > 100, asset);
    }
    const redoc = await fetch(`${srv.baseUrl}${scripts.find((s) => s.includes('redoc'))}`);
    assert.equal(redoc.headers.get('content-encoding'), 'gzip', 'the 1 MB bundle goes compressed');
    assert.match(await redoc.text(), /Redoc/);

    const specUrl = /data-spec-url="([^"]+)"/.exec(html)?.[1];
    assert.ok(specUrl, 'the page names its OpenAPI document');
    const spec = (await (await fetch(new URL(specUrl, srv.baseUrl))).json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const published = await (await fetch(`${srv.baseUrl}/openapi.json`)).json();
    assert.deepEqual(spec, published, 'the reference renders the same document as /openapi.json');
    assert.equal(spec.openapi, '3.1.0');
    assert.equal(spec.info.version, '2.0.0');
    assert.equal(spec.paths['/v2/folders']!.post!.operationId, 'createV2Folder');
    assert.match(html, new RegExp(`href="${srv.baseUrl}/openapi.json"`), 'links the public OpenAPI address');
  });

  test('an unknown page is a 404 HTML page with the navigation', async () => {
    for (const path of ['/docs/no-such-page', '/docs/no-such-page.md', '/docs/_assets/nothing.js', '/docs/a/b/c']) {
      const res = await fetch(`${srv.baseUrl}${path}`);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const html = await res.text();
      assert.match(html, /Page not found/);
      assert.match(html, /aria-label="Documentation"/);
      assertNoInlineScripts(res.headers.get('content-security-policy'));
    }
    const slash = await fetch(`${srv.baseUrl}/docs/quick-start/`, { redirect: 'manual' });
    assert.equal(slash.status, 301);
    assert.equal(slash.headers.get('location'), '/docs/quick-start');
  });

  test('the Content-Security-Policy forbids inline scripts everywhere; only the API reference runs scripts, from self', async () => {
    const guide = await fetch(`${srv.baseUrl}/docs/quick-start`);
    const g = assertNoInlineScripts(guide.headers.get('content-security-policy'));
    assert.deepEqual(g.get('script-src'), ["'none'"]);
    assert.deepEqual(g.get('style-src'), ["'self'"], 'guide pages need no inline style either');
    assert.deepEqual(g.get('default-src'), ["'none'"]);
    assert.deepEqual(g.get('frame-ancestors'), ["'none'"]);
    assert.equal(guide.headers.get('x-content-type-options'), 'nosniff');

    const api = await fetch(`${srv.baseUrl}/docs/api`);
    const a = assertNoInlineScripts(api.headers.get('content-security-policy'));
    assert.deepEqual(a.get('script-src'), ["'self'"]);
    assert.deepEqual(a.get('connect-src'), ["'self'"], 'the reference fetches nothing from elsewhere');
    assert.deepEqual(a.get('default-src'), ["'none'"]);
    for (const values of a.values())
      for (const v of values) assert.doesNotMatch(v, /^https?:/, 'no other origin is allowed');
  });

  test('docs/configuration.md documents every configuration variable and its flag', async () => {
    const text = await readFile(join(DOCS_DIR, 'configuration.md'), 'utf8');
    for (const name of KNOWN_VARIABLES) {
      assert.match(text, new RegExp(`\\| \`${name}\` \\|`), `${name} has a row`);
      assert.ok(text.includes(`\`--${name.toLowerCase().replace(/_/g, '-')}\``), `${name} has its flag`);
    }
  });
});

describe('docs site at other addresses', () => {
  test('served at the path of DOCS_URL', async () => {
    const other = await startServer({ DOCS_URL: 'https://example.com/handbook/', WEB_URL: 'https://web.example.test' });
    try {
      const res = await fetch(`${other.baseUrl}/handbook/quick-start`);
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /href="\/handbook\/configuration"/, 'links follow the prefix');
      // "Open the site" names no host in the built page: it redirects to WEB_URL.
      assert.match(html, /<a class="top-link" href="\/handbook\/_site">Open the site<\/a>/);
      const site = await fetch(`${other.baseUrl}/handbook/_site`, { redirect: 'manual' });
      assert.equal(site.status, 302);
      assert.equal(site.headers.get('location'), 'https://web.example.test/', 'the link leads to WEB_URL');
      assert.equal((await fetch(`${other.baseUrl}/handbook`)).status, 200);
      assert.equal((await fetch(`${other.baseUrl}/handbook/api`)).status, 200);
      const gone = await fetch(`${other.baseUrl}/docs/quick-start`);
      assert.equal(gone.status, 404);
      assert.match(gone.headers.get('content-type') ?? '', /json/, '/docs is nobody’s when DOCS_URL is elsewhere');
    } finally {
      await other.close();
    }
  });

  test('at the root of its own host name, without taking the root of the API host', async () => {
    const other = await startServer({ DOCS_URL: 'http://docs.example.test' });
    try {
      const get = (path: string, host: string) =>
        new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
          const { port } = new URL(other.baseUrl);
          const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host, accept: 'text/html' } }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
          });
          req.on('error', reject);
          req.end();
        });
      const docsIndex = await get('/', 'docs.example.test');
      assert.equal(docsIndex.status, 200);
      assert.match(docsIndex.body, /aria-label="Documentation"/);
      assert.equal((await get('/direct-upload', 'docs.example.test')).status, 200);
      const apiRoot = await get('/', new URL(other.baseUrl).host);
      assert.doesNotMatch(apiRoot.body, /aria-label="Documentation"/, 'the API host keeps its own root');
    } finally {
      await other.close();
    }
  });

  test('a DOCS_URL at the root of the API host is refused, naming the variable', async () => {
    await assert.rejects(startServer({ DOCS_URL: 'http://127.0.0.1:1/', BASE_URL: 'http://127.0.0.1:1' }), /DOCS_URL/);
  });
});
