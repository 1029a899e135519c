import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * The docs site's static assets, built at build time (`npm run build`, which `npm start` and
 * `npm test` run) into `dist/docs-site/_assets/`: the stylesheet (src/docs/assets/docs.css), the API
 * reference's init script, the icon and the Redoc bundle, each under a content-hashed name and
 * with `.br` and `.gz` variants next to it, so that the server serves them with @fastify/static
 * (`preCompressed`) and compresses nothing at run time. `manifest.json` maps each asset to its file.
 *
 * The pages themselves name the configured addresses (DOCS_URL's path, WEB_URL, BASE_URL), so they
 * are rendered by each server when it starts (src/http/routes/docs.ts), from these file names.
 */
export interface DocsAssets {
  readonly css: string;
  readonly apiInit: string;
  readonly icon: string;
  readonly redoc: string;
}

const require = createRequire(import.meta.url);

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
}

function sources(root: string): Source[] {
  const own = (file: string) => join(root, 'src', 'docs', 'assets', file);
  const redocVersion = (require('redoc/package.json') as { version: string }).version;
  return [
    { key: 'css', name: (h) => `docs-${h}.css`, path: own('docs.css') },
    { key: 'apiInit', name: (h) => `api-reference-${h}.js`, path: own('api-reference.js') },
    { key: 'icon', name: (h) => `icon-${h}.svg`, path: own('icon.svg') },
    // The bundle's version names it: hashing 1 MB at every start would be work for nothing.
    {
      key: 'redoc',
      name: () => `redoc-${redocVersion}.standalone.js`,
      path: require.resolve('redoc/bundles/redoc.standalone.js'),
    },
  ];
}

const shortHash = (body: Buffer) => createHash('sha256').update(body).digest('base64url').slice(0, 10);

/** The file names the current sources build to (reads the three small sources, not the bundle). */
async function expectedNames(root: string): Promise<DocsAssets> {
  const names: Partial<Record<keyof DocsAssets, string>> = {};
  for (const source of sources(root))
    names[source.key] = source.key === 'redoc' ? source.name('') : source.name(shortHash(await readFile(source.path)));
  return names as DocsAssets;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Builds the assets into `outDir` (replacing what was there) and returns their file names. */
export async function buildDocsAssets(root = projectRoot(), outDir = docsBuildDir(root)): Promise<DocsAssets> {
  // Built beside the target and renamed into place: a server starting meanwhile never sees half.
  const staging = `${outDir}.build-${process.pid}-${Date.now()}`;
  await mkdir(join(staging, '_assets'), { recursive: true });
  const names: Partial<Record<keyof DocsAssets, string>> = {};
  for (const source of sources(root)) {
    const body = await readFile(source.path);
    const name = source.name(shortHash(body));
    names[source.key] = name;
    const file = join(staging, '_assets', name);
    await writeFile(file, body);
    await writeFile(`${file}.gz`, await gzipAsync(body, { level: 9 }));
    await writeFile(
      `${file}.br`,
      await brotliAsync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    );
  }
  await writeFile(join(staging, 'manifest.json'), `${JSON.stringify(names, null, 2)}\n`);
  await rm(outDir, { recursive: true, force: true });
  try {
    await rename(staging, outDir);
  } catch (error) {
    // Another build won the race with the same sources: keep theirs.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(join(outDir, 'manifest.json'))) throw error;
  }
  return names as DocsAssets;
}

/**
 * The built assets for the current sources: the build's, or (when the project was not built, or
 * was built from other sources, as under `tsx` while editing) built now, once.
 */
export async function docsAssets(root = projectRoot(), outDir = docsBuildDir(root)): Promise<DocsAssets> {
  const expected = await expectedNames(root);
  try {
    const built = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as DocsAssets;
    const complete = (Object.keys(expected) as (keyof DocsAssets)[]).every(
      (key) => built[key] === expected[key] && existsSync(join(outDir, '_assets', built[key])),
    );
    if (complete) return built;
  } catch {
    // Not built yet.
  }
  return buildDocsAssets(root, outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = await buildDocsAssets();
  console.log(`docs assets built into ${docsBuildDir()}: ${Object.values(names).join(', ')}`);
}
