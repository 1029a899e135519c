/**
 * The share link and the site's page paths, built and read in one place for every surface: the
 * server's routes and links, the CLI, the admin commands and the page.
 *
 * A folder's share link is `WEB_URL/f/<folderId>#<secret>`; its owner link adds `&owner=<owner
 * secret>` to the fragment. The fragment never reaches a server (browsers and fetch keep it), which
 * is why the key travels there. The site's other pages are `me` (the signed-in account's folders),
 * `account` (API keys) and `admin` (the operator's console), each relative to WEB_URL.
 */

/** A folder or file id: 16 base64url characters (./ids.ts makes them). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;

/** A folder's page, relative to WEB_URL: its share link is `WEB_URL + this`, plus the key in the fragment. */
export const FOLDER_PAGE_PREFIX = '/f/';
export function folderPagePath(folderId: string): string {
  return `${FOLDER_PAGE_PREFIX}${folderId}`;
}

/** A folder's page address (its share link without the fragment) on the site at `webUrl` (WEB_URL). */
export function folderPageUrl(webUrl: string, folderId: string): string {
  return `${webUrl}${folderPagePath(folderId)}`;
}

/** The site's pages other than a folder's, by name: the path relative to WEB_URL is `/` + the name. */
export const SITE_PAGES = { myFolders: 'me', account: 'account', admin: 'admin' } as const;
export type SitePageName = keyof typeof SITE_PAGES;
export function sitePagePath(page: SitePageName): string {
  return `/${SITE_PAGES[page]}`;
}

/** What a path under the site's base (without the base, no leading slash) shows. */
export type SitePage =
  | { readonly kind: 'home' }
  | { readonly kind: 'folder'; readonly folderId: string }
  | { readonly kind: SitePageName }
  | { readonly kind: 'unknown' };

const FOLDER_PATH = new RegExp(`^${FOLDER_PAGE_PREFIX.slice(1)}(${ID_PATTERN.source.slice(1, -1)})/?$`);

export function sitePageOf(rest: string): SitePage {
  if (rest === '' || rest === 'index.html') return { kind: 'home' };
  const folder = FOLDER_PATH.exec(rest);
  if (folder) return { kind: 'folder', folderId: folder[1]! };
  for (const [kind, name] of Object.entries(SITE_PAGES)) if (rest === name) return { kind: kind as SitePageName };
  return { kind: 'unknown' };
}

/**
 * The site a share link belongs to (WEB_URL): the link up to `/f/<folderId>`, without a trailing
 * slash. Throws TypeError when the text is not a URL.
 */
const FOLDER_PAGE_AT_END = new RegExp(`${FOLDER_PAGE_PREFIX}[^/]*/?$`);
export function siteOfLink(link: string): string {
  const url = new URL(link);
  return `${url.origin}${url.pathname.replace(FOLDER_PAGE_AT_END, '').replace(/\/+$/, '')}`;
}

/** The folder id in a share link or a folder page's address (`…/f/<id>`, then `/`, `?`, `#` or the end). */
const ID_IN_LINK = new RegExp(`${FOLDER_PAGE_PREFIX}(${ID_PATTERN.source.slice(1, -1)})(?:[/?#]|$)`);
export function folderIdInLink(text: string): string | null {
  return ID_IN_LINK.exec(text)?.[1] ?? null;
}

/** The part of a link after `#`: the folder secret, and on an owner link the owner secret. */
export interface Fragment {
  readonly secret: string | null;
  readonly ownerSecret: string | null;
}

/**
 * Reads a fragment (`#<secret>` or `#<secret>&owner=<owner secret>`, with or without the `#`). A
 * value whose %-escape is broken is kept as written rather than refused: a mangled key then fails
 * as a wrong key, with the message that says so, on every surface alike.
 */
export function parseFragment(hash: string): Fragment {
  const [rawSecret = '', ...params] = hash.replace(/^#/, '').split('&');
  const owner = params.find((p) => p.startsWith('owner='));
  return {
    secret: rawSecret ? decodeLinkPart(rawSecret) : null,
    ownerSecret: owner && owner.length > 'owner='.length ? decodeLinkPart(owner.slice('owner='.length)) : null,
  };
}

/** A part of a link, %-decoded; kept as written when an escape is broken (see parseFragment). */
export function decodeLinkPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The fragment (with its `#`) that carries a secret, and the owner secret on an owner link; '' for none. */
export function fragmentOf(secret: string | null, ownerSecret?: string | null): string {
  if (!secret) return '';
  return ownerSecret ? `#${secret}&owner=${ownerSecret}` : `#${secret}`;
}

/** The share link: a folder's address with the secret in its fragment (any fragment it had is replaced). */
export function shareLink(folderUrl: string, secret: string): string {
  return `${withoutFragment(folderUrl)}${fragmentOf(secret)}`;
}

/** The owner link: the share link whose fragment also carries the owner secret (opens the folder as its owner). */
export function ownerLink(folderUrl: string, secret: string, ownerSecret: string): string {
  return `${withoutFragment(folderUrl)}${fragmentOf(secret, ownerSecret)}`;
}

/** A link with its secret hidden, for messages. */
export function redactLink(link: string): string {
  return link.replace(/#.*$/, '#…');
}

function withoutFragment(url: string): string {
  return url.replace(/#.*$/, '');
}
