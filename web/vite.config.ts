import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';

/**
 * The browser site. Built into dist/web, which src/http/routes/site.ts serves at the path of WEB_URL.
 * The page is built with a placeholder base that the server replaces with the real path, so one
 * build serves any WEB_URL. The service worker is a second, self-contained build (a classic script:
 * module service workers are not available in every browser the site supports).
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('../dist/web');

function serviceWorker(): Plugin {
  return {
    name: 'webfolder-service-worker',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          target: 'es2022',
          lib: {
            entry: here('./src/sw.ts'),
            formats: ['iife'],
            name: 'webfolderServiceWorker',
            fileName: () => 'sw.js',
          },
        },
      });
    },
  };
}

export default defineConfig({
  root: here('.'),
  base: '/__webfolder_base__/',
  publicDir: false,
  plugins: [serviceWorker()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles anywhere: the CSP allows only 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
