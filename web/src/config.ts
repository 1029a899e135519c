/** Settings the server writes into the page (a meta tag: the CSP allows no inline script). */
export interface SiteConfig {
  /** Path of the site, with a trailing slash ("/" at the root). */
  readonly base: string;
  /** Path of the site's JSON endpoints. */
  readonly api: string;
  readonly baseUrl: string;
  readonly docsUrl: string;
  /** How long files stay available: the operator's maximum and default (hours). */
  readonly maxExpiresInHours: number;
  readonly defaultExpiresInHours: number;
}

/** The server's defaults (FREE_DOWNLOAD_HOURS, MAX_EXPIRES_HOURS), for a page served without settings. */
const EXPIRY = { maxExpiresInHours: 720, defaultExpiresInHours: 72 };

export function siteConfig(): SiteConfig {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="webfolder-config"]');
  try {
    const parsed = JSON.parse(meta?.content || '') as Partial<SiteConfig>;
    if (typeof parsed.base === 'string' && typeof parsed.api === 'string')
      return { ...EXPIRY, ...parsed } as SiteConfig;
  } catch {
    /* fall through */
  }
  return { base: '/', api: '/api/site', baseUrl: location.origin, docsUrl: `${location.origin}/docs`, ...EXPIRY };
}
