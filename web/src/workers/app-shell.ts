/// <reference lib="webworker" />

/**
 * The app shell offline (./sw.ts): the page and its hashed assets, so that an installed app opens
 * without a connection and says so (web/src/views/offline.ts). Nothing of a folder is kept: the
 * shell is stored under the site's root address only (every page is that same shell, so no folder's
 * id is ever a cache key; a fragment, the folder's key, never reaches a service worker), and only the
 * page itself and `<site>/assets/` are answered here. The site's API, chunks, thumbnails, downloads
 * and media are never cached.
 */
const CACHE = 'webfolder-app-shell';

/**
 * The worker's answer to a request it keeps offline, or null: the browser's own fetch answers it.
 * `keep`: the fetch event's waitUntil, so that storing a copy never holds up the answer.
 */
export function appShellResponse(
  request: Request,
  scope: URL,
  keep: (storing: Promise<unknown>) => void,
): Promise<Response> | null {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  if (request.mode === 'navigate' && request.destination === 'document') return shell(request, scope, keep);
  if (!url.pathname.startsWith(`${scope.pathname}assets/`)) return null;
  // Online, the browser fetches an asset itself (this worker in its way slowed the page's language
  // switch); a copy is stored beside it, once (a hashed asset never changes).
  if (navigator.onLine) {
    keep(caches.open(CACHE).then(async (cache) => (await cache.match(request)) ?? cache.add(request.url)));
    return null;
  }
  return asset(request);
}

/** The network's page when it answers (kept as the shell when it is one), else the kept shell. */
async function shell(request: Request, scope: URL, keep: (storing: Promise<unknown>) => void): Promise<Response> {
  const key = scope.href;
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.headers.get('content-type')?.startsWith('text/html')) {
      const copy = response.clone();
      keep(caches.open(CACHE).then((cache) => cache.put(key, copy)));
    }
    return response;
  } catch (error) {
    const kept = await (await caches.open(CACHE)).match(key);
    if (kept) return kept;
    throw error;
  }
}

/** Offline: the kept copy, else whatever the network says. */
async function asset(request: Request): Promise<Response> {
  return (await (await caches.open(CACHE)).match(request)) ?? fetch(request);
}

/**
 * A new worker starts a fresh cache (the old release's assets go with the old worker) holding the
 * shell and the assets it names: the page that registered the worker fetched them before the worker
 * controlled it, and the app must open offline after that first visit already.
 */
export async function keepAppShell(scope: URL): Promise<void> {
  await caches.delete(CACHE);
  const cache = await caches.open(CACHE);
  const response = await fetch(scope.href, { headers: { accept: 'text/html' } });
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html')) return;
  const html = await response.clone().text();
  await cache.put(scope.href, response);
  const assets = [...html.matchAll(/(?:src|href)="([^"]*\/assets\/[^"]+)"/g)].map((m) => new URL(m[1]!, scope).href);
  await cache.addAll(assets.filter((url) => url.startsWith(`${scope.href}assets/`)));
}
