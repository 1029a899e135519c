/** Settings the server writes into the page (a meta tag: the CSP allows no inline script). */
export interface SiteConfig {
  /** Path of the site, with a trailing slash ("/" at the root). */
  readonly base: string;
  /** Path of the site's JSON endpoints. */
  readonly api: string;
  readonly baseUrl: string;
  readonly docsUrl: string;
}

export function siteConfig(): SiteConfig {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="webfolder-config"]');
  try {
    const parsed = JSON.parse(meta?.content || '') as SiteConfig;
    if (typeof parsed.base === 'string' && typeof parsed.api === 'string') return parsed;
  } catch {
    /* fall through */
  }
  return { base: '/', api: '/api/site', baseUrl: location.origin, docsUrl: `${location.origin}/docs` };
}
