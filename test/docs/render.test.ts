import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadDocs, mapHref, renderMarkdown, renderSite, slugger } from '../../src/docs/render.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

const OPTIONS = {
  prefix: '/docs',
  siteLink: '/docs/_site',
  openApiUrl: '/docs/openapi.json',
  publicOpenApiUrl: 'https://files.example.com/openapi.json',
  assets: {
    css: '/docs/_assets/docs.css',
    redoc: '/docs/_assets/redoc.js',
    apiInit: '/docs/_assets/api.js',
    icon: '/docs/_assets/icon.svg',
  },
};

describe('docs renderer', () => {
  test('maps relative links between docs to page URLs and leaves other links alone', () => {
    assert.equal(mapHref('encryption.md', '/docs'), '/docs/encryption');
    assert.equal(mapHref('./encryption.md#test-vectors', '/docs'), '/docs/encryption#test-vectors');
    assert.equal(mapHref('index.md', '/docs'), '/docs/');
    assert.equal(mapHref('index.md#map', ''), '/#map');
    assert.equal(mapHref('api', '/docs'), '/docs/api');
    assert.equal(mapHref('img/flow.png', '/handbook'), '/handbook/img/flow.png');
    assert.equal(mapHref('#section', '/docs'), '#section');
    assert.equal(mapHref('https://file.kiwi/api', '/docs'), 'https://file.kiwi/api');
    assert.equal(mapHref('mailto:ops@example.com', '/docs'), 'mailto:ops@example.com');
    assert.equal(mapHref('/openapi.json', '/docs'), '/openapi.json');
    assert.equal(mapHref('../README.md', '/docs'), null, 'a file outside docs/ has no page');
  });

  test('headings get GitHub-style ids, unique within a page', () => {
    const slug = slugger();
    assert.equal(slug('The chunk URL rule'), 'the-chunk-url-rule');
    assert.equal(slug('What a chunk PUT answers'), 'what-a-chunk-put-answers');
    assert.equal(slug('Errors'), 'errors');
    assert.equal(slug('Errors'), 'errors-1');
    assert.equal(slug('HOST, BASE_URL & `DOCS_URL`!'), 'host-base_url--docs_url');
    const { title, headings, html } = renderMarkdown(
      '# Title *here*\n\n## A `code` heading\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[x](other.md#a-code-heading) [r](../README.md)\n',
      '/docs',
    );
    assert.equal(title, 'Title here');
    assert.deepEqual(
      headings.map((h) => h.id),
      ['title-here', 'a-code-heading'],
    );
    assert.match(html, /<h2 id="a-code-heading">A <code>code<\/code> heading<a class="anchor" href="#a-code-heading"/);
    assert.match(html, /<a href="\/docs\/other#a-code-heading">x<\/a>/);
    assert.match(html, /<span class="repo-link">r<\/span>/);
    assert.match(html, /<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>/);
  });

  test('every doc in the folder becomes a page in the navigation, in the preferred order, others after', async () => {
    const dir = await tempDir('webfolder-docs-');
    try {
      await writeFile(join(dir, 'zebra.md'), '# Zebra notes\n\nSee [the start](quick-start.md).\n');
      await writeFile(join(dir, 'quick-start.md'), '# Quick start\n\n![diagram](img/flow.svg)\n');
      await writeFile(join(dir, 'index.md'), '# Home\n');
      await writeFile(join(dir, 'alpha.md'), 'No heading here.\n');
      await writeFile(join(dir, 'api.md'), '# Would shadow the API reference\n');
      await writeFile(join(dir, '.hidden.md'), '# Hidden\n');
      await mkdir(join(dir, 'img'));
      await writeFile(join(dir, 'img', 'flow.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      const source = await loadDocs(dir);
      assert.deepEqual(source.docs.map((d) => d.slug).sort(), ['alpha', 'index', 'quick-start', 'zebra']);
      assert.deepEqual(
        source.files.map((f) => f.path),
        ['img/flow.svg'],
      );
      const site = renderSite(source, OPTIONS);
      const nav = /<ul class="pages">([\s\S]*?)<\/ul>\n<\/nav>/.exec(site.pages.get('zebra')!.html)![1]!;
      const order = [...nav.matchAll(/<li[^>]*><a href="([^"]+)"/g)].map((m) => m[1]);
      assert.deepEqual(order, ['/docs/', '/docs/quick-start', '/docs/alpha', '/docs/zebra', '/docs/api']);
      assert.match(nav, /<a href="\/docs\/alpha">Alpha<\/a>/, 'a page without a heading is named after its file');
      assert.match(
        site.pages.get('quick-start')!.html,
        /<img src="\/docs\/img\/flow.svg" alt="diagram" loading="lazy">/,
      );
      assert.match(site.pages.get('zebra')!.html, /<a href="\/docs\/quick-start">the start<\/a>/);
      assert.match(site.pages.get('zebra')!.html, /<a href="\/docs\/zebra" aria-current="page">Zebra notes<\/a>/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a missing docs folder still yields an index and the API reference', async () => {
    const site = renderSite(await loadDocs('/nonexistent/docs'), OPTIONS);
    assert.ok(site.pages.get('index')!.html.includes('href="/docs/api"'));
    assert.match(site.apiReference, /data-spec-url="\/docs\/openapi.json"/);
  });

  test('text from the docs is escaped in attributes', () => {
    const { html } = renderMarkdown('[x](a.md "say \\"hi\\" <b>") ![a "b"](c.png)', '/docs');
    assert.match(html, /title="say &quot;hi&quot; &lt;b&gt;"/);
    assert.match(html, /alt="a &quot;b&quot;"/);
  });
});

describe('docs site over a server with its own docs folder', () => {
  let srv: RunningServer;
  let dir: string;
  before(async () => {
    dir = await tempDir('webfolder-docs-');
    await writeFile(join(dir, 'index.md'), '# Home\n\n[Extra](extra.md)\n');
    await writeFile(join(dir, 'extra.md'), '# Extra page\n\n![flow](flow.svg)\n');
    await writeFile(join(dir, 'flow.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    srv = await startServer();
    // A second plugin instance on the same process, reading the temporary folder.
    const { docsRoutes } = await import('../../src/http/routes/docs.js');
    const { loadConfig } = await import('../../src/config/config.js');
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    await app.register(docsRoutes, {
      services: { ...srv.server.services, config: loadConfig({ BASE_URL: 'http://127.0.0.1:1', DATA_DIR: dir }) },
      docsDir: dir,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const close = srv.close.bind(srv);
    srv = {
      ...srv,
      baseUrl: `http://127.0.0.1:${port}`,
      close: async () => {
        await app.close();
        await close();
      },
    };
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('a new .md file is a page with a navigation entry, and files next to it are served', async () => {
    const index = await (await fetch(`${srv.baseUrl}/docs/`)).text();
    assert.match(index, /<a href="\/docs\/extra">Extra page<\/a>/);
    const extra = await fetch(`${srv.baseUrl}/docs/extra`);
    assert.equal(extra.status, 200);
    const svg = await fetch(`${srv.baseUrl}/docs/flow.svg`);
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    assert.match(
      svg.headers.get('content-security-policy') ?? '',
      /sandbox/,
      'an SVG opened directly cannot run script',
    );
  });
});
