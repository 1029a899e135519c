import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Services } from '../../app/services.js';
import { ConfigError } from '../../config/config.js';
import { openApiDocument } from '../../discovery/openapi.js';
import { surfaceUrl } from '../../discovery/surfaces.js';
import { API_INIT_JS, DOCS_CSS, ICON_SVG } from '../../docs/assets.js';
import {
  API_SLUG,
  type DocsSource,
  loadDocs,
  type RenderedSite,
  renderSite,
  type SiteOptions,
} from '../../docs/render.js';

/**
 * The documentation site at DOCS_URL: every `docs/*.md` rendered once at start (see src/docs), the
 * API reference (Redoc, served from node_modules by this process, reading the service's own OpenAPI
 * document), and the raw Markdown of each page at `<page>.md` for agents.
 *
 * Content-Security-Policy: guide pages run no script at all and load only the site's stylesheet.
 * The API reference page allows scripts from 'self' only (never 'unsafe-inline' or 'unsafe-eval');
 * its one exception is `style-src 'unsafe-inline'`, because Redoc (styled-components) injects its
 * styles at run time. That exception is scoped to that page, which shows no user data.
 */
export const GUIDE_CSP =
  "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
export const API_REFERENCE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface DocsRouteOptions {
  readonly services: Services;
  /** Folder of the Markdown sources; `docs/` of the project by default. */
  readonly docsDir?: string;
}

/** The project's root: the nearest folder above this module with a package.json (works from src/ and dist/). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

const require = createRequire(import.meta.url);
const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');
const REDOC_VERSION = (require('redoc/package.json') as { version: string }).version;

interface Asset {
  readonly type: string;
  /** Loaded on first request and kept: the Redoc bundle is 1 MB, and most starts never serve it. */
  load(): Promise<{ body: Buffer; gzipped: Buffer }>;
}

const gzipAsync = promisify(gzip);
function memo(make: () => Promise<Buffer>): Asset['load'] {
  let cached: Promise<{ body: Buffer; gzipped: Buffer }> | null = null;
  return () => {
    cached ??= make().then(async (body) => ({ body, gzipped: await gzipAsync(body, { level: 9 }) }));
    cached.catch(() => (cached = null));
    return cached;
  };
}
// One copy per process, shared by every server instance (tests start many).
const redocAsset: Asset = { type: 'text/javascript; charset=utf-8', load: memo(() => readFile(REDOC_BUNDLE)) };

const shortHash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 10);

/**
 * Renders the site, reusing the last rendering of identical sources and options: a process that
 * starts several servers (the tests do) renders the docs once, and any change to a file renders anew.
 */
const rendered = new Map<string, RenderedSite>();
function renderOnce(source: DocsSource, options: SiteOptions): RenderedSite {
  const hash = createHash('sha256').update(JSON.stringify(options));
  for (const doc of source.docs) hash.update(`\0${doc.slug}\0${doc.markdown}`);
  for (const file of source.files) hash.update(`\0${file.path}\0`).update(file.body);
  const key = hash.digest('base64url');
  let site = rendered.get(key);
  if (!site) {
    site = renderSite(source, options);
    if (rendered.size >= 8) rendered.delete(rendered.keys().next().value!);
    rendered.set(key, site);
  }
  return site;
}

/** Where the docs site lives: the path of DOCS_URL, and a host constraint when it sits at a host's root. */
export function docsMount(docsUrl: string, baseUrl: string): { prefix: string; host: string | null } {
  const docs = new URL(docsUrl);
  const prefix = docs.pathname.replace(/\/+$/, '');
  if (prefix !== '') return { prefix, host: null };
  if (docs.host === new URL(baseUrl).host) {
    throw new ConfigError('DOCS_URL', 'needs a path (such as /docs) when it shares its host with BASE_URL');
  }
  return { prefix, host: docs.host };
}

export async function docsRoutes(app: FastifyInstance, options: DocsRouteOptions): Promise<void> {
  const { config } = options.services;
  const { prefix, host } = docsMount(config.docsUrl, config.baseUrl);
  const docsDir = options.docsDir ?? join(projectRoot(), 'docs');

  const css = DOCS_CSS;
  const assetsPath = `${prefix}/_assets`;
  const assetUrls = {
    css: `${assetsPath}/docs-${shortHash(css)}.css`,
    redoc: `${assetsPath}/redoc-${REDOC_VERSION}.standalone.js`,
    apiInit: `${assetsPath}/api-reference-${shortHash(API_INIT_JS)}.js`,
    icon: `${assetsPath}/icon-${shortHash(ICON_SVG)}.svg`,
  };
  const assets = new Map<string, Asset>([
    [assetUrls.css, { type: 'text/css; charset=utf-8', load: memo(async () => Buffer.from(css)) }],
    [assetUrls.apiInit, { type: 'text/javascript; charset=utf-8', load: memo(async () => Buffer.from(API_INIT_JS)) }],
    [assetUrls.redoc, redocAsset],
    [assetUrls.icon, { type: 'image/svg+xml', load: memo(async () => Buffer.from(ICON_SVG)) }],
  ]);
  const openApiUrl = `${prefix}/openapi.json`;
  const openApiJson = JSON.stringify(openApiDocument(config));

  const site = renderOnce(await loadDocs(docsDir), {
    prefix,
    baseUrl: config.baseUrl,
    webUrl: config.webUrl,
    openApiUrl,
    publicOpenApiUrl: surfaceUrl(config.baseUrl, 'openapi'),
    assets: assetUrls,
  });

  const html = (reply: FastifyReply, body: string, csp = GUIDE_CSP, status = 200) =>
    reply
      .status(status)
      .header('content-security-policy', csp)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(body);

  const serveAsset = async (request: FastifyRequest, reply: FastifyReply, asset: Asset) => {
    const { body, gzipped } = await asset.load();
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('vary', 'accept-encoding')
      .type(asset.type);
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
      return reply.header('content-encoding', 'gzip').send(gzipped);
    return reply.send(body);
  };

  const route: RouteShorthandOptions = host ? { constraints: { host } } : {};
  const index = site.pages.get('index')!.html;
  if (prefix !== '') app.get(prefix, route, async (_request, reply) => html(reply, index));
  app.get(`${prefix}/`, route, async (_request, reply) => html(reply, index));
  app.get<{ Params: { '*': string } }>(`${prefix}/*`, route, async (request, reply) => {
    const rest = request.params['*'];
    const path = `${prefix}/${rest}`;
    const page = site.pages.get(rest);
    if (page) return html(reply, page.html);
    if (rest === API_SLUG) return html(reply, site.apiReference, API_REFERENCE_CSP);
    if (path === openApiUrl) {
      return reply
        .header('cache-control', 'no-cache')
        .header('access-control-allow-origin', '*')
        .type('application/json; charset=utf-8')
        .send(openApiJson);
    }
    const asset = assets.get(path);
    if (asset) return serveAsset(request, reply, asset);
    const md = /^(.+)\.md$/.exec(rest);
    const source = md ? site.pages.get(md[1]!) : undefined;
    if (source?.markdown) {
      return reply.header('cache-control', 'no-cache').type('text/markdown; charset=utf-8').send(source.markdown);
    }
    const file = site.files.get(rest);
    if (file) {
      return reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .type(file.type)
        .send(file.body);
    }
    // A trailing slash on a page address: the page itself.
    const trimmed = rest.replace(/\/+$/, '');
    if (trimmed !== rest && (site.pages.has(trimmed) || trimmed === API_SLUG))
      return reply.redirect(`${prefix}/${trimmed}`, 301);
    return html(reply, site.notFound, GUIDE_CSP, 404);
  });
}
