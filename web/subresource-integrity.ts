import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { BUILD_BASE, integrityOf, pageReferences } from '../src/domain/site-manifest.js';

/**
 * Subresource Integrity on the page: after the build (and the workers' builds) has written its
 * files, every `<script src>`, module preload and stylesheet of dist/web/index.html gets the
 * `integrity` of the file it names, so that a browser refuses a script or style whose bytes were
 * changed on the way (a proxy, a tampered cache). SHA-256, the manifest's hash, so the two can be
 * compared directly (src/domain/site-manifest.ts). The page fails the build when it references
 * something that is not one of its own files, or has inline script or style (the CSP forbids both).
 */
export function subresourceIntegrity(outDir: string): Plugin {
  return {
    name: 'webfolder-subresource-integrity',
    apply: 'build',
    // After the workers' plugin, whose closeBundle runs first (plugins run in their order).
    closeBundle: {
      order: 'post',
      handler() {
        const file = join(outDir, 'index.html');
        const html = readFileSync(file, 'utf8');
        const out = html.replace(/<(script|link)\b[^>]*>/g, (tag) => {
          const [ref] = pageReferences(tag.startsWith('<script') ? `${tag}</script>` : tag);
          if (!ref) return tag;
          if (!ref.url.startsWith(BUILD_BASE))
            throw new Error(`index.html references ${ref.url}, not a file of the build`);
          if (ref.integrity !== null) throw new Error(`index.html already has an integrity on ${ref.url}`);
          const body = readFileSync(join(outDir, ref.url.slice(BUILD_BASE.length)));
          const sri = integrityOf(createHash('sha256').update(body).digest('hex'));
          return tag.replace(/\s(src|href)=/, ` integrity="${sri}" $1=`);
        });
        if (pageReferences(out).some((r) => r.kind.startsWith('inline-')))
          throw new Error('index.html has inline script or style: the CSP allows neither');
        writeFileSync(file, out);
      },
    },
  };
}
