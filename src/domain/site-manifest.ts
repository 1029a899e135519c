/**
 * The site manifest: what a release's browser code is, byte for byte. The build writes it
 * (src/release/build-manifest.ts) into dist/site-manifest.json, every instance serves it at
 * SITE_MANIFEST_PATH under the site's path (src/http/routes/site-manifest.ts), and `webfolder
 * verify-site` compares what an instance serves with a trusted copy (src/client/verify-site.ts).
 * Pure: the format, its checks, the rendering of the page shell, hash notation. Hashing and
 * signatures are node:crypto's, in the modules that do I/O.
 *
 * Files are named by the site they are served from (`web`: WEB_URL's path; `docs`: DOCS_URL's) and
 * their path below it. The HTML shell is a template the server fills in per instance (the base
 * path, the settings tag, the instance's name: renderShell), so the manifest carries the template's
 * text as well as its hash: a verifier renders it with the settings an instance served and compares
 * the result with the page byte for byte.
 */
export const SITE_MANIFEST_FORMAT = 'webfolder-site-manifest/1';
/** Where an instance serves its manifest, below the site's path (and its signature, `.sig` added). */
export const SITE_MANIFEST_PATH = '/.well-known/webfolder/site-manifest.json';
export const SITE_SIGNATURE_SUFFIX = '.sig';
/** The placeholder base the page is built with (web/vite.config.ts), replaced by the real path when served. */
export const BUILD_BASE = '/__webfolder_base__/';

export type ManifestSite = 'web' | 'docs';
export type ManifestKind = 'shell' | 'script' | 'worker' | 'service-worker' | 'style' | 'manifest' | 'other';

export interface ManifestFile {
  readonly site: ManifestSite;
  /** Below the site's path, with a leading slash: `/assets/index-Dw0LAqr_.js`. */
  readonly path: string;
  readonly kind: ManifestKind;
  /** SHA-256 of the bytes a browser receives (after any Content-Encoding is undone), lower-case hex. */
  readonly sha256: string;
}

export interface ManifestShell {
  /** The built template (dist/web/index.html); its SHA-256 is `sha256`. */
  readonly template: string;
  readonly sha256: string;
  /** Paths below the site's path that answer with this shell (a folder page's id stands for any). */
  readonly paths: readonly string[];
}

export interface SiteManifest {
  readonly format: typeof SITE_MANIFEST_FORMAT;
  readonly version: string;
  /** The commit the release was built from, or "unknown" (a build outside a checkout, without WEBFOLDER_COMMIT). */
  readonly commit: string;
  readonly shell: ManifestShell;
  /** Sorted by site, then path. */
  readonly files: readonly ManifestFile[];
}

/**
 * A detached signature of a manifest file's exact bytes (Ed25519), served beside it with
 * SITE_SIGNATURE_SUFFIX. It names its key; a verifier trusts it only when that key is one it pins.
 */
export interface ManifestSignature {
  readonly algorithm: 'ed25519';
  /** The raw 32-byte public key, base64url (as a JWK's `x`). */
  readonly publicKey: string;
  /** The 64-byte signature, base64url. */
  readonly signature: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const KINDS: readonly ManifestKind[] = ['shell', 'script', 'worker', 'service-worker', 'style', 'manifest', 'other'];

/** The manifest as its file holds it: sorted keys' order fixed by construction, one trailing newline. */
export function serializeManifest(manifest: SiteManifest): string {
  const files = [...manifest.files]
    .sort((a, b) => (a.site === b.site ? compare(a.path, b.path) : compare(a.site, b.site)))
    .map((f) => ({ site: f.site, path: f.path, kind: f.kind, sha256: f.sha256 }));
  const { template, sha256, paths } = manifest.shell;
  const ordered = {
    format: manifest.format,
    version: manifest.version,
    commit: manifest.commit,
    shell: { sha256, paths: [...paths], template },
    files,
  };
  return `${JSON.stringify(ordered, null, 1)}\n`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads a manifest file's text; throws TypeError naming what is wrong. */
export function parseManifest(text: string): SiteManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TypeError('the manifest is not JSON');
  }
  const m = value as Partial<SiteManifest> | null;
  if (!m || typeof m !== 'object' || m.format !== SITE_MANIFEST_FORMAT)
    throw new TypeError(`the manifest's format is not ${SITE_MANIFEST_FORMAT}`);
  if (typeof m.version !== 'string' || typeof m.commit !== 'string')
    throw new TypeError('the manifest has no version or commit');
  const shell = m.shell as Partial<ManifestShell> | undefined;
  if (
    !shell ||
    typeof shell.template !== 'string' ||
    typeof shell.sha256 !== 'string' ||
    !HEX64.test(shell.sha256) ||
    !Array.isArray(shell.paths) ||
    !shell.paths.every((p) => typeof p === 'string' && p.startsWith('/'))
  )
    throw new TypeError('the manifest has no valid shell');
  if (!Array.isArray(m.files)) throw new TypeError('the manifest has no files');
  for (const f of m.files as Partial<ManifestFile>[]) {
    if (
      !f ||
      (f.site !== 'web' && f.site !== 'docs') ||
      typeof f.path !== 'string' ||
      !f.path.startsWith('/') ||
      !KINDS.includes(f.kind as ManifestKind) ||
      typeof f.sha256 !== 'string' ||
      !HEX64.test(f.sha256)
    )
      throw new TypeError(`the manifest has an invalid file entry: ${JSON.stringify(f).slice(0, 120)}`);
  }
  return m as SiteManifest;
}

export function parseSignature(text: string): ManifestSignature {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TypeError('the signature is not JSON');
  }
  const s = value as Partial<ManifestSignature> | null;
  if (
    s?.algorithm !== 'ed25519' ||
    typeof s.publicKey !== 'string' ||
    !/^[A-Za-z0-9_-]{43}$/.test(s.publicKey) ||
    typeof s.signature !== 'string' ||
    !/^[A-Za-z0-9_-]{86}$/.test(s.signature)
  )
    throw new TypeError('the signature is not an Ed25519 manifest signature');
  return s as ManifestSignature;
}

/** An SRI value (`sha256-<base64>`) for a lower-case hex SHA-256. */
export function integrityOf(sha256Hex: string): string {
  let binary = '';
  for (let i = 0; i < sha256Hex.length; i += 2)
    binary += String.fromCharCode(Number.parseInt(sha256Hex.slice(i, i + 2), 16));
  return `sha256-${btoa(binary)}`;
}

/** What the server fills into the shell for one instance. */
export interface ShellValues {
  /** The site's path with a trailing slash ("/" at the root). */
  readonly base: string;
  /** The settings tag's content, HTML-escaped already (the escaped JSON of web/src/config.ts's SiteConfig). */
  readonly settingsAttribute: string;
  /** The instance's name, HTML-escaped already. */
  readonly nameHtml: string;
}

const SETTINGS_TAG = '<meta name="webfolder-config" content="">';

/** The page as an instance serves it: the one rendering the server and the verifier share. */
export function renderShell(template: string, values: ShellValues): string {
  // Replacer functions: a "$&" in the name or an address must stay text, not a replacement pattern.
  return template
    .split(BUILD_BASE)
    .join(values.base)
    .replace('<title>webfolder</title>', () => `<title>${values.nameHtml}</title>`)
    .replace('>webfolder</a>', () => `>${values.nameHtml}</a>`)
    .replace(SETTINGS_TAG, () => `<meta name="webfolder-config" content="${values.settingsAttribute}">`);
}

/** The settings tag's raw content in a served page, or null (none, or more than one). */
export function servedSettingsAttribute(html: string): string | null {
  const found = [...html.matchAll(/<meta name="webfolder-config" content="([^"<>]*)">/g)];
  return found.length === 1 ? found[0]![1]! : null;
}

/** A reference of a page to something it runs or styles with, as its markup says. */
export interface PageReference {
  readonly kind: 'script' | 'style' | 'modulepreload' | 'inline-script' | 'inline-style';
  /** As written (unresolved); empty for inline code. */
  readonly url: string;
  readonly integrity: string | null;
}

function attribute(tag: string, name: string): string | null {
  const m = tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'));
  if (!m) return null;
  return (m[1] ?? m[2] ?? m[3] ?? '').replace(/&amp;/g, '&');
}

/**
 * Every script, stylesheet and module preload a page's markup names, and every inline script or
 * style element. A tolerant scan of the markup (not a DOM): what matters is finding what a browser
 * would run, so comments are skipped and a tag's case does not matter.
 */
export function pageReferences(html: string): PageReference[] {
  const text = html.replace(/<!--[\s\S]*?-->/g, '');
  const out: PageReference[] = [];
  for (const m of text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const tag = `<script${m[1]}>`;
    const src = attribute(tag, 'src');
    const type = (attribute(tag, 'type') ?? '').toLowerCase();
    // Data blocks (JSON, templates) do not run.
    const runs = type === '' || type === 'module' || /javascript|ecmascript/.test(type) || type === 'importmap';
    if (src !== null) out.push({ kind: 'script', url: src, integrity: attribute(tag, 'integrity') });
    else if (runs && m[2]!.trim() !== '') out.push({ kind: 'inline-script', url: '', integrity: null });
  }
  for (const m of text.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(m[0], 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attribute(m[0], 'href');
    if (href === null) continue;
    const integrity = attribute(m[0], 'integrity');
    if (rel.includes('stylesheet')) out.push({ kind: 'style', url: href, integrity });
    else if (rel.includes('modulepreload') || (rel.includes('preload') && attribute(m[0], 'as') === 'script'))
      out.push({ kind: 'modulepreload', url: href, integrity });
  }
  for (const m of text.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi))
    if (m[1]!.trim() !== '') out.push({ kind: 'inline-style', url: '', integrity: null });
  // Event handler attributes run script as well.
  if (/<[a-z][^>]*\son[a-z]+\s*=/i.test(text)) out.push({ kind: 'inline-script', url: '', integrity: null });
  return out;
}
