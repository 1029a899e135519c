import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { integrityOf } from '../domain/site-manifest.js';
import { type DocsSource, loadDocs, renderSite } from './render.js';

/**
 * The docs site, built at build time (`npm run build`, which `npm start` and `npm test` run) into
 * `dist/docs-site/`: every page of docs/*.md rendered to HTML, and the assets under `_assets/` (the
 * stylesheet src/docs/assets/docs.css, the API reference's init script, the icon and the Redoc
 * bundle, under content-hashed names). Pages and assets have `.br` and `.gz` variants next to them,
 * so that the server serves them with @fastify/static (`preCompressed`), renders nothing and
 * compresses nothing at run time. `manifest.json` maps each asset to its file, `site.json` lists
 * the pages.
 *
 * The pages hold no configured address but DOCS_URL's path (see docs/decisions.md): "Open the site"
 * links `<prefix>/_site`, which redirects to WEB_URL, and the API reference's one mention of
 * BASE_URL is a placeholder its route fills in. A server started from unbuilt (or changed) sources
 * builds the site once when it starts; one whose DOCS_URL has another path than `/docs` builds its
 * own copy once, in the system's temporary directory (see docsSiteDir).
 *
 * A production install (`npm pack` + `npm install -g`, `npm ci --omit=dev`, the container image) has
 * dist/ but no src/ and no Redoc package (a devDependency): there the build is what runs. Its site is
 * served as built, and a site for another DOCS_URL path is rendered from docs/ with the build's own
 * copies of the assets (see fromBuild).
 */
export interface DocsAssets {
  readonly css: string;
  readonly apiInit: string;
  readonly icon: string;
  readonly redoc: string;
}

const require = createRequire(import.meta.url);
/** The path of the default DOCS_URL (`<BASE_URL>/docs`): the site `npm run build` renders. */
export const DEFAULT_PREFIX = '/docs';

/** The project's root: the nearest folder above this module with a package.json (src/ and dist/). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

export function docsBuildDir(root = projectRoot()): string {
  // Beside the compiled code (dist/docs/*.js, which this build must not clear), as dist/web is.
  return join(root, 'dist', 'docs-site');
}

interface Source {
  readonly key: keyof DocsAssets;
  readonly name: (hash: string) => string;
  readonly path: string;
  /** What is served differs from the file: see noExternalLogo. */
  readonly transform?: (body: Buffer) => Buffer;
}

/**
 * Redoc's sidebar credit loads a logo from cdn.redoc.ly, which the API reference's CSP blocks (a
 * refused request in every visitor's console, and an address of another site in the page). The
 * served bundle renders the credit without that image; the build fails if a new Redoc version
 * changes the code, so the check is not silently lost.
 */
const REDOC_LOGO =
  /[\w$]+\?[\w$]+\.createElement\("img",\{alt:"redocly logo",onError:\(\)=>[\w$]+\(!1\),src:"https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg"\}\):null/g;
export function noExternalLogo(body: Buffer): Buffer {
  const text = body.toString('utf8');
  const matches = text.match(REDOC_LOGO)?.length ?? 0;
  const out = text.replace(REDOC_LOGO, 'null');
  if (matches !== 1 || out.includes('cdn.redoc.ly'))
    throw new Error('docs build: the Redoc bundle has changed: update noExternalLogo in src/docs/build.ts');
  return Buffer.from(out, 'utf8');
}

/** Whether the sources the build reads are here: a checkout, not a production install (see above). */
export function fromBuild(root = projectRoot()): boolean {
  return !existsSync(join(root, 'src', 'docs', 'assets'));
}

function sources(root: string): Source[] {
  const own = (file: string) => join(root, 'src', 'docs', 'assets', file);
  const redocVersion = (require('redoc/package.json') as { version: string }).version;
  return [
    { key: 'css', name: (h) => `docs-${h}.css`, path: own('docs.css') },
    { key: 'apiInit', name: (h) => `api-reference-${h}.js`, path: own('api-reference.js') },
    { key: 'icon', name: (h) => `icon-${h}.svg`, path: own('icon.svg') },
    // The bundle's version names it (and `-local`: it is Redoc's bundle without the external logo):
    // hashing 1 MB at every start would be work for nothing.
    {
      key: 'redoc',
      name: () => `redoc-${redocVersion}-local.standalone.js`,
      path: require.resolve('redoc/bundles/redoc.standalone.js'),
      transform: noExternalLogo,
    },
  ];
}

const shortHash = (body: Buffer) => createHash('sha256').update(body).digest('base64url').slice(0, 10);

/** The asset names of the build itself (its manifest), for a production install. */
async function builtNames(root: string): Promise<DocsAssets> {
  return JSON.parse(await readFile(join(docsBuildDir(root), 'manifest.json'), 'utf8')) as DocsAssets;
}

/** The file names the current sources build to (reads the three small sources, not the bundle). */
async function expectedNames(root: string): Promise<DocsAssets> {
  if (fromBuild(root)) return builtNames(root);
  const names: Partial<Record<keyof DocsAssets, string>> = {};
  for (const source of sources(root))
    names[source.key] = source.key === 'redoc' ? source.name('') : source.name(shortHash(await readFile(source.path)));
  return names as DocsAssets;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Writes `body` to `file` with its `.gz` and `.br` variants next to it. */
async function writeCompressed(file: string, body: Buffer): Promise<void> {
  await writeFile(file, body);
  await writeFile(`${file}.gz`, await gzipAsync(body, { level: 9 }));
  await writeFile(
    `${file}.br`,
    await brotliAsync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  );
}

/** Writes the assets and their manifest into `dir` and returns their file names. */
async function writeAssets(root: string, dir: string): Promise<DocsAssets> {
  await mkdir(join(dir, '_assets'), { recursive: true });
  if (fromBuild(root)) {
    // A production install: the build's own assets, with their compressed variants, as they are.
    const names = await builtNames(root);
    for (const name of Object.values(names))
      for (const variant of ['', '.gz', '.br'])
        await copyFile(
          join(docsBuildDir(root), '_assets', `${name}${variant}`),
          join(dir, '_assets', `${name}${variant}`),
        );
    await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(names, null, 2)}\n`);
    return names;
  }
  const names: Partial<Record<keyof DocsAssets, string>> = {};
  for (const source of sources(root)) {
    const file = await readFile(source.path);
    const body = source.transform ? source.transform(file) : file;
    const name = source.name(shortHash(body));
    names[source.key] = name;
    await writeCompressed(join(dir, '_assets', name), body);
  }
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(names, null, 2)}\n`);
  return names as DocsAssets;
}

/**
 * Builds into a folder beside `outDir` and renames it into place: a server starting meanwhile never
 * sees half a build. `check` names a file whose presence means another build won the race.
 */
async function publish<T>(outDir: string, check: string, write: (staging: string) => Promise<T>): Promise<T> {
  const staging = `${outDir}.build-${process.pid}-${Date.now()}`;
  await rm(staging, { recursive: true, force: true });
  const result = await write(staging);
  await rm(outDir, { recursive: true, force: true });
  try {
    await rename(staging, outDir);
  } catch (error) {
    // Another build won the race with the same sources: keep theirs.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(join(outDir, check))) throw error;
  }
  return result;
}

/** Builds the assets into `outDir` (replacing what was there) and returns their file names. */
export async function buildDocsAssets(root = projectRoot(), outDir = docsBuildDir(root)): Promise<DocsAssets> {
  return publish(outDir, 'manifest.json', (staging) => writeAssets(root, staging));
}

/**
 * Where the site for a docs folder and path prefix is built: the build's own folder for the project's
 * docs at `/docs`; for anything else a folder of the system's temporary directory named after both
 * (and the project), so that it is built once and not left in dist/ for every other DOCS_URL path.
 */
export function docsSiteDir(prefix: string, docsDir: string, root = projectRoot()): string {
  if (prefix === DEFAULT_PREFIX && resolve(docsDir) === join(root, 'docs')) return docsBuildDir(root);
  return join(tmpdir(), `webfolder-docs-site-${shortHash(Buffer.from(`${root}\n${prefix}\n${resolve(docsDir)}`))}`);
}

/** What a site build holds (`site.json`), read by the docs routes instead of rendering anything. */
export interface DocsSite {
  readonly prefix: string;
  /** Hash of everything the pages are made of: a different one means the build is stale. */
  readonly sources: string;
  readonly assets: DocsAssets;
  /** Slugs with a page at `pages/<slug>.html` (.br, .gz). */
  readonly pages: string[];
  /** Slugs whose Markdown source is served at `<slug>.md` (`pages/<slug>.md`). */
  readonly markdown: string[];
  /** Files next to the docs (`files/<path>`), by path, with their media type. */
  readonly files: Record<string, string>;
}

/** The path the API reference page's public OpenAPI address stands at until a server fills it in. */
export const PUBLIC_OPENAPI_PLACEHOLDER = '{{WEBFOLDER_PUBLIC_OPENAPI_URL}}';
/** The link of "Open the site" in every page's header: a redirect to WEB_URL (see the docs routes). */
export const SITE_LINK_SLUG = '_site';

/** The hash of the pages' inputs: the prefix, the docs, the asset names and the renderer's own code. */
async function sourcesHash(root: string, prefix: string, docs: DocsSource): Promise<string> {
  const hash = createHash('sha256').update(`${prefix}\n`);
  // The renderer's TypeScript sources, whether this runs compiled or under tsx: both must agree on
  // the hash, or servers of each kind would rebuild the folder the other one serves.
  for (const module of ['build', 'render', 'html'])
    hash.update(await readFile(join(root, 'src', 'docs', `${module}.ts`)).catch(() => Buffer.alloc(0)));
  hash.update(JSON.stringify(await expectedNames(root)));
  for (const doc of docs.docs) hash.update(`\0${doc.slug}\0${doc.markdown}`);
  for (const file of docs.files) hash.update(`\0${file.path}\0`).update(file.body);
  return hash.digest('base64url');
}

/**
 * Builds the whole docs site into `outDir`: the assets, every page rendered for `prefix` as HTML with
 * `.br` and `.gz` variants, the 404 and API reference pages, the Markdown sources and the files
 * next to the docs, and `site.json` describing them.
 */
export async function buildDocsSite(
  root = projectRoot(),
  prefix = DEFAULT_PREFIX,
  docsDir = join(root, 'docs'),
  outDir = docsSiteDir(prefix, docsDir, root),
): Promise<DocsSite> {
  const docs = await loadDocs(docsDir);
  const sourceHash = await sourcesHash(root, prefix, docs);
  return publish(outDir, 'site.json', async (staging) => {
    const assets = await writeAssets(root, staging);
    const assetUrl = (name: string) => `${prefix}/_assets/${name}`;
    // Subresource Integrity of what the pages run and style with, from the bytes just written.
    const sri = async (name: string) =>
      integrityOf(
        createHash('sha256')
          .update(await readFile(join(staging, '_assets', name)))
          .digest('hex'),
      );
    const site = renderSite(docs, {
      prefix,
      siteLink: `${prefix}/${SITE_LINK_SLUG}`,
      openApiUrl: `${prefix}/openapi.json`,
      publicOpenApiUrl: PUBLIC_OPENAPI_PLACEHOLDER,
      assets: {
        css: assetUrl(assets.css),
        redoc: assetUrl(assets.redoc),
        apiInit: assetUrl(assets.apiInit),
        icon: assetUrl(assets.icon),
      },
      integrity: { css: await sri(assets.css), redoc: await sri(assets.redoc), apiInit: await sri(assets.apiInit) },
    });
    await mkdir(join(staging, 'pages'), { recursive: true });
    const markdown: string[] = [];
    for (const page of site.pages.values()) {
      await writeCompressed(join(staging, 'pages', `${page.slug}.html`), Buffer.from(page.html));
      if (page.markdown) {
        markdown.push(page.slug);
        await writeFile(join(staging, 'pages', `${page.slug}.md`), page.markdown);
      }
    }
    // Sent as strings by the routes (the API reference once a server fills in the public OpenAPI
    // address; the 404 page from every not-found handler): no variants.
    await writeFile(join(staging, 'api.html'), site.apiReference);
    await writeFile(join(staging, '404.html'), site.notFound);
    const files: Record<string, string> = {};
    for (const file of site.files.values()) {
      files[file.path] = file.type;
      await mkdir(dirname(join(staging, 'files', file.path)), { recursive: true });
      await writeFile(join(staging, 'files', file.path), file.body);
    }
    const built: DocsSite = { prefix, sources: sourceHash, assets, pages: [...site.pages.keys()], markdown, files };
    await writeFile(join(staging, 'site.json'), `${JSON.stringify(built, null, 2)}\n`);
    return built;
  });
}

/**
 * The built site for `prefix` and `docsDir`: the build's, or (when the project was not built, was
 * built from other sources, as under `tsx` while editing, or for another DOCS_URL path) built now
 * into its own folder under dist/, once. Reads the docs to compare, renders nothing when current.
 */
export async function docsSite(
  prefix: string,
  docsDir: string,
  root = projectRoot(),
): Promise<{ readonly dir: string; readonly site: DocsSite }> {
  const dir = docsSiteDir(prefix, docsDir, root);
  try {
    const built = JSON.parse(await readFile(join(dir, 'site.json'), 'utf8')) as DocsSite;
    // A production install serves its build as it is: nothing it was made from is here to compare.
    if (fromBuild(root) && dir === docsBuildDir(root) && built.prefix === prefix) return { dir, site: built };
    const current = await sourcesHash(root, prefix, await loadDocs(docsDir));
    if (built.sources === current && built.prefix === prefix) return { dir, site: built };
  } catch {
    // Not built yet.
  }
  return { dir, site: await buildDocsSite(root, prefix, docsDir, dir) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const site = await buildDocsSite();
  console.log(
    `docs site built into ${docsBuildDir()}: ${site.pages.length} pages, ${Object.values(site.assets).join(', ')}`,
  );
}
