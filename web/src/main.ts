import { siteConfig } from './config.js';
import { showError } from './views/error.js';
import { folderPage } from './views/folder.js';
import { homePage } from './views/home.js';

/**
 * The page's entry: the router. Each page is a view (web/src/views); the folder page's state and
 * protocols live in the DOM-free session (web/src/session.ts), its transfers in src/transfer.
 */
const config = siteConfig();
document.getElementById('home-link')?.setAttribute('href', config.base);

function route(): void {
  const rest = location.pathname.startsWith(config.base) ? location.pathname.slice(config.base.length) : '';
  const m = /^f\/([A-Za-z0-9_-]{16})\/?$/.exec(rest);
  if (m) void folderPage(config, m[1]!);
  else if (rest === '' || rest === 'index.html') homePage(config);
  else showError(config, 'Page not found', 'There is nothing at this address.');
}

route();
