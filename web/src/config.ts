import type { SiteSettings } from './core.js';

/** The settings the server writes into the page (src/contract/site.ts), as the page's views read them. */
export type SiteConfig = SiteSettings;

let cached: SiteConfig | undefined;

/** The settings of this page (read once from its meta tag). */
export function siteConfig(): SiteConfig {
  cached ??= readSiteConfig();
  return cached;
}

/**
 * The server fills the meta tag on every page it serves (src/http/routes/site.ts): a page without it
 * was not served by webfolder, and guessing the operator's settings would show wrong limits.
 */
function readSiteConfig(): SiteConfig {
  const content = document.querySelector<HTMLMetaElement>('meta[name="webfolder-config"]')?.content;
  if (!content) throw new Error('this page was opened without its settings: open it from the webfolder server');
  return JSON.parse(content) as SiteConfig;
}
