import { startServiceWorker } from '../adapters/download.js';
import type { SiteConfig } from '../config.js';
import { t } from '../i18n/index.js';
import { h } from './ui.js';

/**
 * "You are offline" under the header whenever the browser says it has no connection: the page (kept
 * by the service worker, web/src/workers/app-shell.ts) still opens, but sending and opening folders
 * need the server. Drawn again on a change of language; gone when the connection is back.
 */
function offlineNotice(): void {
  document.getElementById('offline')?.remove();
  if (navigator.onLine) return;
  const notice = h('p', { class: 'notice warning offline', id: 'offline', role: 'status' }, t('site.offline'));
  document.querySelector('header.top')?.after(notice);
}

let watching = false;
/**
 * Shows and hides the notice as the connection comes and goes, and registers the service worker on
 * every page (not only where a download needs it): it keeps the app shell for an installed app.
 */
export function watchConnection(config: SiteConfig): void {
  offlineNotice();
  if (watching) return;
  watching = true;
  void startServiceWorker(config);
  window.addEventListener('online', offlineNotice);
  window.addEventListener('offline', offlineNotice);
}
