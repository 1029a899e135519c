import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { takeDownNotice } from '../../app/admin/take-down.js';
import { AppError } from '../../app/errors.js';
import type { Services } from '../../app/services.js';
import { openFolder } from '../../app/site/access.js';
import {
  listSiteFiles,
  registerSiteFiles,
  setSending,
  siteChunk,
  siteUploadStatus,
  siteUploadUrls,
} from '../../app/site/files.js';
import { folderInfo } from '../../app/site/folder-info.js';
import { clearNotifications, getNotifications, setNotifications } from '../../app/site/notifications.js';
import type { Config } from '../../config/config.js';
import { answerSchemas as answers } from '../../contract/answers.js';
import { SITE_API_PATH } from '../../contract/paths.js';
import {
  chunkParams,
  fileParams,
  folderParams,
  siteChunkQuery,
  siteListQuery,
  siteNotificationsUpdateSchema,
  siteRegisterRequestSchema,
  siteSendingSchema,
} from '../../contract/requests.js';
import type { SiteSettings } from '../../contract/site.js';
import { contentRange } from '../../domain/byte-range.js';
import { escapeHtml } from '../../domain/html.js';
import { folderPagePath, SITE_PAGES, sitePagePath } from '../../domain/links.js';
import { renderShell } from '../../domain/site-manifest.js';
import { APP_ICON_PATH, WEB_APP_MANIFEST_PATH, webAppManifest } from '../../domain/web-app-manifest.js';
import { builtManifest } from '../../release/build-manifest.js';
import { sendChunkBody } from '../answers/chunk-download.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { declarePluginRoutes, FOLDER_CALLER, PAGE_POLICY, routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';
import { accountFolderRoutes } from './account-folders.js';
import { callerOf, downloadTicketOf } from './site-caller.js';
import { siteManifestRoutes } from './site-manifest.js';
import { siteOwnerRoutes } from './site-owner.js';
import { siteThumbnailRoutes } from './site-thumbnails.js';

/**
 * The browser site: its page (built by Vite into dist/web), its static assets and service worker,
 * and its own JSON endpoints under `<site path>/api/site`. Everything is served at the path of
 * WEB_URL (the root by default), under a strict Content-Security-Policy: no inline script, nothing
 * from another origin except the API and the object storage the page uploads to.
 */
// Three levels up from src/http/routes/ (tsx) and from dist/http/routes/ (the build) alike.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SITE_BUILD_DIR = join(ROOT, 'dist', 'web');

/** The path of WEB_URL without a trailing slash: '' when the site is at the root. */
export function sitePath(config: Config): string {
  return new URL(config.webUrl).pathname.replace(/\/+$/, '');
}

export function siteApiPath(config: Config): string {
  return `${sitePath(config)}${SITE_API_PATH}`;
}

function origin(url: string): string {
  return new URL(url).origin;
}

/** The page's Content-Security-Policy directives (also sent by the discovery route when it serves the home page). */
export function siteCspDirectives(config: Config): Record<string, string[]> {
  const connect = new Set(["'self'", origin(config.baseUrl), origin(config.webUrl)]);
  if (config.s3) connect.add(config.s3.endpoint ? origin(config.s3.endpoint) : 'https://*.amazonaws.com');
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    // The viewer (web/src/views/viewer.ts) plays decrypted media from blob: URLs when no service
    // worker streams it, and then shows a PDF as an <embed> of a blob: (the browser's PDF viewer, which
    // runs none of the site's script; Chromium loads it in a frame, hence frame-src and object-src
    // blob:). blob: URLs can only be made by the page's own script, which frames no other blob. With
    // a service worker the PDF is a frame of its <site>/media/<id>/<name> ('self').
    'media-src': ["'self'", 'blob:'],
    'connect-src': [...connect],
    'worker-src': ["'self'"],
    'frame-src': ["'self'", 'blob:'],
    'object-src': ['blob:'],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  };
}

export function siteCspHeader(config: Config): string {
  return Object.entries(siteCspDirectives(config))
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}

let cachedTemplate: string | null | undefined;
function template(): string | null {
  if (cachedTemplate === undefined) {
    const file = join(SITE_BUILD_DIR, 'index.html');
    cachedTemplate = existsSync(file) ? readFileSync(file, 'utf8') : null;
  }
  return cachedTemplate;
}

/** The release the page shows in its footer: the manifest's version and hash, or null (no manifest built). */
function releaseOf(manifest: ReturnType<typeof builtManifest>): SiteSettings['release'] {
  return manifest ? { version: manifest.version, manifest: manifest.sha256 } : null;
}

/** The site's page with its base path and configuration filled in; null when the site is not built. */
export function sitePageHtml(config: Config): string | null {
  const html = template();
  if (html === null) return null;
  const base = `${sitePath(config)}/`;
  const settings = JSON.stringify({
    base,
    api: siteApiPath(config),
    baseUrl: config.baseUrl,
    docsUrl: config.docsUrl,
    // The home page's expiry choice (a folder page reads them from FolderInfo).
    maxExpiresInHours: config.maxExpiresHours,
    defaultExpiresInHours: config.freeDownloadHours,
    siteName: config.siteName,
    imprintUrl: config.imprintUrl,
    privacyUrl: config.privacyUrl,
    // Whether the owner's controls may offer e-mail: without SMTP_URL the server refuses an address.
    mail: config.notifications.smtpUrl !== null,
    // The footer shows the release and its manifest's hash, for a person to compare with the
    // published ones (docs/security.md, "Verifying an instance").
    release: releaseOf(builtManifest()),
  } satisfies SiteSettings);
  // The instance's name is in the page as served (no flash of the default before the script runs).
  return renderShell(html, { base, settingsAttribute: escapeHtml(settings), nameHtml: escapeHtml(config.siteName) });
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>webfolder</title></head>
<body><main><h1>The site is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>), then reload.</p></main></body></html>`;

export async function siteRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const { config } = services;
  const prefix = sitePath(config);
  const api = siteApiPath(config);
  installJsonBodies(app, config.maxJsonBodyBytes);
  // The common headers come from src/http/answers/security-headers.ts; the site adds its own CSP (on its
  // JSON answers too) and keeps its resources to its own site.
  const csp = siteCspHeader(config);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', csp).header('cross-origin-resource-policy', 'same-site');
  });
  // The JSON endpoints on a folder, and the pages (src/http/callers/route-policy.ts).
  const limited = { ...limitedBy('site'), config: routePolicy('site', FOLDER_CALLER) };
  const pageRoute = { ...limitedBy('site'), config: PAGE_POLICY };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  // ---- JSON endpoints of the site (typed from their schemas) -----------------------------------
  const json = typed(app);
  json.get(
    `${api}/folders/:folderId`,
    { ...limited, schema: { params: folderParams, response: { 200: answers.folderInfo } } },
    async (request, reply) => {
      noStore(reply);
      return folderInfo(services, request.params.folderId, callerOf(request));
    },
  );
  // A taken-down folder's page says why (app/admin/take-down.ts); 404 for any other folder.
  json.get(
    `${api}/folders/:folderId/take-down`,
    {
      ...limitedBy('site'),
      config: routePolicy('site', ['anonymous']),
      schema: { params: folderParams, response: { 200: answers.takeDown } },
    },
    async (request, reply) => {
      noStore(reply);
      return takeDownNotice(services, request.params.folderId);
    },
  );
  // Registering files and re-signing their URLs is signing work, like a create: both spend from the
  // create bucket, so the site bucket's larger allowance cannot buy more of it than the API allows.
  const signing = { ...limitedBy('create'), config: routePolicy('site', FOLDER_CALLER) };
  json.post(
    `${api}/folders/:folderId/files`,
    {
      ...signing,
      schema: { params: folderParams, body: siteRegisterRequestSchema, response: { 200: answers.register } },
    },
    async (request, reply) => {
      noStore(reply);
      return registerSiteFiles(services, request.params.folderId, callerOf(request), request.body, request.ip);
    },
  );
  json.get(
    `${api}/folders/:folderId/files`,
    { ...limited, schema: { params: folderParams, querystring: siteListQuery, response: { 200: answers.fileList } } },
    async (request, reply) => {
      noStore(reply);
      const { cursor, limit } = request.query;
      return listSiteFiles(services, request.params.folderId, callerOf(request), { cursor, limit });
    },
  );
  json.get(
    `${api}/folders/:folderId/files/:fileId/status`,
    { ...limited, schema: { params: fileParams, response: { 200: answers.fileProgress } } },
    async (request, reply) => {
      noStore(reply);
      return siteUploadStatus(services, request.params.folderId, request.params.fileId, callerOf(request));
    },
  );
  json.post(
    `${api}/folders/:folderId/files/:fileId/upload-urls`,
    { ...signing, schema: { params: fileParams, response: { 200: answers.registeredFile } } },
    async (request, reply) => {
      noStore(reply);
      return siteUploadUrls(services, request.params.folderId, request.params.fileId, callerOf(request));
    },
  );
  // The uploading browser's heartbeat (domain/sending.ts): what recipients see of a stopped upload.
  json.post(
    `${api}/folders/:folderId/sending`,
    { ...limited, schema: { params: folderParams, body: siteSendingSchema } },
    async (request, reply) => {
      await setSending(services, request.params.folderId, callerOf(request), request.body);
      return reply.status(204).send();
    },
  );
  // The owner's notification settings (app/site/notifications.ts).
  const notifications = `${api}/folders/:folderId/notifications`;
  json.get(
    notifications,
    { ...limited, schema: { params: folderParams, response: { 200: answers.notifications } } },
    async (request, reply) => {
      noStore(reply);
      return getNotifications(services, request.params.folderId, callerOf(request));
    },
  );
  json.put(
    notifications,
    {
      ...limited,
      schema: { params: folderParams, body: siteNotificationsUpdateSchema, response: { 200: answers.notifications } },
    },
    async (request, reply) => {
      noStore(reply);
      return setNotifications(services, request.params.folderId, callerOf(request), request.body, request.ip);
    },
  );
  json.delete(notifications, { ...limited, schema: { params: folderParams } }, async (request, reply) => {
    noStore(reply);
    await clearNotifications(services, request.params.folderId, callerOf(request));
    return reply.status(204).send();
  });
  // Chunk transfers spend from the chunk bucket, like chunk uploads: a download of a large file is
  // thousands of them, which must not starve the page's own calls in the site bucket.
  json.get(
    `${api}/folders/:folderId/files/:fileId/chunks/:chunk`,
    // Encrypted bytes do not compress (and mime-db calls octet-stream compressible).
    {
      ...limitedBy('chunk'),
      config: routePolicy('chunk', [...FOLDER_CALLER, 'download-ticket']),
      compress: false,
      schema: { params: chunkParams, querystring: siteChunkQuery },
    },
    async (request, reply) => {
      const p = request.params;
      const range = request.headers.range;
      const ticket = downloadTicketOf(request);
      const result = await siteChunk(services, p.folderId, p.fileId, p.chunk, callerOf(request), range, ticket);
      reply.header('cache-control', 'private, no-store');
      if (result.kind === 'redirect') {
        // The page asks for JSON and fetches the presigned URL itself, without its credential
        // headers: a redirect would carry X-Owner-Token along to the object storage.
        if (/\bapplication\/json\b/.test(request.headers.accept ?? ''))
          return reply.type('application/json; charset=utf-8').send({ url: result.url });
        return reply.redirect(result.url, 302);
      }
      reply.type('application/octet-stream').header('accept-ranges', 'bytes');
      if (result.range) {
        const { start, end } = result.range;
        reply.status(206).header('content-range', contentRange(result.range, result.length));
        return sendChunkBody(reply.header('content-length', String(end - start + 1)), result.body);
      }
      return sendChunkBody(reply.header('content-length', String(result.length)), result.body);
    },
  );

  await app.register(siteThumbnailRoutes, { services, api });
  await app.register(siteOwnerRoutes, { services, api });
  await app.register(accountFolderRoutes, { services, base: prefix });
  await app.register(siteManifestRoutes, { base: prefix });

  // ---- The page and its assets -----------------------------------------------------------------
  const sendPage = (reply: FastifyReply, status: number) => {
    const html = sitePageHtml(config);
    return reply
      .status(html || status === 404 ? status : 503)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(html ?? NOT_BUILT);
  };
  app.get<{ Params: { folderId: string } }>(
    `${prefix}${folderPagePath(':folderId')}`,
    pageRoute,
    async (request, reply) => {
      try {
        await openFolder(services, request.params.folderId);
        return sendPage(reply, 200);
      } catch (error) {
        if (error instanceof AppError && (error.status === 404 || error.status === 400)) return sendPage(reply, 404);
        throw error;
      }
    },
  );
  // The site's other pages ("My folders", API keys, the admin console) are the same page: it asks
  // the account and admin APIs for what it shows.
  for (const page of Object.keys(SITE_PAGES) as (keyof typeof SITE_PAGES)[])
    app.get(`${prefix}${sitePagePath(page)}`, pageRoute, async (_request, reply) => sendPage(reply, 200));
  // The root is the discovery route's (it serves this page to browsers); elsewhere the site owns its home.
  const page = { config: PAGE_POLICY };
  if (prefix !== '') app.get(`${prefix}/`, page, async (_request, reply) => sendPage(reply, 200));
  // Streamed downloads are answered by the service worker; reaching the server means it was not running.
  app.get(`${prefix}/dl/*`, page, async (_request, reply) =>
    reply
      .status(404)
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Download</title></head><body><p>This download link works only from the folder page that started it. Go back and download again.</p></body></html>',
      ),
  );
  // The web app manifest: the instance's name and path (src/domain/web-app-manifest.ts).
  app.get(`${prefix}${WEB_APP_MANIFEST_PATH}`, page, async (_request, reply) =>
    reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(JSON.stringify(webAppManifest(config.siteName, `${prefix}/`))),
  );
  if (existsSync(SITE_BUILD_DIR)) {
    // In a scope of their own, whose routes (the static plugin's, which take no config) are pages'.
    await app.register(async (assets) => {
      declarePluginRoutes(assets, PAGE_POLICY);
      await assets.register(fastifyStatic, {
        root: join(SITE_BUILD_DIR, 'assets'),
        prefix: `${prefix}/assets/`,
        decorateReply: false,
        index: false,
        immutable: true,
        maxAge: '365d',
      });
    });
    // The workers' scripts keep fixed names (a service worker's URL is its identity), so they are
    // revalidated rather than cached for a year like the hashed assets.
    // The app's icon too: the web app manifest names it.
    const fixed = {
      'sw.js': 'text/javascript; charset=utf-8',
      'crypto-worker.js': 'text/javascript; charset=utf-8',
      [APP_ICON_PATH.slice(1)]: 'image/svg+xml',
    };
    for (const [script, type] of Object.entries(fixed)) {
      const file = join(SITE_BUILD_DIR, script);
      app.get(`${prefix}/${script}`, page, async (_request, reply) => {
        if (!existsSync(file)) return reply.status(404).send({ error: `${script} not built`, code: 'not_found' });
        return reply.type(type).header('cache-control', 'no-cache').send(readFileSync(file));
      });
    }
  }
}
