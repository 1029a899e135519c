import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { folderPagePath, SITE_PAGES } from '../domain/links.js';
import {
  type ManifestFile,
  type ManifestKind,
  type ManifestSite,
  parseManifest,
  SITE_MANIFEST_FORMAT,
  SITE_SIGNATURE_SUFFIX,
  type SiteManifest,
  serializeManifest,
} from '../domain/site-manifest.js';

/**
 * The site manifest of a build (src/domain/site-manifest.ts), written by `npm run build` after the
 * page (dist/web) and the docs site (dist/docs-site) into dist/site-manifest.json, which the package
 * ships and every instance serves. It lists every file of dist/web and the docs site's assets,
 * and the page's shell with its template. Nothing in it depends on where or when the build ran:
 * two builds of one commit write the same bytes (test/release/reproducible.test.ts).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MANIFEST_FILE = join(ROOT, 'dist', 'site-manifest.json');

/** A folder page stands for every folder id: the verifier asks for one that does not exist (same shell, 404). */
export const SHELL_PATHS: readonly string[] = [
  '/',
  folderPagePath('{folderId}'),
  ...Object.values(SITE_PAGES).map((name) => `/${name}`),
];

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

function kindOf(site: ManifestSite, path: string): ManifestKind {
  if (site === 'web' && path === '/sw.js') return 'service-worker';
  if (site === 'web' && path === '/crypto-worker.js') return 'worker';
  if (/\.m?js$/.test(path)) return 'script';
  if (path.endsWith('.css')) return 'style';
  if (path.endsWith('.webmanifest')) return 'manifest';
  if (path.endsWith('.wasm')) return 'script';
  return 'other';
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The commit: WEBFOLDER_COMMIT (a build outside a checkout: the image), else the checkout's HEAD. */
function commitOf(root: string, env: NodeJS.ProcessEnv): string {
  if (env.WEBFOLDER_COMMIT) return env.WEBFOLDER_COMMIT;
  if (!existsSync(join(root, '.git'))) return 'unknown';
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

export function buildManifest(root = ROOT, env: NodeJS.ProcessEnv = process.env): SiteManifest {
  const web = join(root, 'dist', 'web');
  const docs = join(root, 'dist', 'docs-site', '_assets');
  const files: ManifestFile[] = [];
  const add = (site: ManifestSite, dir: string, file: string, prefix = '') => {
    const path = `${prefix}/${relative(dir, file).split(sep).join('/')}`;
    files.push({ site, path, kind: kindOf(site, path), sha256: sha256(readFileSync(file)) });
  };
  for (const file of filesUnder(web)) if (file !== join(web, 'index.html')) add('web', web, file);
  // The docs' assets as a browser gets them: their .br and .gz variants are the same bytes, encoded.
  for (const file of filesUnder(docs)) if (!/\.(br|gz)$/.test(file)) add('docs', docs, file, '/_assets');
  const template = readFileSync(join(web, 'index.html'));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return {
    format: SITE_MANIFEST_FORMAT,
    version: pkg.version,
    commit: commitOf(root, env),
    shell: { template: template.toString('utf8'), sha256: sha256(template), paths: SHELL_PATHS },
    files,
  };
}

/** The build's manifest file as served, and its SHA-256 (hex): null when the build wrote none. Read once. */
interface BuiltManifest {
  readonly bytes: Buffer;
  readonly sha256: string;
  readonly version: string;
}
let built: BuiltManifest | null | undefined;
export function builtManifest(): BuiltManifest | null {
  if (built === undefined) {
    const bytes = existsSync(MANIFEST_FILE) ? readFileSync(MANIFEST_FILE) : null;
    built = bytes ? { bytes, sha256: sha256(bytes), version: parseManifest(bytes.toString('utf8')).version } : null;
  }
  return built;
}

/** The build's signature file, when the release was signed (src/release/sign-manifest.ts); read once. */
let builtSig: Buffer | null | undefined;
export function builtSignature(): Buffer | null {
  if (builtSig === undefined) {
    const file = `${MANIFEST_FILE}${SITE_SIGNATURE_SUFFIX}`;
    builtSig = existsSync(file) ? readFileSync(file) : null;
  }
  return builtSig;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = buildManifest();
  const text = serializeManifest(manifest);
  writeFileSync(MANIFEST_FILE, text);
  console.log(`site manifest: ${MANIFEST_FILE} (${manifest.files.length} files, sha256 ${sha256(Buffer.from(text))})`);
}
