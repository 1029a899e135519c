import { SITE_API_PATH } from './core.js';

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
  /** The instance's name (SITE_NAME), in the header and the window's title. */
  readonly siteName: string;
  /** The operator's legal pages (IMPRINT_URL, PRIVACY_URL), linked from the footer when set. */
  readonly imprintUrl: string | null;
  readonly privacyUrl: string | null;
  /** Whether the server sends e-mail (SMTP_URL is set): without it the page offers no address field. */
  readonly mail: boolean;
}

/** The server's defaults (FREE_DOWNLOAD_HOURS, MAX_EXPIRES_HOURS, SITE_NAME…), for a page served without settings. */
const DEFAULTS = {
  maxExpiresInHours: 720,
  defaultExpiresInHours: 72,
  siteName: 'webfolder',
  imprintUrl: null,
  privacyUrl: null,
  mail: false,
};

let cached: SiteConfig | undefined;

/** The settings of this page (read once from its meta tag). */
export function siteConfig(): SiteConfig {
  cached ??= readSiteConfig();
  return cached;
}

function readSiteConfig(): SiteConfig {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="webfolder-config"]');
  try {
    const parsed = JSON.parse(meta?.content || '') as Partial<SiteConfig>;
    if (typeof parsed.base === 'string' && typeof parsed.api === 'string')
      return { ...DEFAULTS, ...parsed } as SiteConfig;
  } catch {
    /* fall through */
  }
  return { base: '/', api: SITE_API_PATH, baseUrl: location.origin, docsUrl: `${location.origin}/docs`, ...DEFAULTS };
}
