import type { FastifyInstance } from 'fastify';
import type { Services } from '../../app/services.js';
import { openApiDocument } from '../../discovery/openapi.js';
import { publishedSchema } from '../../discovery/published-schemas.js';
import { serviceIndex } from '../../discovery/service-index.js';
import { SURFACES } from '../../discovery/surfaces.js';
import { escapeHtml } from '../../domain/html.js';
import { routePolicy } from '../callers/route-policy.js';
import { siteCspHeader, sitePageHtml, sitePath } from './site.js';

/**
 * Machine-readable documents: OpenAPI, the published schemas and the service index. Each is built
 * once at start (they depend only on configuration) and served as a constant.
 */
export async function discoveryRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const { config } = services;
  const open = { config: routePolicy('discovery', ['anonymous']) };
  const openapi = JSON.stringify(openApiDocument(config));
  for (const path of SURFACES.openapi.paths) {
    app.get(path, open, async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi));
  }
  for (const surface of Object.values(SURFACES)) {
    if (!('schema' in surface)) continue;
    const body = JSON.stringify(publishedSchema(config, surface.schema));
    for (const path of surface.paths)
      app.get(path, open, async (_request, reply) => reply.type('application/schema+json; charset=utf-8').send(body));
  }
  const index = serviceIndex(config);
  const indexJson = JSON.stringify(index);
  const indexHtml = renderIndexHtml(index);
  app.get('/', open, async (request, reply) => {
    reply.header('vary', 'Accept');
    if (prefersHtml(request.headers.accept)) {
      // When the browser site lives at the root, browsers get its home page here.
      const sitePage = sitePath(config) === '' ? sitePageHtml(config) : null;
      if (sitePage)
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', siteCspHeader(config))
          .send(sitePage);
      return reply.type('text/html; charset=utf-8').send(indexHtml);
    }
    return reply.type('application/json; charset=utf-8').send(indexJson);
  });
  app.get('/.well-known/webfolder.json', open, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(indexJson),
  );
}

/** Browsers list text/html first; agents and scripts ask for JSON or anything. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

function renderIndexHtml(index: ReturnType<typeof serviceIndex>): string {
  const links = Object.entries(index.surfaces)
    .map(
      ([key, urls]) =>
        `<li>${escapeHtml(SURFACES[key as keyof typeof SURFACES].title)}: ${urls.map((u) => `<a href="${escapeHtml(u)}">${escapeHtml(u)}</a>`).join(', ')}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>webfolder</title></head>
<body><main><h1>webfolder</h1><p>${escapeHtml(index.description)}</p>
<p><a href="${escapeHtml(index.documentation)}">Documentation</a> · <a href="${escapeHtml(index.web)}">Open the site</a></p>
<h2>For programs and agents</h2><ul>${links}</ul></main></body></html>`;
}
