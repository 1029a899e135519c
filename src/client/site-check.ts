import { createHash } from 'node:crypto';
import type { SiteSettings } from '../contract/site.js';
import { escapeHtml } from '../domain/html.js';
import { newId } from '../domain/ids.js';
import {
  integrityOf,
  type ManifestFile,
  type PageReference,
  pageReferences,
  renderShell,
  type SiteManifest,
  servedSettingsAttribute,
} from '../domain/site-manifest.js';
import { homeRequest } from '../transfer/outbound.js';
import type { HttpOptions } from '../transfer/retry.js';

/**
 * The comparison behind `webfolder verify-site` (src/client/verify-site.ts): what an instance serves
 * to a browser, fetched as a browser asks for it, against a trusted site manifest
 * (src/domain/site-manifest.ts). Every request goes through the outbound layer
 * (src/transfer/outbound.ts), to the site's own address: no redirect is followed.
 */
export interface Finding {
  readonly kind: 'mismatch' | 'missing' | 'extra' | 'policy';
  /** What it is about: `web /assets/index-….js`, `page /`, `docs /_assets/…`, `csp /`. */
  readonly what: string;
  readonly detail: string;
}

export interface SiteCheck {
  readonly findings: Finding[];
  /** Files and pages compared. */
  readonly checked: number;
}

/** The headers a current browser sends with each kind of request (Chromium's, without cookies). */
const COMMON: Record<string, string> = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 webfolder-verify-site',
  'accept-language': 'en-US,en;q=0.9',
  // What every current browser decodes; not zstd, which Node's fetch cannot undo on every Node line.
  'accept-encoding': 'gzip, deflate, br',
};
const BY_KIND: Record<string, Record<string, string>> = {
  document: {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': 'none',
    'upgrade-insecure-requests': '1',
  },
  script: { accept: '*/*', 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin' },
  worker: {
    accept: '*/*',
    'sec-fetch-dest': 'worker',
    'sec-fetch-mode': 'same-origin',
    'sec-fetch-site': 'same-origin',
  },
  'service-worker': {
    accept: '*/*',
    'service-worker': 'script',
    'sec-fetch-dest': 'serviceworker',
    'sec-fetch-mode': 'same-origin',
    'sec-fetch-site': 'same-origin',
  },
  style: {
    accept: 'text/css,*/*;q=0.1',
    'sec-fetch-dest': 'style',
    'sec-fetch-mode': 'cors',
    'sec-fetch-site': 'same-origin',
  },
  manifest: {
    accept: 'application/json',
    'sec-fetch-dest': 'empty',
    'sec-fetch-mode': 'cors',
    'sec-fetch-site': 'same-origin',
  },
  other: { accept: '*/*', 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'same-origin' },
};

export function browserHeaders(kind: string): Record<string, string> {
  return { ...COMMON, ...(BY_KIND[kind] ?? BY_KIND.other) };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** One GET as a browser sends it; status, headers and the decoded body, or the reason it failed. */
async function get(
  url: string,
  kind: string,
  http: HttpOptions,
): Promise<{ status: number; headers: Headers; body: Uint8Array } | { error: string }> {
  try {
    const response = await homeRequest(
      'verify-site',
      url,
      { headers: browserHeaders(kind) },
      { ...http, answered: [404, 410] },
    );
    return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

/** The settings a served page carries (src/contract/site.ts), as far as the verifier reads them. */
type PageSettings = Pick<SiteSettings, 'base' | 'siteName' | 'docsUrl' | 'release'>;

/** The settings of a page as served, with its raw attribute; null when it has none that parse. */
export function settingsOf(html: string): { raw: string; settings: PageSettings } | null {
  const raw = servedSettingsAttribute(html);
  if (raw === null) return null;
  try {
    const settings = JSON.parse(unescapeHtml(raw)) as Partial<PageSettings>;
    if (typeof settings.base !== 'string' || typeof settings.siteName !== 'string') return null;
    return {
      raw,
      settings: {
        base: settings.base,
        siteName: settings.siteName,
        docsUrl: typeof settings.docsUrl === 'string' ? settings.docsUrl : '',
        release: settings.release ?? null,
      },
    };
  } catch {
    return null;
  }
}

/** Whether `html` is the release's shell rendered with the settings it carries. */
export function isReleaseShell(html: string, manifest: SiteManifest): boolean {
  const found = settingsOf(html);
  if (!found) return false;
  const expected = renderShell(manifest.shell.template, {
    base: found.settings.base,
    settingsAttribute: found.raw,
    nameHtml: escapeHtml(found.settings.siteName),
  });
  return expected === html;
}

/** Where a manifest file is served, given the site's and the docs' addresses (no trailing slash). */
export function fileUrl(file: ManifestFile, site: string, docs: string): string {
  return `${file.site === 'web' ? site : docs}${file.path}`;
}

/** The manifest file a resolved URL is, or null. */
function entryAt(url: string, manifest: SiteManifest, site: string, docs: string): ManifestFile | null {
  const bare = url.split('#')[0]!.split('?')[0]!;
  return manifest.files.find((f) => fileUrl(f, site, docs) === bare) ?? null;
}

/**
 * The checks of one page's markup: each script, module preload and stylesheet it names must be a
 * file of the release and carry that file's integrity, and it has no inline script or style. The
 * bytes of the files are checked apart (checkFiles), once.
 */
export function checkReferences(
  what: string,
  html: string,
  pageUrl: string,
  manifest: SiteManifest,
  site: string,
  docs: string,
  local?: (ref: PageReference) => Uint8Array | null,
): Finding[] {
  const findings: Finding[] = [];
  for (const ref of pageReferences(html)) {
    if (ref.kind === 'inline-script' || ref.kind === 'inline-style') {
      findings.push({ kind: 'extra', what, detail: `an ${ref.kind.replace('-', ' ')} the release does not have` });
      continue;
    }
    // A saved copy of the page ("Web page, complete") refers to its own copies of the files.
    const copy = local?.(ref) ?? null;
    if (copy) {
      const hash = sha256(copy);
      if (!manifest.files.some((f) => f.sha256 === hash))
        findings.push({
          kind: 'extra',
          what,
          detail: `${ref.kind} ${ref.url}: its saved copy is no file of the release`,
        });
      continue;
    }
    let resolved: string;
    try {
      resolved = new URL(ref.url, pageUrl).href;
    } catch {
      findings.push({ kind: 'extra', what, detail: `${ref.kind} with an unreadable address ${ref.url}` });
      continue;
    }
    const entry = entryAt(resolved, manifest, site, docs);
    if (!entry) {
      findings.push({ kind: 'extra', what, detail: `${ref.kind} ${resolved} is not in the release` });
      continue;
    }
    if (ref.integrity !== integrityOf(entry.sha256))
      findings.push({
        kind: 'mismatch',
        what,
        detail: `${ref.kind} ${entry.path} has integrity ${ref.integrity ?? 'none'}, the release's is ${integrityOf(entry.sha256)}`,
      });
  }
  return findings;
}

/**
 * What the release's CSP says of what may run or style a page: each directive's one value. The
 * site's page: only its own files. The docs: the guides run nothing, the API reference its own scripts.
 */
type CspRules = Readonly<Record<string, readonly string[]>>;
const PAGE_CSP: CspRules = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'worker-src': ["'self'"],
};
const DOCS_CSP: CspRules = { 'default-src': ["'none'"], 'script-src': ["'self'", "'none'"] };
export function checkCsp(what: string, header: string | null, rules: CspRules = PAGE_CSP): Finding[] {
  if (!header) return [{ kind: 'policy', what, detail: 'no Content-Security-Policy: the release sends one' }];
  const directives = new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
  const findings: Finding[] = [];
  for (const [name, allowed] of Object.entries(rules)) {
    const values = directives.get(name);
    if (values?.length !== 1 || !allowed.includes(values[0]!))
      findings.push({
        kind: 'policy',
        what,
        detail: `CSP ${name} is "${values?.join(' ') ?? '(none)'}", the release's is ${allowed.join(' or ')}`,
      });
  }
  // Finer directives override those for elements and attributes: the release sends none.
  for (const name of ['script-src-elem', 'script-src-attr', 'style-src-elem', 'style-src-attr'])
    if (directives.has(name))
      findings.push({ kind: 'policy', what, detail: `CSP has ${name}, which the release does not send` });
  return findings;
}

/** The shell's paths, a folder page's with an id that names no folder (its 404 is the same page). */
function shellPaths(manifest: SiteManifest): string[] {
  return manifest.shell.paths.map((p) => p.replace('{folderId}', newId()));
}

/**
 * The whole check of the instance at `site` (WEB_URL, no trailing slash) against `manifest`: its
 * pages (byte for byte, their references, their CSP), what the docs' pages run, and every file of
 * the manifest. Returns the
 * docs' address the pages name, for the report.
 */
export async function checkSite(
  site: string,
  manifest: SiteManifest,
  http: HttpOptions,
): Promise<SiteCheck & { docs: string }> {
  const findings: Finding[] = [];
  let checked = 0;
  let docs = '';
  for (const path of shellPaths(manifest)) {
    const url = `${site}${path}`;
    const what = `page ${path.startsWith('/f/') ? '/f/{folderId}' : path}`;
    const got = await get(url, 'document', http);
    checked++;
    if ('error' in got) {
      findings.push({ kind: 'missing', what, detail: got.error });
      continue;
    }
    const html = new TextDecoder().decode(got.body);
    const expectedStatus = path.startsWith('/f/') ? 404 : 200;
    if (got.status !== expectedStatus || !/^text\/html\b/.test(got.headers.get('content-type') ?? '')) {
      findings.push({
        kind: 'missing',
        what,
        detail: `answered ${got.status} ${got.headers.get('content-type') ?? ''}, not the page (${expectedStatus} text/html)`,
      });
      continue;
    }
    const found = settingsOf(html);
    if (found && !docs) docs = found.settings.docsUrl.replace(/\/+$/, '');
    if (!isReleaseShell(html, manifest))
      findings.push({
        kind: 'mismatch',
        what,
        detail: `the page is not the release's shell (${firstDifference(html, manifest)})`,
      });
    findings.push(...checkReferences(what, html, url, manifest, site, docs));
    findings.push(...checkCsp(`csp ${what.slice(5)}`, got.headers.get('content-security-policy')));
  }
  if (docs) checked += await checkDocsPages(docs, manifest, site, http, findings);
  findings.push(...(await checkFiles(manifest, site, docs, http)));
  checked += manifest.files.length;
  return { findings, checked, docs };
}

/**
 * The docs' pages are documents rendered per DOCS_URL path, not shells: their bytes are not the
 * release's, but what they run is. The index (a guide, which runs nothing) and the API reference
 * (Redoc) must name only the release's docs files, have no inline code and keep their CSP.
 */
const DOCS_PAGES = ['/', '/api'];
async function checkDocsPages(
  docs: string,
  manifest: SiteManifest,
  site: string,
  http: HttpOptions,
  findings: Finding[],
): Promise<number> {
  for (const path of DOCS_PAGES) {
    const what = `docs page ${path}`;
    const got = await get(`${docs}${path}`, 'document', http);
    if ('error' in got || got.status !== 200) {
      findings.push({ kind: 'missing', what, detail: 'error' in got ? got.error : `answered ${got.status}` });
      continue;
    }
    const html = new TextDecoder().decode(got.body);
    findings.push(...checkReferences(what, html, `${docs}${path}`, manifest, site, docs));
    findings.push(...checkCsp(`csp docs ${path}`, got.headers.get('content-security-policy'), DOCS_CSP));
  }
  return DOCS_PAGES.length;
}

/** Every file of the manifest, fetched where it is served, compared by hash. */
async function checkFiles(manifest: SiteManifest, site: string, docs: string, http: HttpOptions): Promise<Finding[]> {
  const findings: Finding[] = [];
  // A few at a time: a browser's own parallelism, not a load on the instance.
  const queue = [...manifest.files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const what = `${file.site} ${file.path}`;
      if (file.site === 'docs' && !docs) {
        findings.push({ kind: 'missing', what, detail: 'the pages name no docs address' });
        continue;
      }
      const got = await get(fileUrl(file, site, docs), file.kind, http);
      if ('error' in got) findings.push({ kind: 'missing', what, detail: got.error });
      else if (got.status !== 200) findings.push({ kind: 'missing', what, detail: `answered ${got.status}` });
      else {
        const hash = sha256(got.body);
        if (hash !== file.sha256) {
          const encoding = got.headers.get('content-encoding');
          findings.push({
            kind: 'mismatch',
            what,
            detail: `sha256 ${hash}, the release's is ${file.sha256}${encoding ? ` (served with Content-Encoding: ${encoding})` : ''}`,
          });
        }
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return findings.sort((a, b) => (a.what < b.what ? -1 : a.what > b.what ? 1 : 0));
}

/** Where a served page first differs from the release's shell: the line, shortened. */
function firstDifference(html: string, manifest: SiteManifest): string {
  const found = settingsOf(html);
  if (!found) return 'it has no settings tag of the release';
  const expected = renderShell(manifest.shell.template, {
    base: found.settings.base,
    settingsAttribute: found.raw,
    nameHtml: escapeHtml(found.settings.siteName),
  }).split('\n');
  const lines = html.split('\n');
  for (let i = 0; i < Math.max(lines.length, expected.length); i++)
    if (lines[i] !== expected[i])
      return `line ${i + 1}: ${JSON.stringify((lines[i] ?? '(none)').trim().slice(0, 120))}`;
  return 'it differs';
}
