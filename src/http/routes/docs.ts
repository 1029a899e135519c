import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { Services } from '../../app/services.js';
import { ConfigError } from '../../config/config.js';
import { openApiDocument } from '../../discovery/openapi.js';
import { surfaceUrl } from '../../discovery/surfaces.js';
import { docsSite, PUBLIC_OPENAPI_PLACEHOLDER, projectRoot, SITE_LINK_SLUG } from '../../docs/build.js';
import { API_SLUG } from '../../docs/render.js';
import { escapeHtml } from '../../domain/html.js';
import { declarePluginRoutes, routePolicy } from '../callers/route-policy.js';

/**
 * The documentation site at DOCS_URL: every `docs/*.md` as a page built at build time, with `.br`
 * and `.gz` variants (src/docs/build.ts), served by @fastify/static as files; the API reference
 * (Redoc, served by this process, reading the service's own OpenAPI document); the raw Markdown of
 * each page at `<page>.md` for agents; `<prefix>/_site`, the header's redirect to WEB_URL. The
 * stylesheet, scripts and icon are files of the same build.
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

  // Built at build time (src/docs/build.ts), pages and assets alike: this reads its description.
  const { dir, site } = await docsSite(prefix, docsDir);
  const pages = new Set(site.pages);
  const markdown = new Set(site.markdown);
  const files = new Map(Object.entries(site.files));
  const openApiUrl = `${prefix}/openapi.json`;
  const openApiJson = JSON.stringify(openApiDocument(config));
  // The two pages a server completes for itself, held by this plugin instance only.
  const notFound = await readFile(join(dir, '404.html'), 'utf8');
  const apiReference = (await readFile(join(dir, 'api.html'), 'utf8')).replaceAll(
    PUBLIC_OPENAPI_PLACEHOLDER,
    escapeHtml(surfaceUrl(config.baseUrl, 'openapi')),
  );

  const html = (reply: FastifyReply, body: string, csp = GUIDE_CSP, status = 200) =>
    reply
      .status(status)
      .header('content-security-policy', csp)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(body);

  // The pages' files, with their .br and .gz variants, through reply.sendFile in this plugin only.
  await app.register(fastifyStatic, {
    root: dir,
    serve: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
  });
  const page = (reply: FastifyReply, slug: string) =>
    reply
      .header('content-security-policy', GUIDE_CSP)
      .header('cache-control', 'no-cache')
      .sendFile(`pages/${slug}.html`);

  // Scoped to the assets' path, so that a missing asset gets the docs' own 404 page.
  const docs = routePolicy('docs', ['anonymous']);
  await app.register(
    async (assets) => {
      // Every route of this scope is the static plugin's (which takes no config): the docs' files.
      declarePluginRoutes(assets, docs);
      assets.setNotFoundHandler((_request, reply) => html(reply, notFound, GUIDE_CSP, 404));
      // JavaScript's registered type (RFC 9239), where the static plugin would say application/javascript.
      assets.addHook('onSend', async (request, reply, payload) => {
        if (reply.statusCode === 200 && request.url.split('?')[0]!.endsWith('.js'))
          reply.header('content-type', 'text/javascript; charset=utf-8');
        return payload;
      });
      await assets.register(fastifyStatic, {
        root: join(dir, '_assets'),
        prefix: '/',
        decorateReply: false,
        index: false,
        preCompressed: true,
        immutable: true,
        maxAge: '365d',
        ...(host ? { constraints: { host } } : {}),
      });
    },
    { prefix: `${prefix}/_assets` },
  );

  const route: RouteShorthandOptions = { config: docs, ...(host ? { constraints: { host } } : {}) };
  if (prefix !== '') app.get(prefix, route, async (_request, reply) => page(reply, 'index'));
  app.get(`${prefix}/`, route, async (_request, reply) => page(reply, 'index'));
  app.get<{ Params: { '*': string } }>(`${prefix}/*`, route, async (request, reply) => {
    const rest = request.params['*'];
    const path = `${prefix}/${rest}`;
    if (pages.has(rest)) return page(reply, rest);
    if (rest === API_SLUG) return html(reply, apiReference, API_REFERENCE_CSP);
    if (rest === SITE_LINK_SLUG) return reply.header('cache-control', 'no-cache').redirect(`${config.webUrl}/`, 302);
    if (path === openApiUrl) {
      return reply
        .header('cache-control', 'no-cache')
        .header('access-control-allow-origin', '*')
        .type('application/json; charset=utf-8')
        .send(openApiJson);
    }
    const md = /^(.+)\.md$/.exec(rest);
    if (md && markdown.has(md[1]!)) {
      return reply.header('cache-control', 'no-cache').sendFile(`pages/${md[1]}.md`);
    }
    const type = files.get(rest);
    if (type) {
      return reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .sendFile(`files/${rest}`);
    }
    // A trailing slash on a page address: the page itself.
    const trimmed = rest.replace(/\/+$/, '');
    if (trimmed !== rest && (pages.has(trimmed) || trimmed === API_SLUG))
      return reply.redirect(`${prefix}/${trimmed}`, 301);
    return html(reply, notFound, GUIDE_CSP, 404);
  });
}
