import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import { pageAnswerValidators } from './answer-validators.js';
import { subresourceIntegrity } from './subresource-integrity.js';

/**
 * The browser site. Built into dist/web, which src/http/routes/site.ts serves at the path of WEB_URL.
 * The page is built with a placeholder base that the server replaces with the real path, so one
 * build serves any WEB_URL. The service worker and the crypto worker are self-contained builds of
 * their own (classic scripts: module workers are not available in every browser the site supports).
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('../dist/web');

/** The workers as classic scripts at the site's root: the service worker and the crypto worker. */
const WORKERS = [
  { entry: './src/workers/sw.ts', name: 'webfolderServiceWorker', file: 'sw.js' },
  { entry: './src/workers/crypto-worker.ts', name: 'webfolderCryptoWorker', file: 'crypto-worker.js' },
];

function workers(): Plugin {
  return {
    name: 'webfolder-workers',
    apply: 'build',
    async closeBundle() {
      for (const w of WORKERS) {
        await build({
          configFile: false,
          logLevel: 'warn',
          plugins: [pageAnswerValidators()],
          build: {
            outDir,
            emptyOutDir: false,
            target: 'es2022',
            lib: { entry: here(w.entry), formats: ['iife'], name: w.name, fileName: () => w.file },
          },
        });
      }
    },
  };
}

/**
 * The app's icon at a fixed name (the web app manifest, src/domain/web-app-manifest.ts, names it):
 * the favicon's SVG as it is, which scales to every size a platform asks for.
 */
function appIcon(): Plugin {
  return {
    name: 'webfolder-app-icon',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'icon.svg', source: readFileSync(here('./src/favicon.svg')) });
    },
  };
}

export default defineConfig({
  root: here('.'),
  base: '/__webfolder_base__/',
  publicDir: false,
  plugins: [pageAnswerValidators(), appIcon(), workers(), subresourceIntegrity(outDir)],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles anywhere: the CSP allows only 'self'.
    assetsInlineLimit: 0,
    // No preload helper: it would write <link rel=modulepreload> with the placeholder base, which only
    // index.html has replaced. The catalogs (web/src/i18n/messages) are the only dynamic imports and
    // have no dependencies; `import('./fr-….js')` resolves against the module's own URL.
    modulePreload: false,
  },
});
