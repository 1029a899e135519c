import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../domain/html.js';

/**
 * The documentation site's renderer: every `docs/*.md` becomes one HTML page, rendered at build time
 * (src/docs/build.ts) with `marked` (GitHub-flavoured Markdown). Relative links between docs (`[x](encryption.md#y)`)
 * become page URLs (`<prefix>/encryption#y`), headings get GitHub-style ids, and every page shares
 * one navigation. The pages reference only assets the process serves itself (no inline script or
 * style), so they run under a Content-Security-Policy without 'unsafe-inline'.
 */

/** Preferred order of the navigation; any other page follows, alphabetically by title. */
export const NAV_ORDER = [
  'index',
  'quick-start',
  'empty-folder-flow',
  'direct-upload',
  'encryption',
  'agents',
  'cli',
  'site',
  'configuration',
  'errors',
  'scale-out',
  'deployment',
  'benchmarks',
] as const;

/** Slugs the site uses for itself; a doc with one of these names is skipped. */
export const RESERVED_SLUGS = new Set(['api', 'openapi', '_assets']);
export const API_SLUG = 'api';
/** Files next to the docs that pages may embed or link (images, diagrams, sample data). */
const FILE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export interface SourceDoc {
  /** File name without `.md`: the last segment of the page URL. */
  readonly slug: string;
  readonly markdown: string;
}

export interface DocFile {
  /** Path relative to the docs folder, `/`-separated. */
  readonly path: string;
  readonly type: string;
  readonly body: Buffer;
}

export interface DocsSource {
  readonly docs: SourceDoc[];
  readonly files: DocFile[];
}

/** Reads every `*.md` directly in `dir` (and embeddable files below it). A missing folder is empty. */
export async function loadDocs(dir: string): Promise<DocsSource> {
  const docs: SourceDoc[] = [];
  const files: DocFile[] = [];
  let entries: string[];
  try {
    entries = (await readdir(dir, { recursive: true })).map((e) => e.split('\\').join('/'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { docs, files };
    throw error;
  }
  for (const entry of entries.sort()) {
    const ext = posix.extname(entry).toLowerCase();
    if (entry.split('/').some((part) => part.startsWith('.'))) continue;
    if (ext === '.md' && !entry.includes('/')) {
      const slug = entry.slice(0, -3);
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(slug) || RESERVED_SLUGS.has(slug)) continue;
      docs.push({ slug, markdown: await readFile(join(dir, entry), 'utf8') });
    } else if (FILE_TYPES[ext] && /^[A-Za-z0-9._/-]+$/.test(entry)) {
      files.push({ path: entry, type: FILE_TYPES[ext]!, body: await readFile(join(dir, entry)) });
    }
  }
  return { docs, files };
}

export interface SiteOptions {
  /** Path prefix of the docs site without a trailing slash: `/docs`, or `` at a host's root. */
  readonly prefix: string;
  /** The header's "Open the site" link (a redirect to WEB_URL, so that pages name no configured host). */
  readonly siteLink: string;
  /** Address of the OpenAPI document that the API reference page renders (same origin as the page). */
  readonly openApiUrl: string;
  /** The service's public OpenAPI address (`<BASE_URL>/openapi.json`), shown on the reference page. */
  readonly publicOpenApiUrl: string;
  /** Asset URLs, version-stamped by the route plugin. */
  readonly assets: { readonly css: string; readonly redoc: string; readonly apiInit: string; readonly icon: string };
  /** Subresource Integrity of the stylesheet and the scripts (`sha256-…`), when the build knows their bytes. */
  readonly integrity?: { readonly css: string; readonly redoc: string; readonly apiInit: string };
}

/** The ` integrity="…"` attribute of an asset, or nothing. */
function integrity(options: SiteOptions, key: 'css' | 'redoc' | 'apiInit'): string {
  const value = options.integrity?.[key];
  return value ? ` integrity="${escapeHtml(value)}"` : '';
}

export interface Heading {
  readonly depth: number;
  readonly id: string;
  readonly text: string;
}

export interface RenderedPage {
  readonly slug: string;
  readonly title: string;
  /** Path of the page on the site (`/docs/`, `/docs/quick-start`). */
  readonly url: string;
  readonly headings: Heading[];
  /** The whole HTML document. */
  readonly html: string;
  readonly markdown: string;
}

export interface RenderedSite {
  /** By slug; the index is `index`. */
  readonly pages: Map<string, RenderedPage>;
  readonly apiReference: string;
  readonly notFound: string;
  readonly files: Map<string, DocFile>;
}

interface NavEntry {
  readonly slug: string;
  readonly title: string;
  readonly url: string;
}

export function pageUrl(prefix: string, slug: string): string {
  return slug === 'index' ? `${prefix}/` : `${prefix}/${slug}`;
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function slugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base =
      text
        .toLowerCase()
        .trim()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-') || 'section';
    const count = seen.get(base);
    seen.set(base, (count ?? 0) + 1);
    return count === undefined ? base : `${base}-${count}`;
  };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
function htmlToText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
}

/**
 * Maps a link target written in a doc to its place on the site. Relative `x.md` (with an optional
 * `#fragment`) becomes the page URL, other relative files become `<prefix>/<file>`, and absolute
 * URLs, absolute paths and in-page fragments are kept. A relative link that leaves the docs folder
 * (`../README.md`) has no page on the site: null, and the renderer keeps only its text.
 */
export function mapHref(href: string, prefix: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('#') || href === '') return href;
  const hashAt = href.indexOf('#');
  const path = hashAt === -1 ? href : href.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : href.slice(hashAt);
  const normal = posix.normalize(path);
  if (normal.startsWith('..')) return null;
  const clean = normal.replace(/^\.\//, '');
  if (clean === '.' || clean === '') return `${prefix}/${hash}`;
  const md = /^([^/]+)\.md$/i.exec(clean);
  if (md) return `${pageUrl(prefix, md[1]!)}${hash}`;
  return `${prefix}/${clean}${hash}`;
}

interface BodyResult {
  readonly title: string | null;
  readonly headings: Heading[];
  readonly html: string;
}

/** Renders one doc's Markdown to the HTML of its article. */
export function renderMarkdown(markdown: string, prefix: string): BodyResult {
  const slug = slugger();
  const headings: Heading[] = [];
  let title: string | null = null;
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const text = htmlToText(inner).trim();
        const id = slug(text);
        headings.push({ depth, id, text });
        if (depth === 1 && title === null) {
          title = text;
          return `<h1 id="${id}">${inner}</h1>\n`;
        }
        return `<h${depth} id="${id}">${inner}<a class="anchor" href="#${id}" aria-label="Link to this section: ${escapeHtml(text)}">#</a></h${depth}>\n`;
      },
      link({ href, title: linkTitle, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        const target = mapHref(href, prefix);
        if (target === null) return `<span class="repo-link">${inner}</span>`;
        const external = /^https?:\/\//i.test(target);
        return `<a href="${escapeHtml(target)}"${linkTitle ? ` title="${escapeHtml(linkTitle)}"` : ''}${external ? ' rel="noopener"' : ''}>${inner}</a>`;
      },
      image({ href, title: imageTitle, text }: Tokens.Image) {
        const target = mapHref(href, prefix);
        if (target === null) return escapeHtml(text);
        return `<img src="${escapeHtml(target)}" alt="${escapeHtml(text)}"${imageTitle ? ` title="${escapeHtml(imageTitle)}"` : ''} loading="lazy">`;
      },
    },
  });
  const raw = marked.parse(markdown, { async: false });
  // Wide tables scroll on their own on a phone, and the scrolling region is keyboard-reachable.
  const html = raw
    .replace(/<table>/g, '<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>')
    .replace(/<\/table>/g, '</table></div>');
  return { title, headings, html };
}

function navOrder(a: NavEntry, b: NavEntry): number {
  const ia = (NAV_ORDER as readonly string[]).indexOf(a.slug);
  const ib = (NAV_ORDER as readonly string[]).indexOf(b.slug);
  if (ia !== -1 || ib !== -1) return (ia === -1 ? Infinity : ia) - (ib === -1 ? Infinity : ib);
  return a.title.localeCompare(b.title);
}

function titleFromSlug(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function renderSite(source: DocsSource, options: SiteOptions): RenderedSite {
  const { prefix } = options;
  const bodies = source.docs.map((doc) => ({ doc, body: renderMarkdown(doc.markdown, prefix) }));
  const nav: NavEntry[] = bodies
    .map(({ doc, body }) => ({
      slug: doc.slug,
      title: doc.slug === 'index' ? 'Overview' : (body.title ?? titleFromSlug(doc.slug)),
      url: pageUrl(prefix, doc.slug),
    }))
    .sort(navOrder);
  if (!nav.some((n) => n.slug === 'index'))
    nav.unshift({ slug: 'index', title: 'Overview', url: pageUrl(prefix, 'index') });
  const apiEntry: NavEntry = { slug: API_SLUG, title: 'API reference', url: pageUrl(prefix, API_SLUG) };

  const pages = new Map<string, RenderedPage>();
  for (const { doc, body } of bodies) {
    const title = body.title ?? titleFromSlug(doc.slug);
    const url = pageUrl(prefix, doc.slug);
    pages.set(doc.slug, {
      slug: doc.slug,
      title,
      url,
      headings: body.headings,
      markdown: doc.markdown,
      html: layout(options, {
        title,
        current: doc.slug,
        nav,
        apiEntry,
        headings: body.headings,
        article: body.html,
        markdownUrl: `${prefix}/${doc.slug}.md`,
      }),
    });
  }
  if (!pages.has('index')) {
    // No docs/index.md: a generated overview listing what there is, so the site never starts empty.
    const list = nav
      .filter((n) => n.slug !== 'index')
      .map((n) => `<li><a href="${escapeHtml(n.url)}">${escapeHtml(n.title)}</a></li>`)
      .join('\n');
    const article = `<h1 id="webfolder-documentation">webfolder documentation</h1>\n<ul>\n${list}\n<li><a href="${escapeHtml(apiEntry.url)}">API reference</a></li>\n</ul>\n`;
    pages.set('index', {
      slug: 'index',
      title: 'webfolder documentation',
      url: pageUrl(prefix, 'index'),
      headings: [],
      markdown: '',
      html: layout(options, {
        title: 'webfolder documentation',
        current: 'index',
        nav,
        apiEntry,
        headings: [],
        article,
      }),
    });
  }
  const notFound = layout(options, {
    title: 'Page not found',
    current: null,
    nav,
    apiEntry,
    headings: [],
    article: `<h1 id="page-not-found">Page not found</h1>\n<p>There is no documentation page at this address. Pick a page from the navigation, or start at the <a href="${escapeHtml(pageUrl(prefix, 'index'))}">overview</a>.</p>\n`,
  });
  return {
    pages,
    apiReference: apiReferencePage(options, nav, apiEntry),
    notFound,
    files: new Map(source.files.map((f) => [f.path, f])),
  };
}

interface LayoutInput {
  readonly title: string;
  readonly current: string | null;
  readonly nav: readonly NavEntry[];
  readonly apiEntry: NavEntry;
  readonly headings: readonly Heading[];
  readonly article: string;
  readonly markdownUrl?: string;
  /** More of the head (the API reference's scripts). */
  readonly head?: string;
  /** A page that is not an article (the API reference): its body class; the content goes in as it is. */
  readonly bodyClass?: string;
}

function navList(input: Pick<LayoutInput, 'current' | 'nav' | 'apiEntry' | 'headings'>): string {
  const items = [...input.nav, input.apiEntry].map((entry) => {
    const current = entry.slug === input.current;
    const sub = current ? input.headings.filter((h) => h.depth === 2) : [];
    const toc = sub.length
      ? `\n<ul class="toc" aria-label="On this page">${sub.map((h) => `<li><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`).join('')}</ul>`
      : '';
    return `<li${current ? ' class="current"' : ''}><a href="${escapeHtml(entry.url)}"${current ? ' aria-current="page"' : ''}>${escapeHtml(entry.title)}</a>${toc}</li>`;
  });
  return `<ul class="pages">\n${items.join('\n')}\n</ul>`;
}

function header(options: SiteOptions): string {
  const home = pageUrl(options.prefix, 'index');
  return `<header class="top">
<a class="brand" href="${escapeHtml(home)}">webfolder <span>docs</span></a>
<a class="top-link" href="${escapeHtml(options.siteLink)}">Open the site</a>
</header>`;
}

/**
 * The navigation twice over, one shown at a time by the stylesheet (no script on guide pages): the
 * sidebar beside the content on a wide screen; on a phone a one-line "Menu" that opens the same
 * list, so the page's own text starts on the first screen.
 */
function navigation(input: Pick<LayoutInput, 'current' | 'nav' | 'apiEntry' | 'headings'>): string {
  const here = [...input.nav, input.apiEntry].find((e) => e.slug === input.current);
  return `<nav class="sidebar" aria-label="Documentation">
${navList(input)}
</nav>
<nav class="compact-menu" aria-label="Documentation">
<details>
<summary>Menu${here ? ` <span>· ${escapeHtml(here.title)}</span>` : ''}</summary>
${navList({ ...input, headings: [] })}
</details>
</nav>`;
}

function layout(options: SiteOptions, input: LayoutInput): string {
  const all = [...input.nav, input.apiEntry];
  const at = all.findIndex((e) => e.slug === input.current);
  const prev = at > 0 ? all[at - 1] : undefined;
  const next = at !== -1 && at < all.length - 1 ? all[at + 1] : undefined;
  const pager =
    prev || next
      ? `<nav class="pager" aria-label="Previous and next page">${prev ? `<a class="prev" href="${escapeHtml(prev.url)}"><span>Previous</span> ${escapeHtml(prev.title)}</a>` : '<span></span>'}${next ? `<a class="next" href="${escapeHtml(next.url)}"><span>Next</span> ${escapeHtml(next.title)}</a>` : ''}</nav>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)} · webfolder docs</title>
<link rel="stylesheet"${integrity(options, 'css')} href="${escapeHtml(options.assets.css)}">
<link rel="icon" href="${escapeHtml(options.assets.icon)}" type="image/svg+xml">
${input.markdownUrl ? `<link rel="alternate" type="text/markdown" href="${escapeHtml(input.markdownUrl)}">\n` : ''}${input.head ?? ''}</head>
<body${input.bodyClass ? ` class="${input.bodyClass}"` : ''}>
<a class="skip" href="#content">Skip to content</a>
${header(options)}
<div class="layout">
${navigation(input)}
<main id="content" tabindex="-1">
${input.bodyClass ? input.article : `<article>\n${input.article}</article>\n${pager}`}
</main>
</div>
</body>
</html>
`;
}

/**
 * The API reference: Redoc (served by this process) renders the service's own OpenAPI document, in
 * the same layout and navigation as every other page. Its only script is the Redoc bundle and a
 * small init file, both from `'self'`.
 */
function apiReferencePage(options: SiteOptions, nav: readonly NavEntry[], apiEntry: NavEntry): string {
  return layout(options, {
    title: 'API reference',
    current: API_SLUG,
    nav,
    apiEntry,
    headings: [],
    bodyClass: 'api-page',
    head: `<link rel="alternate" type="application/json" href="${escapeHtml(options.openApiUrl)}" title="OpenAPI document">
<script${integrity(options, 'redoc')} src="${escapeHtml(options.assets.redoc)}" defer></script>
<script${integrity(options, 'apiInit')} src="${escapeHtml(options.assets.apiInit)}" defer></script>
`,
    article: `<p class="api-source">Rendered from this service's OpenAPI document: <a href="${escapeHtml(options.publicOpenApiUrl)}">${escapeHtml(options.publicOpenApiUrl)}</a></p>
<noscript><p class="api-source">The interactive reference needs JavaScript. The <a href="${escapeHtml(options.openApiUrl)}">OpenAPI document</a> holds the same content.</p></noscript>
<div id="redoc" data-spec-url="${escapeHtml(options.openApiUrl)}"></div>`,
  });
}
