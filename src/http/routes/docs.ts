import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { Services } from '../../app/services.js';
import { ConfigError } from '../../config/config.js';
import { openApiDocument } from '../../discovery/openapi.js';
import { surfaceUrl } from '../../discovery/surfaces.js';
import { docsAssets, docsBuildDir, projectRoot } from '../../docs/build.js';
import { API_SLUG, loadDocs, renderSite } from '../../docs/render.js';

/**
 * The documentation site at DOCS_URL: every `docs/*.md` rendered once when this server starts, for
 * its configured addresses (see src/docs), the API reference (Redoc, served by this process,
 * reading the service's own OpenAPI document), and the raw Markdown of each page at `<page>.md` for
 * agents. The stylesheet, scripts and icon are files built at build time with `.br` and `.gz`
 * variants (src/docs/build.ts), served by @fastify/static.
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

  // Built at build time with pre-compressed variants (src/docs/build.ts), served as files.
  const built = await docsAssets();
  const assetsPath = `${prefix}/_assets`;
  const assetUrls = {
    css: `${assetsPath}/${built.css}`,
    redoc: `${assetsPath}/${built.redoc}`,
    apiInit: `${assetsPath}/${built.apiInit}`,
    icon: `${assetsPath}/${built.icon}`,
  };
  const openApiUrl = `${prefix}/openapi.json`;
  const openApiJson = JSON.stringify(openApiDocument(config));

  // Rendered once per server, for its configured addresses (no cache shared across servers).
  const site = renderSite(await loadDocs(docsDir), {
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

  // Scoped to the assets' path, so that a missing asset gets the docs' own 404 page.
  await app.register(
    async (assets) => {
      assets.setNotFoundHandler((_request, reply) => html(reply, site.notFound, GUIDE_CSP, 404));
      // JavaScript's registered type (RFC 9239), where the static plugin would say application/javascript.
      assets.addHook('onSend', async (request, reply, payload) => {
        if (reply.statusCode === 200 && request.url.split('?')[0]!.endsWith('.js'))
          reply.header('content-type', 'text/javascript; charset=utf-8');
        return payload;
      });
      await assets.register(fastifyStatic, {
        root: join(docsBuildDir(), '_assets'),
        prefix: '/',
        decorateReply: false,
        index: false,
        preCompressed: true,
        immutable: true,
        maxAge: '365d',
        ...(host ? { constraints: { host } } : {}),
      });
    },
    { prefix: assetsPath },
  );

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
